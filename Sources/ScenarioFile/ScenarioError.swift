import TextInput

/// Why a scenario file was rejected: where (`FILE:LINE:COLUMN`, 1-based) and a one-line reason.
///
/// ```text
/// game.scn:12:5: unknown top-level key 'polices'; did you mean 'policies'?
/// ```
///
/// Errors about the file as a whole (it cannot be read, it is empty) point at line 1, column 1,
/// so every message has the same shape for editors and scripts.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name as given to the parser.
    public let file: String
    public let line: Int
    /// Counted in Unicode scalars, as libyaml does.
    public let column: Int
    /// One line; line breaks in it (from a key or a system message) are replaced by spaces.
    public let message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `FILE:LINE:COLUMN: message`, on one line.
    public var description: String { "\(InputText.oneLine(file)):\(line):\(column): \(message)" }
}
