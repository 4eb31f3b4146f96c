import ArgumentParser
import Foundation
import Metrics
import PolicyPlugins
import SafeOutput
import TextInput

/// The `odr-sim` command: simulate storage pressure and purge policy for on-demand resources.
public struct OdrSim: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "odr-sim",
        abstract: "Simulate storage pressure and purge policy for on-demand app content (Apple On-Demand Resources).",
        discussion: """
            A scenario (.scn, YAML) describes a device, its network, apps with tagged resources, \
            and what happens over virtual time. odr-sim runs it under competing purge policies \
            and writes CSV metrics on over-purge, re-downloads, low-disk warnings, failures and waits.

            Examples:
              odr-sim run scenarios/game.scn
              odr-sim compare scenarios/game.scn --replications 30
              odr-sim sweep Scenarios/studies/tag-size.study
              odr-sim replay Scenarios/traces/zipf-20k.csv --capacity 10% --policy lru

            Exit status: 0 on success; 1 for bad input or a failed run (one line);
            64 for a misuse of the command line; 128 + N when stopped by signal N. Reports go \
            only to a new or empty folder or to one odr-sim wrote (docs/safety.md).
            """,
        version: ToolVersion.current,
        subcommands: [
            RunCommand.self, ValidateCommand.self, CompareCommand.self, CheckCommand.self, SweepCommand.self,
            ReplayCommand.self,
            MRCCommand.self, BoundCommand.self, PoliciesCommand.self, PlatformsCommand.self, AssumptionsCommand.self,
            MigrateCommand.self, AdviseCommand.self,
        ]
    )

    public init() {}

    /// Parses the command line and runs the command. Every failure is one line on stderr,
    /// `odr-sim: …` or `FILE:LINE:COLUMN: …`: exit status 64 for a misuse of the command line
    /// (ArgumentParser's checks included), 1 for bad input or a failed run, 128 + the signal
    /// when interrupted (``Interruption``). `--help` and `--version` are ArgumentParser's.
    /// Standard output is checked to its end (``StandardOutput``): a failed write is exit 1.
    /// This is the only place that exits: commands throw.
    public static func main() {
        Interruption.install()
        do {
            // Arguments as paths: a name that is not UTF-8 still names its file (PathBytes).
            let arguments = try CommandFailure.commandLine()
            try PluginLoader.loadCommandLine(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
            try StandardOutput.finish()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data((PathBytes.shown(failure.description) + "\n").utf8))
            Foundation.exit(failure.status)
        } catch {
            let code = exitCode(for: error)
            guard code != .success else {  // --help, --version: through the checked writer too
                let text = fullMessage(for: error)
                say(text.hasSuffix("\n") ? String(text.dropLast()) : text)
                do {
                    try StandardOutput.finish()
                } catch {
                    FileHandle.standardError.write(Data((error.description + "\n").utf8))
                    Foundation.exit(error.status)
                }
                Foundation.exit(0)
            }
            var text = message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            let line = text.split(separator: "\n").first.map(String.init) ?? "failed"
            let hint = code == .validationFailure ? " (see odr-sim help)" : ""
            FileHandle.standardError.write(Data(PathBytes.shown("odr-sim: \(line)\(hint)\n").utf8))
            Foundation.exit(code.rawValue)
        }
    }
}
