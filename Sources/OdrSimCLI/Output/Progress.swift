import ArgumentParser
import Foundation
import Experiments
import Metrics
import Simulation

/// The guard against runaway work shared by the commands that simulate.
struct RunLimits: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Most kernel events one run may process; a run that reaches it stops the command with an error and no report. "
            + "Default: 1000000000 (minutes of work; a 50-app simulated year is 6 million).",
        valueName: "n"))
    var maxEvents: Int = ExperimentRunner.defaultMaxEvents

    func validate() throws {
        if maxEvents < 1 { throw ValidationError("--max-events must be at least 1") }
    }
}

/// Most replications a command may ask for (the scenario format's limit).
let maximumReplications = ModelLimits.replications

/// Runs an experiment with a progress bar on a terminal. A failed run (its event limit)
/// calls `cleanUp` and throws its one-line reason.
/// `locations` are where the scripted events were written (``ScenarioDocument/eventLocations``)
/// and `points` names a study's points (`used=61.5GB`), for the warnings.
func runWithProgress(_ runner: ExperimentRunner, locations: [String], indices: [Int]? = nil, points: [String] = [],
                     cleanUp: () -> Void = {}) throws -> [ExperimentRunner.RunResult] {
    let bar = ProgressBar(unit: "runs")
    defer { bar.finish() }
    do {
        // No bar to draw (not a terminal): no progress calls at all.
        var progress: (@Sendable (ExperimentRunner.Progress) -> Void)?
        if bar.enabled {
            progress = { (p: ExperimentRunner.Progress) in bar.update(fraction: p.fraction, done: p.finished, total: p.total) }
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
            line += " (in \(runs) of \(results.count) runs, first \(run.policy) replication \(run.replication)\(point))"
        }
        return line
    }
}

/// Workloads above this many events per run get a warning before they start.
let largeWorkloadEvents = 1e8

/// Warns on stderr when a scenario's workload is large enough to take minutes per run, or to
/// reach the event limit; says which generator makes most of it.
func warnAboutWorkload(_ scenario: Scenario, file: String, maxEvents: Int) {
    for text in scenarioWarnings(scenario) { note("odr-sim: warning: \(file): \(text)") }
    guard let text = workloadWarning(scenario, maxEvents: maxEvents) else { return }
    note("odr-sim: warning: \(file): \(text)")
}

/// What runs but makes no sense, one line each (warnings, not errors: a study of it may be
/// meant): an app no event installs (every request of it fails with `app-not-installed`), an
/// app asked for content but never launched (a real app asks only while it runs), a workload
/// generator that makes no event over the run.
func scenarioWarnings(_ scenario: Scenario) -> [String] {
    var installed = Set<AppIndex>(), launched = Set<AppIndex>(), requesting = Set<AppIndex>()
    // Whether each app is on the device at each scripted event, in time order: an update of
    // an app that is not there does nothing.
    var present = Set<AppIndex>(), updatesWithoutApp: [AppIndex: Double] = [:]
    for event in scenario.events {
        switch event.action {
        case .install(let a): present.insert(a)
        case .uninstall(let a): present.remove(a)
        case .updateApp(let a), .update(let a, _):
            if !present.contains(a) && updatesWithoutApp[a] == nil { updatesWithoutApp[a] = event.time }
        default: break
        }
        switch event.action {
        case .install(let a): installed.insert(a)
        case .launch(let a): launched.insert(a)
        case .request(let a, _, _, _, _), .requestIfPresent(let a, _, _): requesting.insert(a)
        default: break
        }
    }
    for generator in scenario.generators {
        launched.formUnion(generator.roles.launches)
        requesting.formUnion(generator.roles.requests)
    }
    var warnings = scenario.apps.indices.filter { !installed.contains($0) }.map { a in
        "app '\(scenario.apps[a].id)' is never installed (no {at: …, app: \(scenario.apps[a].id), install: true} event): every request of it fails with app-not-installed"
    }
    for a in scenario.apps.indices where installed.contains(a) && requesting.contains(a) && !launched.contains(a) {
        let id = scenario.apps[a].id
        warnings.append("app '\(id)' makes requests but is never launched (no {at: …, app: \(id), launch: true} event, no sessions generator); a real app asks for content only while it runs")
    }
    for (a, time) in updatesWithoutApp.sorted(by: { $0.key < $1.key }) {
        warnings.append("app '\(scenario.apps[a].id)' is updated at \(humanDuration(time)) while it is not installed; the update does nothing (install it first)")
    }
    for (g, generator) in scenario.generators.enumerated() where generator.expectedEvents(over: scenario.duration) == 0 {
        warnings.append("workload generator \(g + 1) (\(generator.kind)) makes no event over the run (a rate of 0, or a start past the run's end?)")
    }
    return warnings
}

/// Refuses, before any run starts, a workload whose estimate is beyond `--max-events`
/// (a run would only stop there, minutes or years later); warns about a large one.
/// `point` names a study's point (`used=61.5GB`).
func checkWorkload(_ scenario: Scenario, file: String, maxEvents: Int, point: String = "") throws {
    let at = point.isEmpty ? file : "\(file) (\(point))"
    for text in scenarioWarnings(scenario) { note("odr-sim: warning: \(at): \(text)") }
    guard let text = workloadWarning(scenario, maxEvents: maxEvents) else { return }
    guard scenario.expectedEvents <= Double(maxEvents) else {
        throw CommandFailure("\(at): \(text)")
    }
    note("odr-sim: warning: \(at): \(text)")
}

func workloadWarning(_ scenario: Scenario, maxEvents: Int) -> String? {
    let expected = scenario.expectedEvents
    guard expected > largeWorkloadEvents || expected > Double(maxEvents) else { return nil }
    var text = "the workload makes about \(scientific(expected)) events per run"
    let shares = scenario.generators.enumerated().map { ($0.offset, $0.element.expectedEvents(over: scenario.duration)) }
    if let (index, most) = shares.max(by: { $0.1 < $1.1 }), most > expected / 2 {
        text += " (\(RequestLabels.generatorName(scenario, index)): \(scientific(most)))"
    }
    // About 2 M kernel events per second per core in a release build (Benchmarks/README.md).
    text += ", about \(humanDuration(expected / 2e6)) per run"
    if expected > Double(maxEvents) {
        text += "; beyond --max-events \(maxEvents), so it is refused before running (raise --max-events to run it anyway)"
    }
    return text
}

/// 6.3e+13, or 1234 below ten thousand.
func scientific(_ value: Double) -> String {
    value < 10_000 ? String(format: "%.0f", value) : String(format: "%.2g", value)
}

/// A length of real or virtual time in the largest unit that keeps it readable.
func humanDuration(_ seconds: Double) -> String {
    let year = 365.0 * 86400
    if seconds >= 2 * year { return String(format: "%.3g years", seconds / year) }
    if seconds >= 2 * 86400 { return String(format: "%.3g days", seconds / 86400) }
    if seconds >= 7200 { return String(format: "%.3g h", seconds / 3600) }
    if seconds >= 120 { return String(format: "%.3g min", seconds / 60) }
    return String(format: "%.3g s", seconds)
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
