import Foundation
import SafeOutput
import TextInput

/// `odr-sim serve` and `odr-sim live` run `odr-sim-live` (beside this executable) with the
/// same arguments: the live commands need SwiftNIO, built apart so that odr-sim's own first
/// build compiles none of it (docs/live.md). Their `--help` is `odr-sim-live`'s.
public enum LiveTools {
    public static let executable = "odr-sim-live"

    /// Replaces this process with `odr-sim-live COMMAND ARGUMENTS…`.
    public static func exec(_ command: String, _ arguments: [String]) throws -> Never {
        let own = PathBytes.resolved("/proc/self/exe") ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(executable).path
        guard access(path, X_OK) == 0 else {
            throw CommandFailure(
                """
                odr-sim \(command) runs \(executable), built apart (it needs SwiftNIO) and not built here: run \
                ./odr-sim \(command) … from the repository, which builds it (about a minute), or swift build -c \
                release --product \(executable)
                """)
        }
        let argv = [path, command] + arguments
        var cStrings = argv.map { PathBytes.withCString($0) { strdup($0) } }
        cStrings.append(nil)
        execv(path, cStrings)
        throw CommandFailure("cannot run \(path): \(String(cString: strerror(errno)))")
    }
}
