import Benchmark
import Experiments
import Foundation
import Metrics
import ODRPolicies
import Reports
import ScenarioFile

/// A study as `odr-sim sweep` runs it (issue 55): the shipped `game-free-space.study` (6
/// points × 7 policies) at 150 and 1,500 replications (6,300 and 63,000 runs) on 2 threads;
/// then its serial end, the lines, rows, comparisons and files (`SweepResults.study`,
/// `SweepFiles` with the report, and the pieces of the files it streams), timed apart.
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
        benchmark.startMeasurement()
        let results = try ExperimentRunner.study(plan, values: values, platformMetrics: platformMetrics, jobs: 2).run()
        let end = ContinuousClock.now
        let (sweep, _) = SweepResults.study(
            results, indices: Array(plan.runs.indices), plan: plan, values: values,
            axisNames: study.axes.map(\.name), baseline: study.baseline, platformMetrics: platformMetrics,
            baselinePoint: study.baselinePoint, jobs: 2)
        let files = try SweepFiles(sweep, name: study.name, report: true)
        // results.csv and apps.csv are made a piece at a time as the folder is written.
        var bytes = 0
        for file in files.streams { try file.write { bytes += $0.utf8.count } }
        let serial = ContinuousClock.now - end
        benchmark.stopMeasurement()
        benchmark.measurement(
            .custom("serial end (ms)", polarity: .prefersSmaller),
            Int(serial.components.seconds * 1_000 + serial.components.attoseconds / 1_000_000_000_000_000))
        blackHole(files.files.count + bytes)
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
