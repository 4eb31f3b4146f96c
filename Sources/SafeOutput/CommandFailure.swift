import TextInput

/// Why a command failed, as the one line `odr-sim` prints on stderr before it exits
/// (``OdrSim/main()``): status 64 for a misuse of the command line (``usage(_:)``), 1 for bad
/// input or a failed run.
///
/// Commands throw it rather than exit, so that a test can run a command in the same process
/// and read the reason. A reason that begins with where the problem is (a scenario's
/// `FILE:LINE:COLUMN: …`, a trace's `FILE:LINE: …`) is printed as it is, so that editors and
/// CI annotations can jump to it; any other is prefixed with `odr-sim: `.
public struct CommandFailure: Error, CustomStringConvertible, Equatable {
    public let message: String
    /// Whether ``message`` begins with a location.
    public let located: Bool
    /// The exit status: 64 (EX_USAGE) for the command line, 1 for anything else.
    public let status: Int32

    public init(_ message: String, located: Bool = false, status: Int32 = 1) {
        self.message = message
        self.located = located
        self.status = status
    }

    /// A misuse of the command line: an option's value, or a combination of options.
    public static func usage(_ message: String) -> CommandFailure { CommandFailure(message, status: 64) }

    /// The process's arguments after its name, as paths (``PathBytes/arguments()``); the one
    /// that cannot be carried is a misuse (exit 64).
    public static func commandLine() throws(CommandFailure) -> [String] {
        switch PathBytes.arguments() {
        case .success(let arguments): return arguments
        case .failure(let refusal): throw usage(refusal.description)
        }
    }

    /// The line printed: ``message``, prefixed with `odr-sim: ` unless it is ``located``.
    public var description: String { located ? message : "odr-sim: " + message }
}

/// The text of an input file, read by the one reader (``InputText``): a problem is one
/// line at `FILE:LINE:COLUMN`.
public func readInput(_ path: String) throws(CommandFailure) -> String {
    do {
        return try InputText.read(path)
    } catch {
        throw CommandFailure(
            "\(InputText.oneLine(path)):\(error.line):\(error.column): \(error.message)", located: true)
    }
}
