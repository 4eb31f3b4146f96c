import ArgumentParser
import Experiments
import Foundation
import Metrics
import Quantities
import Reports
import SafeOutput
import Simulation

/// The guard against runaway work shared by the commands that simulate.
struct RunLimits: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Most kernel events one run may process; a run that reaches it stops the command with an error and no \
            report.
            """
                + " Default: 1000000000 (minutes of work; a 50-app simulated year is 6 million).", valueName: "n"))
    var maxEvents: Int = ExperimentRunner.defaultMaxEvents

    func validate() throws { if maxEvents < 1 { throw ValidationError("--max-events must be at least 1") } }
}

/// Runs an experiment with a progress bar on a terminal. A failed run (its event limit)
/// calls `cleanUp` and throws its one-line reason.
/// `locations` are where the scripted events were written (``ScenarioDocument/eventLocations``),
/// for the warnings.
func runWithProgress(
    _ runner: ExperimentRunner, locations: [String], indices: [Int]? = nil, cleanUp: () -> Void = {}
) throws -> [ExperimentRunner.RunResult] {
    let results: [ExperimentRunner.RunResult]
    do {
        results = try ProgressBar(unit: "runs").run(runner, indices: indices)
    } catch {
        cleanUp()
        throw CommandFailure("\(error)")
    }
    for line in results.noticeLines(locations: locations) { note(line) }
    return results
}

/// Refuses, before any run starts, a workload whose estimate is beyond `--max-events`
/// (a run would only stop there, minutes or years later); warns about a large one, and
/// about nonsense that runs (``Metrics/workloadNotes(_:at:maxEvents:)``). `point` names a
/// study's point (`used=61.5GB`); `validate` (`refuses: false`) only warns.
func checkWorkload(
    _ scenario: Scenario, file: String, maxEvents: Int, point: String = "", refuses: Bool = true
) throws {
    let notes = workloadNotes(scenario, at: point.isEmpty ? file : "\(file) (\(point))", maxEvents: maxEvents)
    for line in notes.warnings { note(line) }
    guard let refusal = notes.refusal else { return }
    guard refuses else { return note("odr-sim: warning: \(refusal)") }
    throw CommandFailure(refusal)
}
