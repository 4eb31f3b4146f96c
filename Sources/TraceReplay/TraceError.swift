/// Why a trace could not be read: the file, the line (when there is one) and what is wrong,
/// printed like a compiler message: `cloudphysics.csv:17: size 'x' is not a number`.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The trace's file name (last path component), as messages show it.
    public let file: String
    /// 1-based line number (the header is line 1), or nil for whole-file problems.
    public let line: Int?
    public let message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
