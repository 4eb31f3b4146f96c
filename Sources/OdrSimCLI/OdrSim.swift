import ArgumentParser

/// The `odr-sim` command: a discrete-event simulator of On-Demand Resources storage pressure.
public struct OdrSim: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "odr-sim",
        abstract: "Simulate On-Demand Resources storage pressure and compare purge policies.",
        subcommands: [ReplayCommand.self, PoliciesCommand.self])

    public init() {}
}
