import Benchmark
import Metrics
import ODRCore
import ODRPolicies
import Simulation
import Workload

/// Kernel throughput: a generated large scenario (50 apps, 10,000 tags, Zipf requests,
/// sessions, disk pressure and network spells) simulated for a year under the apple policy,
/// without observers, so the figure is the kernel and the core alone.
///
/// Events per second = `kernel events` (custom metric, per iteration) / wall clock. The
/// scenario's free space holds 30 % of all content, so about one request in four purges.
let benchmarks: @Sendable () -> Void = {
    queueOnly()
    sharedDownload()
    workloadOnly()
    withReports()
    for days in [30.0, 365.0] {
        Benchmark(
            "Kernel: 50 apps, 10,000 tags, \(Int(days)) days",
            configuration: .init(
                metrics: [
                    .wallClock, .peakMemoryResident, .mallocCountTotal,
                    .custom("kernel events", polarity: .prefersLarger),
                ],
                maxDuration: .seconds(60), maxIterations: 3)
        ) { benchmark in
            let scenario = SyntheticScenario.make(days: days, fitFraction: 0.3)
            benchmark.startMeasurement()
            let simulator = Simulator(scenario: scenario, policy: ApplePolicy())
            simulator.run()
            benchmark.stopMeasurement()
            benchmark.measurement(.custom("kernel events", polarity: .prefersLarger), simulator.processedEvents)
        }
    }
}

/// The kernel's own machinery alone: 10 million events through the event queue at a steady
/// 1,000 pending entries (each pop schedules one successor), with no model behind them.
/// Separates the cost of the clock and heap from the work the ODR core does per event.
let queueOnly: @Sendable () -> Void = {
    Benchmark(
        "Event queue alone: 10M events, 1,000 pending",
        configuration: .init(
            metrics: [.wallClock, .throughput, .peakMemoryResident], maxDuration: .seconds(30), maxIterations: 3)
    ) { benchmark in
        var queue = EventQueue<Int>()
        for i in 0..<1_000 { queue.schedule(i, at: Double(i), priority: 2) }
        benchmark.startMeasurement()
        var processed = 0
        while processed < 10_000_000, let entry = queue.pop() {
            processed += 1
            queue.schedule(entry.payload, at: entry.time + 1_000, priority: 2)
        }
        benchmark.stopMeasurement()
        blackHole(processed)
    }
}

/// The kernel as `odr-sim run` drives it: with the recorder that builds the rows of
/// `events.csv` (a row per core event) and `timeseries.csv` (hourly samples). 30 days of the
/// workload above; memory here grows with the rows kept for the report.
let withReports: @Sendable () -> Void = {
    Benchmark(
        "Kernel with report rows: 50 apps, 10,000 tags, 30 days",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, .custom("kernel events", polarity: .prefersLarger)],
            maxDuration: .seconds(60), maxIterations: 3)
    ) { benchmark in
        let scenario = SyntheticScenario.make(days: 30, fitFraction: 0.3)
        benchmark.startMeasurement()
        let simulator = Simulator(scenario: scenario, policy: ApplePolicy())
        let recorder = RunRecorder(policy: "apple")
        simulator.run(observer: recorder, sampleInterval: 3600)
        benchmark.stopMeasurement()
        benchmark.measurement(.custom("kernel events", polarity: .prefersLarger), simulator.processedEvents)
        blackHole(recorder.eventRows.utf8.count)
    }
}

/// The same year's workload with no device behind it: the generators' random draws (GSL)
/// and the merge of their ~100 streams, read as a run reads them. What is left of the
/// kernel benchmark's time is the ODR core, the policy and the network model.
let workloadOnly: @Sendable () -> Void = {
    Benchmark(
        "Workload alone: 50 apps, 10,000 tags, 365 days",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, .custom("workload events", polarity: .prefersLarger)],
            maxDuration: .seconds(60), maxIterations: 3)
    ) { benchmark in
        let scenario = SyntheticScenario.make(days: 365, fitFraction: 0.3)
        benchmark.startMeasurement()
        let events = ScenarioStreams.merger(scenario, seed: scenario.seed)
        var count = 0
        while let time = events.nextTime, time <= scenario.duration {
            blackHole(events.take())
            count += 1
        }
        benchmark.stopMeasurement()
        benchmark.measurement(.custom("workload events", polarity: .prefersLarger), count)
    }
}

/// Many requests waiting on one shared download (issue 24): `n` requests of one 1 GB tag join
/// its download, every tenth pauses, resumes and changes priority, and the network model's
/// question (``ODRDevice/downloads(into:)``) is asked after every change, as the kernel does;
/// then the pack arrives in 1,000 pieces and every request ends. Time should grow linearly
/// with `n` (it grew quadratically when each change scanned every waiter).
let sharedDownload: @Sendable () -> Void = {
    for n in [1_000, 10_000, 100_000] {
        Benchmark(
            "Shared download: \(n) waiters on one pack",
            configuration: .init(
                metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(30), maxIterations: 5)
        ) { benchmark in
            let device = ODRDevice(capacity: 64_000_000_000, otherData: 0, policy: LRUPolicy())
            let catalog = try! Catalog(singleResourceTags: [(name: "level", size: 1_000_000_000)])
            let app = device.addApp(name: "game", catalog: catalog)
            _ = device.install(app, at: 0)
            _ = device.launch(app, at: 0)
            var statuses: [DownloadStatus] = []
            var requests: [RequestID] = []
            requests.reserveCapacity(n)
            benchmark.startMeasurement()
            for i in 0..<n {
                let time = Double(i) * 0.001
                if case .waiting(let id) = device.beginAccessing(app, tag: TagID(rawValue: 0), at: time) {
                    requests.append(id)
                }
                if i % 10 == 9 {
                    let id = requests[i / 2]
                    device.pause(id, at: time)
                    device.downloads(into: &statuses)
                    device.resume(id, at: time)
                    device.setLoadingPriority(LoadingPriority(Double(i % 100) / 100)!, for: id, at: time)
                }
                device.downloads(into: &statuses)
            }
            let pack = device.pack(0, of: app)
            for piece in 0..<1_000 {
                device.receive(1_000_000, for: pack, at: Double(n) * 0.001 + Double(piece))
                device.downloads(into: &statuses)
            }
            for id in requests { device.endAccessing(id, at: Double(n) + 1_000) }
            benchmark.stopMeasurement()
            blackHole(statuses.count)
            precondition(device.downloadCount == 0)
        }
    }
}
