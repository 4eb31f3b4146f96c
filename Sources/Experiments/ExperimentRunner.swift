import Dispatch
import Foundation
import Metrics
import ODRCore
import ODRPolicies
import Simulation
import TextInput

/// Runs a scenario under several policies and replications, or a whole
/// ``ExperimentPlan`` (a study's points), and collects their reports.
///
/// Each (policy, replication) run is independent: its own device, policy and seeded
/// workload. Replication `r` (1-based) uses seed `scenario.seed + r - 1`, whatever the
/// policy, so policies are compared on common random numbers. Runs may execute on several
/// threads; results are kept in plan order, so outputs are byte-identical for any `jobs`.
public struct ExperimentRunner {
    /// What runs: every point under every policy for every replication.
    public let plan: ExperimentPlan
    /// Virtual seconds between time-series samples; 0 takes none.
    public var sampleInterval: Double
    public var recordsEvents: Bool
    public var jobs: Int
    /// When set, each run streams its `events.csv` rows into a file of its own here
    /// (``RunResult/eventsPart``) instead of keeping them in memory.
    public var eventsDirectory: URL?
    /// Most kernel events one run may process; a run that reaches it fails the whole
    /// experiment with ``RunError/eventLimit(policy:replication:events:time:)``.
    public var maxEvents: Int = ExperimentRunner.defaultMaxEvents
    /// Whether each run also computes its ``RunResult/redownloadBound``.
    public var computesRedownloadBound = false
    /// With ``computesRedownloadBound``: the app (its id) whose re-downloads are bounded, or nil
    /// for the device's (``RedownloadBound/init(app:)``).
    public var boundApp: String? = nil
    /// Seconds at the start of every run left out of every metric (a warm-up): the ledger
    /// and the waits start over at this time; events.csv and the samples keep everything.
    public var warmup: Double = 0
    /// Whether each run keeps what a run's report draws beside its samples: the purge
    /// episodes, the low-disk warnings and the wait distribution (200 points). A study's runs
    /// need only their numbers, and 200 points a run were most of a 63,000-run sweep's memory.
    public var keepsChartData = true
    /// With the axis values of each point (by point) and whether the platform metrics are
    /// written: each run also makes its study lines (``RunResult/lines``) on its own thread,
    /// so that a study's serial end only joins them.
    public var studyLines: (values: [[String]], platformMetrics: Bool)? = nil
    /// With ``studyLines``: whether each run also keeps its numbers as it ran them (its
    /// ``RunResult/summary`` and ``RunResult/apps``), for what reads them (a study's
    /// objective, `--precision`, `--robustness`). Without, they are the rows its lines read
    /// back as, one copy of them: a plain sweep's memory.
    public var keepsRunNumbers = true

    /// A billion kernel events per run: minutes of work, far beyond any shipped scenario
    /// (a 50-app simulated year is 6 million), and short of a runaway workload's hours.
    public static let defaultMaxEvents = 1_000_000_000

    /// A runner for every run of `plan`; `sampleInterval` nil takes about 500 samples over
    /// the first point's duration (``defaultSampleInterval(_:)``).
    public init(plan: ExperimentPlan, sampleInterval: Double? = nil, recordsEvents: Bool = true, jobs: Int = 1) {
        self.plan = plan
        self.sampleInterval = sampleInterval ?? Self.defaultSampleInterval(plan.points[0].scenario.duration)
        self.recordsEvents = recordsEvents
        self.jobs = max(1, jobs)
    }

    /// A runner for one scenario (a plan of one point).
    public init(
        scenario: Scenario, policies: [PolicyDescriptor] = [ApplePolicy.descriptor], replications: Int = 1,
        policyOptions: [String: PolicyOptions] = [:], sourceDigest: String = "",
        sampleInterval: Double? = nil, recordsEvents: Bool = true, jobs: Int = 1
    ) {
        let point = ExperimentPlan.Point(scenario, policyOptions: policyOptions, sourceDigest: sourceDigest)
        self.init(
            plan: ExperimentPlan(points: [point], policies: policies, replications: max(1, replications)),
            sampleInterval: sampleInterval, recordsEvents: recordsEvents, jobs: jobs)
    }

