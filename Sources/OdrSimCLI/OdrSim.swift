import ArgumentParser
import Foundation

/// The `odr-sim` command: simulate storage pressure and purge policy for on-demand resources.
public struct OdrSim: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "odr-sim",
        abstract: "Simulate storage pressure and purge policy for on-demand app content (Apple ODR, Android PAD).",
        discussion: """
        A scenario (.scn, YAML) describes a device, its network, apps with tagged resources, \
        and what happens over virtual time. odr-sim runs it under competing purge policies \
        and writes CSV metrics on over-purge, re-downloads, low-disk warnings, failures and waits.

        Examples:
          odr-sim run scenarios/game.scn
          odr-sim compare scenarios/game.scn --replications 30
          odr-sim sweep Scenarios/studies/tag-size.study
          odr-sim replay ../shared/traces/cloudphysics.csv --capacity 202976972 --policy lru
          odr-sim policies
        """,
        version: "0.1.0",
        subcommands: [RunCommand.self, ValidateCommand.self, CompareCommand.self, CheckCommand.self, SweepCommand.self, ReplayCommand.self, MRCCommand.self, BoundCommand.self, PoliciesCommand.self]
    )

    public init() {}

    /// Parses the command line and runs the command. A ``CommandFailure`` is printed as its
    /// one line on stderr, with exit status 1; usage errors and `--help` are ArgumentParser's.
    /// This is the only place that exits: commands throw.
    public static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data((failure.description + "\n").utf8))
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }
}
