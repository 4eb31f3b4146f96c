import ArgumentParser
import Metrics
import Reports
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
        let source = ScenarioSource(
            name: document.name, description: document.description, file: file, scenario: document.scenario)
        say(source.validated(policies: document.policies))
        try checkWorkload(document.scenario, file: file, maxEvents: limits.maxEvents, refuses: false)
    }
}