    /// A runner for a study's runs: no samples, events or chart data, since a study keeps
    /// only each run's numbers, and each run making its lines (``studyLines``): `values`, the
    /// axis values by point; `platformMetrics`, whether the files have those columns.
    /// `keepsRunNumbers`: ``keepsRunNumbers``.
    public static func study(
        _ plan: ExperimentPlan, values: [[String]], platformMetrics: Bool, jobs: Int, keepsRunNumbers: Bool = false
    ) -> ExperimentRunner {
        var runner = ExperimentRunner(plan: plan, sampleInterval: 0, recordsEvents: false, jobs: jobs)
        runner.keepsChartData = false
        runner.studyLines = (values, platformMetrics)
        runner.keepsRunNumbers = keepsRunNumbers
        return runner
    }

    /// The scenario (the first point of a plan of several).
    public var scenario: Scenario { plan.points[0].scenario }
    public var policies: [PolicyDescriptor] { plan.policies }
    public var replications: Int { plan.replications }

    /// About 500 samples per run, rounded to a whole number of seconds, minutes or hours.
    public static func defaultSampleInterval(_ duration: Double) -> Double {
        let raw = duration / 500
        for step in [1.0, 5, 10, 30, 60, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400] where step >= raw {
            return step
        }
        return (raw / 86400).rounded(.up) * 86400
    }

    /// The outcome of one run.
    public struct RunResult: Sendable {
        /// The run's numbers; in a study that does not keep them
        /// (``ExperimentRunner/keepsRunNumbers``), as its `results.csv` line reads back.
        public internal(set) var summary: SummaryRow
        /// The run's `events.csv` rows, unless they went to ``eventsPart``.
        public let eventRows: String
        public let sampleRows: String
        /// The run's `packs.csv` rows (with the events), and their stretches for the report's chart.
        public var packRows = ""
        public var packStretches: [PackTimeline.Stretch] = []
        /// Kernel events processed (for throughput figures).
        public let kernelEvents: Int
        /// The file holding the run's `events.csv` rows, with ``ExperimentRunner/eventsDirectory``.
        public var eventsPart: URL? = nil
        /// Why the rows could not be written to ``eventsPart``, if they could not.
        public var writeError: String? = nil
        /// What the run's scripted events asked for that could not happen as written.
        public var notices: [RunNotice] = []
        /// What each app of the scenario did, in scenario order (`apps.csv`).
        public var apps: [AppRow] = []
        /// The plan's point the run belongs to (0 for a single scenario).
        public var point: Int = 0
        /// For charts: the samples of `timeseries.csv` as numbers, purge episodes (time,
        /// bytes purged) and low-disk warnings (with event rows), and the wait distribution.
        public var samples: [RunRecorder.Sample] = []
        public var purgeEpisodes: [(time: Double, purged: Int64)] = []
        public var lowDiskWarnings: [Double] = []
        public var waitDistribution: [(seconds: Double, fraction: Double)] = []
        /// With ``ExperimentRunner/computesRedownloadBound``: the fewest bytes any purge order
        /// could have re-downloaded for this run's grants (``RedownloadBound``).
        public var redownloadBound: Int64? = nil
        /// With ``ExperimentRunner/studyLines``: the run's lines of a study's files and its
        /// rows as they read back, made on the run's own thread.
        public var lines: SweepResults.RunLines? = nil
    }

    public enum RunError: Error, CustomStringConvertible {
        /// A run processed ``ExperimentRunner/maxEvents`` kernel events before its end.
        case eventLimit(policy: String, replication: Int, events: Int, time: Double)
        public var description: String {
            switch self {
            case .eventLimit(let policy, let replication, let events, let time):
                "the run of \(policy), replication \(replication), reached the limit of \(events) kernel events "
                    + "at \(String(format: "%.6g", time)) s of virtual time; nothing was written. "
                    + "Raise --max-events if the workload is meant to be this large."
            }
        }
    }

