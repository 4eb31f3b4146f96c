import Foundation
import Metrics
import Simulation
import TestSupport
import Testing

@testable import Experiments

/// Issue 55: a study folded point by point as its runs finish (``StudyFold``) gives the files
/// and numbers of the same study with every run kept, whatever order the runs finish in, and
/// holds no more than the points under way.
@Suite("Study folded as it runs")
struct StudyFoldTests {
    /// The text handed to a fold's `write`, per file, in order.
    final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var results = ""
        private(set) var apps = ""
        /// After this many pieces, writing fails (a full disk).
        var failAfter = Int.max
        private var pieces = 0

        func write(_ file: StudyFold.File, _ text: String) throws {
            lock.lock()
            defer { lock.unlock() }
            pieces += 1
            if pieces > failAfter { throw CocoaError(.fileWriteOutOfSpace) }
            if file == .results { results += text } else { apps += text }
        }
    }

    /// The template a sweep folds with: the study's axis (with its numbers), its baseline
    /// policy and point.
    static func template(baselinePoint: Int?) -> SweepResults {
        var template = SweepResults(
            axisNames: ["x"], baseline: "apple", lines: [], platformMetrics: false, baselinePoint: baselinePoint)
        template.axisNumbers = [
            SweepResults.AxisNumbers(column: "x_n", values: ["plain": 1, "with, comma": 2, "say \"hi\"": 3])
        ]
        return template
    }

    /// Every file a study's results make, by name.
    static func files(_ results: SweepResults) throws -> [String: String] {
        var files = [
            "comparison.csv": try results.comparisonCSV(), "comparison-apps.csv": try results.comparisonAppsCSV(),
            "comparison-long.csv": results.comparisonLongCSV(try results.comparisons()),
            "focus": try results.comparisons(app: "app1").map(\.comparison.csv).joined(),
        ]
        if let pairs = try results.baselinePairs() { files["baseline-pairs.csv"] = results.baselinePairsCSV(pairs) }
        if let pairs = try results.baselinePairs(app: "app1") {
            files["baseline-pairs-app.csv"] = results.baselinePairsCSV(pairs, app: "app1")
        }
        return files
    }

    @Test(
        "folded as the runs finish, in any order, the files are those of every run kept; with a baseline point",
        arguments: [nil, 0, 2])
    func foldedIsKept(baselinePoint: Int?) throws {
        let (plan, values) = try StudyLinesTests.plan()
        let indices = Array(plan.runs.indices)
        let runs = try StudyLinesTests.runs(plan, values: values, jobs: 2)
        // Every run kept, its lines parsed and folded at once (the path of `sweep merge`).
        let (lines, apps) = StudyLinesTests.lines(runs, indices: indices)
        var kept = try SweepResults(
            axisNames: ["x"], baseline: "apple", lines: lines, baselinePoint: baselinePoint, appLines: apps.map(\.1)
        ).prepared(jobs: 2, app: "app1")
        kept.axisNumbers = Self.template(baselinePoint: nil).axisNumbers
        let expected = try Self.files(kept)
        #expect(expected["baseline-pairs.csv"] != nil || baselinePoint == nil)
        #expect(expected["focus"]?.isEmpty == false)

        // Delivered by the runner (point by point, the baseline point first, on 3 threads),
        // then by hand in reverse and in a shuffled order: points finish before the baseline
        // point, and out of canonical order.
        var random = SplitMix64(seed: 5)
        var shuffled = Array(indices)
        for i in shuffled.indices.reversed() { shuffled.swapAt(i, random.below(i + 1)) }
        for order in [nil, Array(indices.reversed()), shuffled] {
            let written = Written()
            let fold = StudyFold(
                plan, indices: indices, values: values, template: Self.template(baselinePoint: baselinePoint),
                focus: "app1", write: written.write)
            if let order {
                for slot in order { #expect(fold.receive(slot, runs[slot])) }
            } else {
                let runner = ExperimentRunner.study(plan, values: values, platformMetrics: false, jobs: 3)
                try runner.run(first: fold.first, deliver: fold.receive)
            }
            #expect(fold.heldPoints == 0)
            let (folded, notices, _) = try fold.finish(jobs: 2, locations: [], labels: [])
            #expect(notices.isEmpty)
            #expect(try Self.files(folded) == expected)
            #expect(written.results == (try kept.resultsFile()))
            #expect(written.apps == (try kept.appsFile()))
            #expect(folded.lines.isEmpty && folded.hasApps)
        }
    }

    @Test(
        "for an objective or --precision it keeps each run's rows as run, in plan order: the answers of every run kept",
        arguments: [nil, "app1"])
    func keepsRowsAsRun(focus: String?) throws {
        let (plan, values) = try StudyLinesTests.plan()
        let kept = try StudyLinesTests.runs(plan, values: values, jobs: 2, keepsRunNumbers: true)
        let expected = kept.map { $0.rowsAsRun(app: focus) }
        // What the files read back differs from the numbers as run (the wait's seconds are
        // rounded), so rows taken from the lines would not pass.
        let asWritten = try StudyLinesTests.runs(plan, values: values, jobs: 2).map { $0.rowsAsRun(app: focus) }
        #expect(asWritten != expected && expected.allSatisfy { $0.count == 1 })

        let fold = StudyFold(
            plan, indices: Array(plan.runs.indices), values: values, template: Self.template(baselinePoint: 1),
            focus: focus, keepsRowsAsRun: true, write: Written().write)
        let runner = ExperimentRunner.study(
            plan, values: values, platformMetrics: false, jobs: 3, keepsRunNumbers: true)
        try runner.run(first: fold.first, deliver: fold.receive)
        let rows = try fold.finish(jobs: 2, locations: [], labels: []).rowsAsRun
        #expect(rows == expected)
        let objective = try Objective.parse("redownload_bytes + 1MB*wait_p95_s", limits: ["failed_requests<=baseline"])
        let labels = ["plain", "with, comma", "say \"hi\""]
        let over = objective.recommendOverStudy(
            rows, plan: plan, baseline: "apple", baselinePoint: 1, labels: labels, offline: [])
        let overKept = objective.recommendOverStudy(
            expected, plan: plan, baseline: "apple", baselinePoint: 1, labels: labels, offline: [])
        let exact: (Double, Metric) -> String = { value, _ in "\(value)" }
        #expect(over != nil && over?.lines(exact) == overKept?.lines(exact))
        let each = objective.recommendEachPoint(rows, plan: plan, baseline: "apple", offline: [])
        let eachKept = objective.recommendEachPoint(expected, plan: plan, baseline: "apple", offline: [])
        #expect(each.count == 3 && each.map { $0.lines(exact) } == eachKept.map { $0.lines(exact) })
        // --precision reads the same rows: each point's misses, as from the point's runs kept whole.
        let precision = Precision(relative: 0.01)
        let perPoint = plan.points.indices.flatMap { point in
            precision.misses(
                Comparison(
                    rows: zip(plan.runs, kept).filter { $0.0.point == point }.map(\.1).summaryRows(app: focus),
                    reference: "apple", platformMetrics: false))
        }
        #expect(!perPoint.isEmpty)
        #expect(precision.misses(rows, plan: plan, reference: "apple", platformMetrics: false) == perPoint)
        // Without the objective, nothing of the runs is kept.
        let plain = StudyFold(
            plan, indices: Array(plan.runs.indices), values: values, template: Self.template(baselinePoint: nil),
            focus: focus, write: Written().write)
        for slot in kept.indices { #expect(plain.receive(slot, kept[slot])) }
        #expect(try plain.finish(jobs: 1, locations: [], labels: []).rowsAsRun.isEmpty)
    }

    @Test("delivered in canonical order without a baseline point, it holds at most the point under way")
    func holdsOnePoint() throws {
        let (plan, values) = try StudyLinesTests.plan()
        let runs = try StudyLinesTests.runs(plan, values: values, jobs: 1)
        let fold = StudyFold(
            plan, indices: Array(plan.runs.indices), values: values, template: Self.template(baselinePoint: nil),
            focus: nil, write: Written().write)
        var most = 0
        for slot in runs.indices {
            #expect(fold.receive(slot, runs[slot]))
            most = max(most, fold.heldPoints)
        }
        // Each point is written and folded as its last run comes: one point at most, none after.
        #expect(most == 1 && fold.heldPoints == 0)
        // With the baseline point last, every point waits for it (why the runs start with it).
        let waiting = StudyFold(
            plan, indices: Array(plan.runs.indices), values: values, template: Self.template(baselinePoint: 2),
            focus: nil, write: Written().write)
        for slot in runs.indices.dropLast() { #expect(waiting.receive(slot, runs[slot])) }
        #expect(waiting.heldPoints == 3 && waiting.first == 2)
    }

    @Test("a failure to write stops the runs, and finish throws it; nothing after it is written")
    func writeFailureStops() throws {
        let (plan, values) = try StudyLinesTests.plan()
        let written = Written()
        written.failAfter = 2
        let fold = StudyFold(
            plan, indices: Array(plan.runs.indices), values: values, template: Self.template(baselinePoint: nil),
            focus: nil, write: written.write)
        let runner = ExperimentRunner.study(plan, values: values, platformMetrics: false, jobs: 2)
        try runner.run(first: fold.first, deliver: fold.receive)
        #expect(throws: CocoaError.self) { try fold.finish(jobs: 1, locations: [], labels: []) }
        // The results header and the first point's lines, then nothing.
        #expect(written.results.split(separator: "\n").count == 1 + plan.runs.count / 3 && written.apps.isEmpty)
    }

    @Test("runs start point by point, the first point named first, each point's longest first")
    func pointByPoint() throws {
        let (plan, _) = try StudyLinesTests.plan()
        let order = plan.pointByPoint(Array(plan.runs.indices), first: 2)
        #expect(order.sorted() == Array(plan.runs.indices))
        #expect(order.map { plan.runs[$0].point } == [2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
        for point in 0..<3 {
            let costs = order.filter { plan.runs[$0].point == point }.map { plan.cost(of: plan.runs[$0]) }
            #expect(costs == costs.sorted(by: >))
        }
    }
}
