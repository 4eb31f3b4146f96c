/// Why a live run or a pack server could not go on: one line, as odr-sim's errors are.
public struct LiveError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The folder's file system was full: what could not be written is a download that fails
    /// out of space, not the end of the run.
    public let isDiskFull: Bool

    public init(_ description: String, isDiskFull: Bool = false) {
        self.description = description
        self.isDiskFull = isDiskFull
    }
}