    /// How far an experiment has come.
    public struct Progress: Sendable {
        /// Runs finished.
        public let finished: Int
        public let total: Int
        /// Runs finished plus the virtual-time share of the runs under way, over all runs (0…1).
        public let fraction: Double
    }

    /// Runs the plan's runs at `indices` (all by default); results in the order of `indices`
    /// (canonical order: point, policy, replication), whatever order they ran in. Runs
    /// start longest first, each worker taking the next one when it finishes its last.
    /// `progress` is called (from any thread) after each finished run and every
    /// ``Simulator/progressInterval`` kernel events of a run under way. When a run reaches
    /// ``maxEvents``, the runs under way stop and it throws ``RunError/eventLimit(policy:replication:events:time:)``.
    public func run(indices: [Int]? = nil, progress: (@Sendable (Progress) -> Void)? = nil) throws -> [RunResult] {
        let chosen = indices ?? Array(plan.runs.indices)
        return try run(chosen, order: plan.longestFirst(chosen), progress: progress, deliver: nil)
    }

    /// The runs at `indices` (canonical order; all by default), longest first as
    /// ``run(indices:progress:)`` starts them, each finished run handed to `deliver` (on its
    /// worker's thread, with its place in `indices`) and not kept: a shard's runs, of which
    /// only the lines are kept (``ShardRuns``). `deliver` returning false stops the runs.
    public func run(
        indices: [Int]? = nil, progress: (@Sendable (Progress) -> Void)? = nil,
        deliver: @escaping @Sendable (Int, RunResult) -> Bool
    ) throws {
        let chosen = indices ?? Array(plan.runs.indices)
        _ = try run(chosen, order: plan.longestFirst(chosen), progress: progress, deliver: deliver)
    }

    /// The runs at `indices` (canonical order; all by default) point by point
    /// (``ExperimentPlan/pointByPoint(_:first:)``, point `first` first), each finished run
    /// handed to `deliver` (on its worker's thread, with its place in `indices`) and not kept:
    /// a study folded as it runs (``StudyFold``). `deliver` returning false stops the runs.
    public func run(
        indices: [Int]? = nil, first: Int?, progress: (@Sendable (Progress) -> Void)? = nil,
        deliver: @escaping @Sendable (Int, RunResult) -> Bool
    ) throws {
        let chosen = indices ?? Array(plan.runs.indices)
        _ = try run(chosen, order: plan.pointByPoint(chosen, first: first), progress: progress, deliver: deliver)
    }

