import ArgumentParser
import CommandShell
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
            MigrateCommand.self, AdviseCommand.self, ServeLauncher.self, LiveLauncher.self,
        ]
    )

    public init() {}

    /// Parses the command line and runs the command (``CommandLineMain``).
    public static func main() { CommandLineMain.run(OdrSim.self) }
}
