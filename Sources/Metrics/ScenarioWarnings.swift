import Foundation
import ODRCore
import Simulation

// What a scenario does that runs but makes no sense, and a workload too large to run: the
// warnings `validate`, `run`, `compare`, `sweep` and `advise` print before any work, and the
// text of their refusal beyond `--max-events`.

/// Workloads above this many events per run get a warning before they start.
public let largeWorkloadEvents = 1e8

/// What runs but makes no sense, one line each (warnings, not errors: a study of it may be
/// meant): an app no event installs (every request of it fails with `app-not-installed`), an
/// app asked for content but never launched (a real app asks only while it runs), a pack under
/// 1 KiB (a size written without its unit), a workload generator that makes no event over the run,
/// an `on_low_disk` on a platform where the app removes its own packs (no warning reaches it).
public func scenarioWarnings(_ scenario: Scenario) -> [String] {
    var installed = Set<AppIndex>()
    var launched = Set<AppIndex>()
    var requesting = Set<AppIndex>()
    // Whether each app is on the device at each scripted event, in time order: an update of
    // an app that is not there does nothing.
    var present = Set<AppIndex>()
    var updatesWithoutApp: [AppIndex: Double] = [:]
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
        case .request(let a, _, _, _, _), .requestLatest(let a, _, _, _, _), .requestIfPresent(let a, _, _):
            requesting.insert(a)
        default: break
        }
    }
    for generator in scenario.generators {
        launched.formUnion(generator.roles.launches)
        requesting.formUnion(generator.roles.requests)
    }
    var warnings = scenario.apps.indices.filter { !installed.contains($0) }.map { a in
        """
        app '\(scenario.apps[a].id)' is never installed (no {at: …, app: \(scenario.apps[a].id), install: true} \
        event): every request of it fails with app-not-installed
        """
    }
    for a in scenario.apps.indices where installed.contains(a) && requesting.contains(a) && !launched.contains(a) {
        let id = scenario.apps[a].id
        warnings.append(
            """
            app '\(id)' makes requests but is never launched (no {at: …, app: \(id), launch: true} event, no \
            sessions generator); a real app asks for content only while it runs
            """
        )
    }
    for (a, time) in updatesWithoutApp.sorted(by: { $0.key < $1.key }) {
        warnings.append(
            """
            app '\(scenario.apps[a].id)' is updated at \(humanDuration(time)) while it is not installed; the update \
            does nothing (install it first)
            """
        )
    }
    // A pack under 1 KiB is almost surely a size written without its unit (`size: 45` is 45 bytes).
    for app in scenario.apps where !app.catalog.packs.isEmpty {
        let tiny = app.catalog.packs.filter { $0.size > 0 && $0.size < 1024 }
        guard let first = tiny.first else { continue }
        warnings.append(
            """
            pack '\(first.name)' of app '\(app.id)' is \(first.size) bytes (a size without a unit is bytes); did you \
            mean \(first.size)MB?
            """
                + (tiny.count > 1 ? " (and \(tiny.count - 1) more pack\(tiny.count == 2 ? "" : "s") under 1 KiB)" : ""))
    }
    // ODR's low-disk notification reaches no app whose own code removes its packs, so the run
    // ignores its on_low_disk, as migrate drops it (ODR-SPEC §4; issue 50: one rule for the key).
    for a in scenario.apps.indices
    where scenario.platform(of: a).appRemovesPacks && scenario.apps[a].onLowDisk != .ignore {
        warnings.append(
            """
            app '\(scenario.apps[a].id)' sets on_low_disk: \(scenario.apps[a].onLowDisk.rawValue) on \
            \(scenario.platform(of: a).name), where the app removes its own packs and no low-disk warning \
            reaches it; the run ignores it (as migrate drops it)
            """
        )
    }
    for (g, generator) in scenario.generators.enumerated() where generator.expectedEvents(over: scenario.duration) == 0
    {
        warnings.append(
            """
            workload generator \(g + 1) (\(generator.kind)) makes no event over the run (a rate of 0, or a start \
            past the run's end?)
            """
        )
    }
    return warnings
}

/// What a command says of a scenario before any run, at `at` (its file, or a study's point):
/// each warning as a whole line, and the refusal of a workload beyond `maxEvents` (nil when
/// it may run).
public func workloadNotes(_ scenario: Scenario, at: String, maxEvents: Int) -> (warnings: [String], refusal: String?) {
    var warnings = scenarioWarnings(scenario).map { "odr-sim: warning: \(at): \($0)" }
    guard let text = workloadWarning(scenario, maxEvents: maxEvents) else { return (warnings, nil) }
    if scenario.expectedEvents > Double(maxEvents) { return (warnings, "\(at): \(text)") }
    warnings.append("odr-sim: warning: \(at): \(text)")
    return (warnings, nil)
}

/// The warning for a workload of more than ``largeWorkloadEvents`` events per run, or more
/// than `maxEvents` (then its refusal), naming the generator that makes most of them; nil for
/// a workload of ordinary size.
public func workloadWarning(_ scenario: Scenario, maxEvents: Int) -> String? {
    let expected = scenario.expectedEvents
    guard expected > largeWorkloadEvents || expected > Double(maxEvents) else { return nil }
    var text = "the workload makes about \(scientific(expected)) events per run"
    let shares = scenario.generators.enumerated().map {
        ($0.offset, $0.element.expectedEvents(over: scenario.duration))
    }
    if let (index, most) = shares.max(by: { $0.1 < $1.1 }), most > expected / 2 {
        text += " (\(RequestLabels.generatorName(scenario, index)): \(scientific(most)))"
    }
    // About 2 M kernel events per second per core in a release build (Benchmarks/README.md).
    text += ", about \(humanDuration(expected / 2e6)) per run"
    if expected > Double(maxEvents) {
        text +=
            "; beyond --max-events \(maxEvents), so it is refused before running (raise --max-events to run it anyway)"
    }
    return text
}

/// 6.3e+13, or 1234 below ten thousand.
public func scientific(_ value: Double) -> String {
    value < 10_000 ? String(format: "%.0f", value) : String(format: "%.2g", value)
}

/// A length of real or virtual time in the largest unit that keeps it readable.
public func humanDuration(_ seconds: Double) -> String {
    let year = 365.0 * 86400
    if seconds >= 2 * year { return String(format: "%.3g years", seconds / year) }
    if seconds >= 2 * 86400 { return String(format: "%.3g days", seconds / 86400) }
    if seconds >= 7200 { return String(format: "%.3g h", seconds / 3600) }
    if seconds >= 120 { return String(format: "%.3g min", seconds / 60) }
    return String(format: "%.3g s", seconds)
}
