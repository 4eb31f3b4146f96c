import Foundation
import Metrics

/// A study's runs folded point by point as they finish (issue 55), so that a sweep's memory
/// grows with its points and the runs under way, not with its runs.
///
/// The runs start point by point (``ExperimentRunner/run(indices:first:progress:deliver:)``,
/// the baseline point first) and each is handed to ``receive(_:_:)`` from its worker's thread:
/// - as soon as every run before it in canonical order has come, a point's `results.csv` and
///   `apps.csv` lines go to `write`, written as ``SweepResults/writeResultsFile(_:)`` and
///   ``SweepResults/writeAppsFile(_:)`` write them;
/// - as soon as a point's last run has come (and the baseline point's, which its pairs are
///   taken against), it is folded (``StudyPoint``) and its rows let go.
///
/// ``finish()`` gives the results every file and answer reads: the same numbers and bytes as
/// every run's lines parsed and folded at once (``SweepResults/prepared(jobs:app:)``, the path
/// of `sweep merge`; `StudyFoldTests`).
public final class StudyFold: @unchecked Sendable {
    /// The file a piece of text belongs to.
    public enum File: Sendable { case results, apps }

    private let lock = NSLock()
    /// The study's names, baseline and axis numbers: how lines are written and points folded.
    private let template: SweepResults
    private let focus: String?
    private let values: [[String]]
    private let write: @Sendable (File, String) throws -> Void
    /// Each point with runs, in point order: the plan's point and its runs' places in `indices`.
    private let points: [(point: Int, slots: Range<Int>)]
    private var remaining: [Int]
    /// Per point under way, its runs' lines and rows (by place in the point), until the point
    /// is both written and folded.
    private var lines: [Int: [SweepResults.RunLines?]] = [:]
    private let runs: Int
    private var folded: [StudyPoint?]
    private var written: [Bool]
    private var nextToWrite = 0
    private var wroteApps = false
    /// The baseline point's runs, once they have all come; points that finished before wait.
    private var bases: StudyPoint.Bases?
    private var waiting: [Int] = []
    private var notices = RunNoticeTally()
    /// Each run's rows as run, by slot, for an objective, `--precision` or `--robustness`
    /// (nil: none kept).
    private var rowsAsRun: [[SummaryRow]]?
    private var failure: (any Error)?

    /// The fold of the runs `indices` of `plan` (canonical order), each point's axis values
    /// from `values`; `template` names the study's axes (with their numbers), baseline policy,
    /// baseline point and platform metrics; `focus`, the app whose numbers are folded apart.
    /// `write` receives each file's text in order, header first (`apps.csv` only if a run has
    /// app rows). `keepsRowsAsRun`: keep each run's rows as run
    /// (``ExperimentRunner/RunResult/rowsAsRun(app:)``, which needs the runner's
    /// ``ExperimentRunner/keepsRunNumbers``) rather than the run.
    public init(
        _ plan: ExperimentPlan, indices: [Int], values: [[String]], template: SweepResults, focus: String?,
        keepsRowsAsRun: Bool = false, write: @escaping @Sendable (File, String) throws -> Void
    ) {
        var points: [(point: Int, slots: Range<Int>)] = []
        for (slot, index) in indices.enumerated() {
            let point = plan.runs[index].point
            if points.last?.point == point {
                points[points.count - 1].slots = points[points.count - 1].slots.lowerBound..<(slot + 1)
            } else {
                points.append((point, slot..<(slot + 1)))
            }
        }
        (self.template, self.focus, self.values, self.write) = (template, focus, values, write)
        (self.points, runs) = (points, indices.count)
        remaining = points.map(\.slots.count)
        folded = Array(repeating: nil, count: points.count)
        written = Array(repeating: false, count: points.count)
        if keepsRowsAsRun { rowsAsRun = Array(repeating: [], count: indices.count) }
        if template.baselinePoint == nil || !points.indices.contains(template.baselinePoint!) {
            bases = StudyPoint.Bases.empty
        }
    }

