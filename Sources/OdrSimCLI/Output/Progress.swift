import ArgumentParser
import Experiments
import Foundation
import Metrics
import Quantities
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

/// Most replications a command may ask for (the scenario format's limit).
let maximumReplications = ModelLimits.replications

/// Runs an experiment with a progress bar on a terminal. A failed run (its event limit)
/// calls `cleanUp` and throws its one-line reason.
/// `locations` are where the scripted events were written (``ScenarioDocument/eventLocations``)
/// and `points` names a study's points (`used=61.5GB`), for the warnings.
func runWithProgress(
    _ runner: ExperimentRunner, locations: [String], indices: [Int]? = nil, points: [String] = [],
    cleanUp: () -> Void = {}
) throws -> [ExperimentRunner.RunResult] {
    let bar = ProgressBar(unit: "runs")
    defer { bar.finish() }
    do {
        // No bar to draw (not a terminal): no progress calls at all.
        var progress: (@Sendable (ExperimentRunner.Progress) -> Void)?
        if bar.enabled {
            progress = { (p: ExperimentRunner.Progress) in
                bar.update(fraction: p.fraction, done: p.finished, total: p.total)
            }
        }
        let results = try runner.run(indices: indices, progress: progress)
        bar.finish()
        for line in noticeLines(results, locations: locations, points: points) { note(line) }
        return results
    } catch {
        bar.finish()
        cleanUp()
        throw CommandFailure("\(error)")
    }
}

/// The runs' notices as `FILE:LINE:COLUMN: warning: message` lines, one per scripted event
/// in file order; an event that only some runs (policies, replications) trip says how many
/// and the first of them (and, in a study, its point).
func noticeLines(_ results: [ExperimentRunner.RunResult], locations: [String], points: [String] = []) -> [String] {
    var byEvent: [Int: (first: RunNotice, run: SummaryRow, runs: Int)] = [:]
    var firstPoint: [Int: Int] = [:]
    for result in results {
        for notice in result.notices {
            if let seen = byEvent[notice.event] {
                byEvent[notice.event]!.runs = seen.runs + 1
            } else {
                byEvent[notice.event] = (notice, result.summary, 1)
                firstPoint[notice.event] = result.point
            }
        }
    }
    return byEvent.keys.sorted().map { event in
        let (notice, run, runs) = byEvent[event]!
        let location = event < locations.count ? locations[event] : "event \(event + 1)"
        var line = "\(location): warning: \(notice.message)"
        if runs < results.count {
            let point = points.indices.contains(firstPoint[event] ?? -1) ? " at \(points[firstPoint[event]!])" : ""
            line +=
                """
                 (in \(runs) of \(results.count) runs, first \(run.policy) replication \
                \(run.replication)\(point))
                """
        }
        return line
    }
}

/// Warns on stderr when a scenario's workload is large enough to take minutes per run, or to
/// reach the event limit; says which generator makes most of it.
func warnAboutWorkload(_ scenario: Scenario, file: String, maxEvents: Int) {
    for text in scenarioWarnings(scenario) { note("odr-sim: warning: \(file): \(text)") }
    guard let text = workloadWarning(scenario, maxEvents: maxEvents) else { return }
    note("odr-sim: warning: \(file): \(text)")
}

/// Refuses, before any run starts, a workload whose estimate is beyond `--max-events`
/// (a run would only stop there, minutes or years later); warns about a large one.
/// `point` names a study's point (`used=61.5GB`).
func checkWorkload(_ scenario: Scenario, file: String, maxEvents: Int, point: String = "") throws {
    let at = point.isEmpty ? file : "\(file) (\(point))"
    for text in scenarioWarnings(scenario) { note("odr-sim: warning: \(at): \(text)") }
    guard let text = workloadWarning(scenario, maxEvents: maxEvents) else { return }
    guard scenario.expectedEvents <= Double(maxEvents) else { throw CommandFailure("\(at): \(text)") }
    note("odr-sim: warning: \(at): \(text)")
}

/// A progress bar with an estimate of the time left, on stderr, shown only on a terminal
/// and only once the work passes one second; redrawn at most ten times a second.
/// `ODR_SIM_PROGRESS=always` shows it on any stderr from the first update (a long job's log).
final class ProgressBar: @unchecked Sendable {
    private let unit: String
    private let started = Date()
    private let lock = NSLock()
    private var shown = false
    private var lastDrawn = Date.distantPast
    /// Whether anything will be drawn (a terminal, or `ODR_SIM_PROGRESS=always`).
    let enabled: Bool
    private let delay: Double

    init(unit: String) {
        self.unit = unit
        let always = ProcessInfo.processInfo.environment["ODR_SIM_PROGRESS"] == "always"
        enabled = always || isatty(STDERR_FILENO) == 1
        delay = always ? 0 : 1
    }

    func update(fraction: Double, done: Int, total: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed >= delay, now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        shown = true
        lastDrawn = now
        let f = min(1, max(0, fraction))
        let width = 30
        let filled = Int(Double(width) * f)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let left = f > 0 ? humanDuration(elapsed * (1 - f) / f) + " left" : "estimating"
        let line = String(format: "[%@] %3.0f%% · %d/%d %@ · %@", bar, f * 100, done, total, unit, left)
        FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
