import ArgumentParser
import Experiments
import SafeOutput

/// `odr-sim assumptions`: every modelling choice no source documents, one line each.
struct AssumptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assumptions",
        abstract:
            "List every modelling choice that no platform source documents: its key, default, alternatives and why.",
        discussion: """
            Each line: name, the scenario key that sets it, default, alternatives, and why the
            default. `compare --robustness` reruns a comparison under each alternative that applies.

            Examples:
              odr-sim assumptions
              odr-sim assumptions --csv > assumptions.csv
              odr-sim compare Scenarios/game-background-assets.scn --replications 4 --robustness
            """)

    @Flag(help: "Print CSV (assumption, key, default, alternatives, why, covers) instead of lines.")
    var csv = false

    func run() {
        if csv {
            say(Assumption.csv, terminator: "")
            return
        }
        for assumption in Assumption.all { say(assumption.line) }
    }
}