    /// How many points' runs are held: come, and not yet both written and folded.
    var heldPoints: Int {
        lock.lock()
        defer { lock.unlock() }
        return lines.count
    }

    /// The point the runs should start with: the baseline point, whose runs every other
    /// point's pairs wait for.
    public var first: Int? { template.baselinePoint.flatMap { points.indices.contains($0) ? points[$0].point : nil } }

    /// The run at `slot` (its place in `indices`), with its lines made
    /// (``ExperimentRunner/studyLines``). False once writing has failed: the runs should stop.
    public func receive(_ slot: Int, _ result: ExperimentRunner.RunResult) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil else { return false }
        notices.add(result, at: slot)
        rowsAsRun?[slot] = result.rowsAsRun(app: focus)
        // The point whose slots hold `slot`: the last one starting at or before it.
        var (low, high) = (0, points.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if points[middle].slots.lowerBound <= slot { low = middle } else { high = middle - 1 }
        }
        let p = low
        let slots = points[p].slots
        lines[p, default: Array(repeating: nil, count: slots.count)][slot - slots.lowerBound] = result.lines
        remaining[p] -= 1
        do {
            if remaining[p] == 0 { finished(p) }
            try writeReady()
        } catch {
            failure = error
            return false
        }
        return true
    }

    /// Point `p`'s runs have all come: folded now, or when the baseline point's have.
    private func finished(_ p: Int) {
        if bases != nil { return fold(p) }
        guard p == template.baselinePoint else { return waiting.append(p) }
        let runs = lines[p]!.map { $0! }
        bases = StudyPoint.Bases(
            values: values[points[p].point], rows: runs.map(\.row), appRows: runs.flatMap(\.appRows),
            policy: template.baseline, focus: focus)
        fold(p)
        for w in waiting { fold(w) }
        waiting = []
    }

    private func fold(_ p: Int) {
        let runs = lines[p]!.map { $0! }
        folded[p] = StudyPoint(
            values: values[points[p].point], rows: runs.map(\.row), appRows: runs.flatMap(\.appRows),
            reference: template.baseline,
            platformMetrics: template.platformMetrics, focus: focus,
            bases: bases!.atBaseline(p == template.baselinePoint))
        if written[p] { release(p) }
    }

    /// The lines of every point whose runs, and every run before them, have come.
    private func writeReady() throws {
        while nextToWrite < points.count && remaining[nextToWrite] == 0 {
            let runs = lines[nextToWrite]!.map { $0! }
            if nextToWrite == 0 { try write(.results, template.resultsFileHeader) }
            try write(.results, template.writtenText(of: runs.map(\.result), apps: false))
            let apps = runs.flatMap(\.apps)
            if !apps.isEmpty {
                if !wroteApps { try write(.apps, template.appsFileHeader) }
                wroteApps = true
                try write(.apps, template.writtenText(of: apps, apps: true))
            }
            written[nextToWrite] = true
            if folded[nextToWrite] != nil { release(nextToWrite) }
            nextToWrite += 1
        }
    }

    private func release(_ p: Int) { lines[p] = nil }

    /// The study's results, every point folded (their lines already written: none are
    /// kept), its runs' notices (``Swift/Array/noticeLines(locations:points:)``) and the rows
    /// as run (empty if none were kept); the first failure to write, if any.
    public func finish(jobs: Int, locations: [String], labels: [String]) throws -> (
        results: SweepResults, notices: [String], rowsAsRun: [[SummaryRow]]
    ) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        precondition(remaining.allSatisfy { $0 == 0 } && bases != nil, "a study folded before all its runs came")
        let folded = SweepResults.folded(
            self.folded.map { $0! }, focus: focus, bases: bases!, platformMetrics: template.platformMetrics)
        return (
            template.with(folded, jobs: jobs),
            notices.lines(runs: runs, locations: locations, points: labels), rowsAsRun ?? []
        )
    }
}
