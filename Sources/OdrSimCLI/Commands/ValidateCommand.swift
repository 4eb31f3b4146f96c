import ArgumentParser
import Metrics
import SafeOutput
import Simulation

/// `odr-sim validate`: check a scenario without running it.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check a scenario file, catalog size limits included, without running it.",
        discussion: """
            Prints a one-line description of a valid scenario, with the workload events one run \
            makes (scripted events plus each generator's mean), and exits 0; otherwise prints \
            FILE:LINE:COLUMN: reason and exits 1. A workload of more than 100 million events \
            per run, or more than --max-events, gets a warning on stderr.

            Example:
              odr-sim validate scenarios/game.scn
            """)

    @Argument(help: "The scenario file (.scn).")
    var file: String

    @OptionGroup var limits: RunLimits

    func run() throws {
        let document = try loadScenario(file)
        let s = document.scenario
        let packs = s.apps.reduce(0) { $0 + $1.catalog.packs.count }
        let tags = s.apps.reduce(0) { $0 + $1.catalog.tags.count }
        say(
            """
            \(file): ok — '\(document.name)' on \(s.platformNames): \(s.apps.count) app(s), \(tags) tags in \(packs) \
            packs, \
            \(s.events.count) scripted events, \(s.generators.count) workload generator(s), \
            \(humanDuration(s.duration)), about \(scientific(s.expectedEvents)) workload events per run,
            """
                + " policies \(document.policies.joined(separator: ", "))")
        warnAboutWorkload(s, file: file, maxEvents: limits.maxEvents)
    }
}