    /// The runs `chosen` started in `order`: kept (in `chosen`'s order) or, with `deliver`, handed over.
    private func run(
        _ chosen: [Int], order: [Int], progress: (@Sendable (Progress) -> Void)?,
        deliver: (@Sendable (Int, RunResult) -> Bool)?
    ) throws -> [RunResult] {
        let plan = self.plan
        // Where each run's result goes in the answer.
        let slotOf = Dictionary(uniqueKeysWithValues: chosen.enumerated().map { ($1, $0) })
        let slots = ResultSlots(count: chosen.count, keeps: deliver == nil)
        let sample = sampleInterval
        let events = recordsEvents
        let eventsDirectory = recordsEvents ? self.eventsDirectory : nil
        let workers = min(jobs, chosen.count)
        // Belady's future depends only on the workload, so it is computed once per point and replication.
        let futures = FutureCache(uses: plan.policies.filter(\.needsFuture).count)
        let limit = maxEvents
        let bound = computesRedownloadBound
        let boundApp = self.boundApp
        let warmup = self.warmup
        let chartData = keepsChartData
        let studyLines = self.studyLines
        let keepsRunNumbers = self.keepsRunNumbers
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while !slots.stopped, let position = next.take(below: order.count) {
                let index = order[position]
                let run = plan.runs[index]
                let point = plan.points[run.point]
                let scenario = point.scenario
                let descriptor = plan.descriptor(of: run)
                let seed = plan.seed(of: run)
                let future =
                    descriptor.needsFuture
                    ? futures.future(run.point, run.replication) {
                        FutureRequests(requests: ScenarioStreams.requests(of: scenario, seed: seed))
                    }
                    : nil
                let part = eventsDirectory?.appendingPathComponent(".events-\(index).part")
                let slot = slotOf[index]!
                let duration = scenario.duration
                let result = Self.runOne(
                    point, descriptor, replication: run.replication, seed: seed,
                    future: future, sampleInterval: sample, recordsEvents: events, eventsPart: part,
                    maxEvents: limit, bound: bound, boundApp: boundApp, slots: slots, warmup: warmup,
                    chartData: chartData
                ) { time in
                    if let progress { progress(slots.update(slot, fraction: duration > 0 ? time / duration : 0)) }
                    return !slots.stopped
                }
                guard var result else {
                    slots.stop()
                    break
                }
                result.point = run.point
                if let studyLines {
                    let lines = SweepResults.RunLines(
                        result, values: studyLines.values[run.point], platformMetrics: studyLines.platformMetrics)
                    if !keepsRunNumbers { (result.summary, result.apps) = (lines.row, lines.appRows) }
                    result.lines = lines
                }
                if let deliver {
                    let update = slots.finished(slot)
                    guard deliver(slot, result) else {
                        slots.stop()
                        break
                    }
                    progress?(update)
                    continue
                }
                let update = slots.set(slot, result)
                progress?(update)
            }
        }
        if let limited = slots.limited {
            if let part = limited.eventsPart { PathBytes.remove(part.path) }
            throw RunError.eventLimit(
                policy: limited.policy, replication: limited.replication, events: limit, time: limited.time)
        }
        return deliver == nil ? slots.results : []
    }

    /// One run; nil if it stopped before its end (its limit, or `progress` said stop), in
    /// which case a run that reached the event limit is recorded in `slots`.
    static func runOne(
        _ point: ExperimentPlan.Point, _ descriptor: PolicyDescriptor, replication: Int, seed: UInt64,
        future: FutureRequests?, sampleInterval: Double?, recordsEvents: Bool,
        eventsPart: URL? = nil, maxEvents: Int = .max, bound: Bool = false, boundApp: String? = nil,
        slots: ResultSlots? = nil, warmup: Double = 0, chartData: Bool = true, progress: ((Double) -> Bool)? = nil
    ) -> RunResult? {
        let policies = point.policies(for: descriptor, seed: seed, future: future)
        let simulator = Simulator(scenario: point.scenario, policies: policies, seed: seed)
        var file: FileHandle?
        var openError: String?
        if let eventsPart {
            let descriptor = PathBytes.open(eventsPart.path, O_WRONLY | O_CREAT | O_TRUNC)
            if descriptor >= 0 { file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true) }
            if file == nil { openError = "cannot create \(InputText.oneLine(eventsPart.path))" }
        }
        let recorder = RunRecorder(
            policy: descriptor.name, replication: replication, recordsEvents: recordsEvents, eventsFile: file)
        let boundID = boundApp.flatMap { id in zip(point.scenario.apps, simulator.appIDs).first { $0.0.id == id }?.1 }
        let redownloads = bound ? RedownloadBound(app: boundID) : nil
        let observer: SimulationObserver = redownloads.map { TeeObserver(recorder, $0) } ?? recorder
        if warmup > 0 {
            // Everything before the warm-up's end happens as usual; then the counting starts.
            simulator.start(observer: observer, sampleInterval: sampleInterval)
            while let time = simulator.peek(), time < warmup, simulator.processedEvents < maxEvents { simulator.step() }
            simulator.device.restartLedger()
            recorder.restartWaits()
        }
        let end = simulator.run(
            observer: observer, sampleInterval: sampleInterval, maxEvents: maxEvents, progress: progress)
        recorder.finish()
        try? file?.close()
        switch end {
        case .completed:
            break
        case .eventLimit(let time):
            slots?.recordLimit(policy: descriptor.name, replication: replication, time: time, eventsPart: eventsPart)
            return nil
        case .stopped:
            if let eventsPart { PathBytes.remove(eventsPart.path) }
            return nil
        }
        var result = Self.result(
            of: simulator, recorder: recorder, point: point, descriptor: descriptor, replication: replication,
            seed: seed, recordsEvents: recordsEvents, eventsInFile: file != nil, chartData: chartData)
        result.redownloadBound = redownloads?.bytes
        if let eventsPart {
            result.eventsPart = eventsPart
            result.writeError =
                openError ?? recorder.writeError.map { "\(eventsPart.path): \($0.localizedDescription)" }
        }
        return result
    }
}

