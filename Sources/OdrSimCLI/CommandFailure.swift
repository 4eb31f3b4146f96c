/// Why a command failed, as the one line `odr-sim` prints on stderr before it exits with
/// status 1 (``OdrSim/main()``).
///
/// Commands throw it rather than exit, so that a test can run a command in the same process
/// and read the reason. A reason that begins with where the problem is (a scenario's
/// `FILE:LINE:COLUMN: …`, a trace's `FILE:LINE: …`) is printed as it is, so that editors and
/// CI annotations can jump to it; any other is prefixed with `odr-sim: `.
public struct CommandFailure: Error, CustomStringConvertible, Equatable {
    public let message: String
    /// Whether ``message`` begins with a location.
    public let located: Bool

    init(_ message: String, located: Bool = false) {
        self.message = message
        self.located = located
    }

    /// The line printed: ``message``, prefixed with `odr-sim: ` unless it is ``located``.
    public var description: String { located ? message : "odr-sim: " + message }
}
