import Benchmark
import ODRCore
import Simulation
import Workload

/// Kernel throughput: a generated large scenario (50 apps, 10,000 tags, Zipf requests,
/// sessions, disk pressure and network spells) simulated for a year under the apple policy,
/// without observers, so the figure is the kernel and the core alone.
///
/// Events per second = `kernel events` (custom metric, per iteration) / wall clock. The
/// scenario's free space holds 30 % of all content, so about one request in four purges.
let benchmarks: @Sendable () -> Void = {
    for days in [30.0, 365.0] {
        Benchmark(
            "Kernel: 50 apps, 10,000 tags, \(Int(days)) days",
            configuration: .init(
                metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal, .custom("kernel events", polarity: .prefersLarger)],
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