extension ExperimentRunner {
    /// The result of a run that reached its end: its summary and per-app rows, and what the
    /// recorder kept (events, samples, pack stretches, chart data).
    static func result(
        of simulator: Simulator, recorder: RunRecorder, point: ExperimentPlan.Point, descriptor: PolicyDescriptor,
        replication: Int, seed: UInt64, recordsEvents: Bool, eventsInFile: Bool, chartData: Bool
    ) -> RunResult {
        let summary = SummaryRow(
            policy: descriptor.name, replication: replication, seed: seed, scenarioHash: point.sourceDigest,
            ledger: simulator.device.ledger, pendingAtEnd: simulator.device.waitingRequests,
            waits: recorder.waits)
        var result = RunResult(
            summary: summary, eventRows: eventsInFile ? "" : recorder.eventRows, sampleRows: recorder.sampleRows,
            kernelEvents: simulator.processedEvents)
        result.notices = simulator.notices
        result.apps = zip(point.scenario.apps, simulator.appIDs).map { app, id in
            AppRow(
                policy: descriptor.name, replication: replication, seed: seed, app: app.id,
                ledger: simulator.device.ledger(of: id), waits: recorder.waits(of: id))
        }
        result.samples = recorder.sampleValues
        if recordsEvents {
            recorder.packs.close(at: point.scenario.duration, device: simulator.device)
            result.packRows = recorder.packs.csvRows
            result.packStretches = recorder.packs.stretches
        }
        if chartData {
            result.purgeEpisodes = recorder.purgeEpisodes
            result.lowDiskWarnings = recorder.lowDiskWarnings
            result.waitDistribution = recorder.waits.distribution(points: 200)
        }
        return result
    }

    /// One run of `point` under `descriptor` whose downloads' bytes come from outside
    /// (``Simulator/Transfers/external``: `odr-sim live`): `drive` runs the simulator, started
    /// with the run's recorder and `watcher` listening, to its end (``Simulator/finish()``
    /// included), and the result is made as any run's, with every event, sampled every
    /// `sampleInterval`.
    public static func drivenRun(
        _ point: ExperimentPlan.Point, _ descriptor: PolicyDescriptor, seed: UInt64, sampleInterval: Double?,
        watcher: (any SimulationObserver)? = nil, drive: (Simulator) throws -> Void
    ) rethrows -> RunResult {
        let policies = point.policies(for: descriptor, seed: seed, future: nil)
        let simulator = Simulator(scenario: point.scenario, policies: policies, seed: seed, transfers: .external)
        // Replication 1 of the plan, on the scenario's seed, as `run`'s first.
        let recorder = RunRecorder(policy: descriptor.name, replication: 1, recordsEvents: true, eventsFile: nil)
        let observer: any SimulationObserver = watcher.map { TeeObserver(recorder, $0) } ?? recorder
        // The observer is held weakly by the simulator: kept alive here for the run.
        try withExtendedLifetime(observer) {
            simulator.start(observer: observer, sampleInterval: sampleInterval)
            try drive(simulator)
        }
        recorder.finish()
        var result = Self.result(
            of: simulator, recorder: recorder, point: point, descriptor: descriptor, replication: 1, seed: seed,
            recordsEvents: true, eventsInFile: false, chartData: true)
        result.point = 0
        return result
    }
}

