import Benchmark
import Experiments
import Foundation
import Metrics
import ODRPolicies
import Reports
import ScenarioFile

/// A study as `odr-sim sweep` runs it (issue 55): the shipped `game-free-space.study` (6
/// points × 7 policies) at 150 and 1,500 replications (6,300 and 63,000 runs) on 2 threads;
/// each point folded as it finishes (`StudyFold`, results.csv and apps.csv written as they
/// go); then its serial end, the last fold and the other files (`SweepFiles` with the
/// report), timed apart.
///
/// Memory per run = peak resident / runs; the serial end's share = `serial end (ms)` / the
/// wall clock.
let benchmarks: @Sendable () -> Void = {
    for replications in [150, 1_500] { study(replications: replications) }
}

/// The study at `replications`: 42 runs each.
func study(replications: Int) {
    Benchmark(
        "Study: game-free-space, \(42 * replications) runs, 2 threads",
        configuration: .init(
            metrics: [
                .wallClock, .peakMemoryResident, .mallocCountTotal,
                .custom("serial end (ms)", polarity: .prefersSmaller),
            ],
            maxDuration: .seconds(60), maxIterations: 3)
    ) { benchmark in
        let study = try StudyFixture.load(replications: replications)
        let plan = ExperimentPlan(
            points: study.points.map {
                ExperimentPlan.Point(
                    $0.document.scenario, policyOptions: $0.document.policyOptions,
                    sourceDigest: $0.document.sourceDigest)
            },
            policies: study.policies.compactMap(PolicyRegistry.descriptor(named:)), replications: study.replications)
        let values = study.points.map(\.values)
        let platformMetrics = study.points.contains { Metric.hasPlatformMetrics($0.scenario) }
        // As `odr-sim sweep` runs a study nothing reads but its files: each point folded as it
        // finishes, results.csv and apps.csv written as they go (here, counted).
        let template = SweepFiles.template(
            axisNames: study.axes.map(\.name), baseline: study.baseline, baselinePoint: study.baselinePoint,
            platformMetrics: platformMetrics, values: values)
        let bytes = ByteCount()
        let fold = StudyFold(
            plan, indices: Array(plan.runs.indices), values: values, template: template, focus: nil,
            write: { _, text in bytes.add(text.utf8.count) })
        benchmark.startMeasurement()
        try ExperimentRunner.study(plan, values: values, platformMetrics: platformMetrics, jobs: 2)
            .run(first: fold.first, deliver: fold.receive)
        let end = ContinuousClock.now
        let (sweep, _, _) = try fold.finish(jobs: 2, locations: [], labels: [])
        let files = try SweepFiles(sweep, name: study.name, report: true)
        let serial = ContinuousClock.now - end
        benchmark.stopMeasurement()
        benchmark.measurement(
            .custom("serial end (ms)", polarity: .prefersSmaller),
            Int(serial.components.seconds * 1_000 + serial.components.attoseconds / 1_000_000_000_000_000))
        blackHole(files.files.count + bytes.total)
    }
}

/// The shipped study, read from the repository, at `replications`.
enum StudyFixture {
    static func load(replications: Int) throws -> Study {
        // This file is Benchmarks/Benchmarks/StudyThroughput/StudyThroughput.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Scenarios/studies/game-free-space.study").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "replications: 5\n", with: "replications: \(replications)\n")
        return try StudyParser(knownPolicies: PolicyRegistry.names, offlinePolicies: PolicyRegistry.offline)
            .parse(text, fileName: path)
    }
}

/// Bytes written, from the runs' threads.
final class ByteCount: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var total = 0

    func add(_ count: Int) {
        lock.lock()
        total += count
        lock.unlock()
    }
}
