import ArgumentParser
import Foundation
import PolicyPlugins
import SafeOutput
import TextInput

/// The one way odr-sim's executables run a command line (`odr-sim`, and `odr-sim-live` for
/// `serve` and `live`).
public enum CommandLineMain {
    /// Parses the command line as `Root`'s and runs the command. Every failure is one line on
    /// stderr, `odr-sim: …` or `FILE:LINE:COLUMN: …`: exit status 64 for a misuse of the
    /// command line (ArgumentParser's checks included), 1 for bad input or a failed run, 128 +
    /// the signal when interrupted (``Interruption``). `--help` and `--version` are
    /// ArgumentParser's. Standard output is checked to its end (``StandardOutput``): a failed
    /// write is exit 1. This is the only place that exits: commands throw.
    public static func run<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        Interruption.install()
        do {
            // Arguments as paths: a name that is not UTF-8 still names its file (PathBytes).
            let arguments = try CommandFailure.commandLine()
            try PluginLoader.loadCommandLine(arguments)
            var command = try Root.parseAsRoot(arguments)
            try command.run()
            try StandardOutput.finish()
            Foundation.exit(0)
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data((PathBytes.shown(failure.description) + "\n").utf8))
            Foundation.exit(failure.status)
        } catch {
            let code = Root.exitCode(for: error)
            guard code != .success else {  // --help, --version: through the checked writer too
                let text = Root.fullMessage(for: error)
                say(text.hasSuffix("\n") ? String(text.dropLast()) : text)
                do {
                    try StandardOutput.finish()
                } catch {
                    FileHandle.standardError.write(Data((error.description + "\n").utf8))
                    Foundation.exit(error.status)
                }
                Foundation.exit(0)
            }
            var text = Root.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            let line = text.split(separator: "\n").first.map(String.init) ?? "failed"
            let hint = code == .validationFailure ? " (see odr-sim help)" : ""
            FileHandle.standardError.write(Data(PathBytes.shown("odr-sim: \(line)\(hint)\n").utf8))
            Foundation.exit(code.rawValue)
        }
    }
}