/// Thread-safe result slots filled by the worker threads, with each run's progress and
/// the flag that stops them all when one reaches its event limit.
final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [ExperimentRunner.RunResult?]
    private var fractions: [Double]
    /// The sum of `fractions`, kept as they change (a sum over thousands of runs per call
    /// would cost more than the runs' progress is worth).
    private var fractionSum = 0.0
    private var done = 0
    private var halted = false
    /// The run that reached the event limit first.
    private(set) var limited: (policy: String, replication: Int, time: Double, eventsPart: URL?)?

    /// Slots for `count` runs; `keeps`: their results are kept (else only their progress).
    init(count: Int, keeps: Bool = true) {
        slots = keeps ? Array(repeating: nil, count: count) : []
        fractions = Array(repeating: 0, count: count)
    }

    private func progress() -> ExperimentRunner.Progress {
        ExperimentRunner.Progress(
            finished: done, total: slots.count,
            fraction: slots.isEmpty ? 1 : fractionSum / Double(slots.count))
    }

    func set(_ index: Int, _ result: ExperimentRunner.RunResult) -> ExperimentRunner.Progress {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = result
        fractionSum += 1 - fractions[index]
        fractions[index] = 1
        done += 1
        return progress()
    }

    /// Run `index` finished, its result handed over rather than kept.
    func finished(_ index: Int) -> ExperimentRunner.Progress {
        lock.lock()
        defer { lock.unlock() }
        fractionSum += 1 - fractions[index]
        fractions[index] = 1
        done += 1
        return progress()
    }

    func update(_ index: Int, fraction: Double) -> ExperimentRunner.Progress {
        lock.lock()
        defer { lock.unlock() }
        let clamped = min(1, max(0, fraction))
        fractionSum += clamped - fractions[index]
        fractions[index] = clamped
        return progress()
    }

    func recordLimit(policy: String, replication: Int, time: Double, eventsPart: URL?) {
        lock.lock()
        defer { lock.unlock() }
        if limited == nil { limited = (policy, replication, time, eventsPart) }
        halted = true
    }

    func stop() {
        lock.lock()
        halted = true
        lock.unlock()
    }

    var stopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return halted
    }

    var results: [ExperimentRunner.RunResult] { slots.map { $0! } }
}

/// One ``FutureRequests`` per point and replication, computed by whichever worker needs it first.
private final class FutureCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cache: [Int: [Int: (future: FutureRequests, left: Int)]] = [:]
    /// How many runs of a point and replication read its future: one per policy that needs it.
    private let uses: Int

    init(uses: Int) { self.uses = uses }

    /// The future of `point`'s `replication`, made once; let go when its last reader has it,
    /// so that a study holds only the futures of the runs under way.
    func future(_ point: Int, _ replication: Int, make: () -> FutureRequests) -> FutureRequests {
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[point]?[replication] {
            cache[point]![replication] = cached.left > 1 ? (cached.future, cached.left - 1) : nil
            return cached.future
        }
        let made = make()
        if uses > 1 { cache[point, default: [:]][replication] = (made, uses - 1) }
        return made
    }
}

/// The next position of a shared work list, handed to one worker at a time.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

extension Array where Element == ExperimentRunner.RunResult {
    /// The runs' summary rows, or with `app` that app's own (its ``Metrics/AppRow``s): what a
    /// table, a verdict, an objective, a baseline or a gate of one app reads.
    ///
    /// The app's rows are its focus (``Metrics/AppRow/summaryRows(of:in:beside:scenarioHash:)``):
    /// the device's values of its own metrics beside the app's, unless `guarded` is false (the
    /// app's own numbers alone, as `check --app` keeps a baseline of them).
    public func summaryRows(app: String?, scenarioHash: String = "", guarded: Bool = true) -> [SummaryRow] {
        guard let app else { return map(\.summary) }
        return AppRow.summaryRows(
            of: app, in: flatMap(\.apps), beside: guarded ? map(\.summary) : [], scenarioHash: scenarioHash)
    }
}

extension ExperimentRunner.RunResult {
    /// This run's row with its numbers as run (not as its line reads back), under a focus on
    /// `app` the app's with the device's beside it (none if the run has no such app): what
    /// an objective, `--precision` and `--robustness` read of a run, and all a study keeps of
    /// it for them (``StudyFold``).
    public func rowsAsRun(app: String?) -> [SummaryRow] { [self].summaryRows(app: app) }
}
