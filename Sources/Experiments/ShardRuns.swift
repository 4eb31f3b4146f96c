import Foundation

/// A shard's runs as they finish (``ExperimentRunner/run(indices:progress:deliver:)``): of
/// each, only its lines are kept, its `results.csv` line and its apps' `apps.csv` lines, and
/// its notices tallied; the run itself is let go.
///
/// Performance: a shard wrote its lines from its runs kept whole, and grew by about 4.8 KB a
/// run; keeping only the lines, and writing its file a piece at a time
/// (``ShardFile/pieces(_:)``), about 1.1 KB. A third of a 63,000-run study went from 125 to 56
/// MiB (Benchmarks/README.md, issue 55).
public final class ShardRuns: @unchecked Sendable {
    private let lock = NSLock()
    private let values: [[String]]
    private let platformMetrics: Bool
    private var lines: [(result: String, apps: [String])?]
    private var notices = RunNoticeTally()

    /// A collector of `count` runs, by their place in the shard's indices, whose points have
    /// the axis values `values` (by point); `platformMetrics` as the study writes them.
    public init(count: Int, values: [[String]], platformMetrics: Bool) {
        (self.values, self.platformMetrics) = (values, platformMetrics)
        lines = Array(repeating: nil, count: count)
    }

    /// The run at `slot` (its place in the shard's indices). Always true: keeping lines cannot fail.
    ///
    /// Its lines are made here, on the run's own thread, from its numbers as run (what a
    /// study's lines are written from): a shard reads nothing back, so its runner need not
    /// make each run's rows as they read back (``ExperimentRunner/studyLines``).
    public func receive(_ slot: Int, _ run: ExperimentRunner.RunResult) -> Bool {
        let point = values[run.point]
        let result = SweepResults.line(values: point, summary: run.summary, platformMetrics: platformMetrics)
        let apps = run.apps.map { SweepResults.appLine(values: point, row: $0, platformMetrics: platformMetrics) }
        lock.lock()
        defer { lock.unlock() }
        notices.add(run, at: slot)
        lines[slot] = (result, apps)
        return true
    }

    /// Every run's lines, by slot, and the runs' notices
    /// (``Swift/Array/noticeLines(locations:points:)``) as one list of them would give.
    public func finish(locations: [String], points: [String]) -> (
        lines: [(result: String, apps: [String])], notices: [String]
    ) {
        lock.lock()
        defer { lock.unlock() }
        let all = lines.enumerated().map { slot, made in
            guard let made else { preconditionFailure("run \(slot) of the shard did not come") }
            return made
        }
        return (all, notices.lines(runs: lines.count, locations: locations, points: points))
    }
}
