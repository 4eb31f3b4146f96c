/// Why a live run or a pack server could not go on: one line, as odr-sim's errors are.
public struct LiveError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
