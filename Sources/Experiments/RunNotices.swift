import Metrics
import Simulation

extension [ExperimentRunner.RunResult] {
    /// The runs' notices as `FILE:LINE:COLUMN: warning: message` lines, one per scripted event
    /// in file order; an event that only some runs (policies, replications) trip says how many
    /// and the first of them (and, in a study, its point). `locations` are where the scripted
    /// events were written; `points` name a study's points.
    public func noticeLines(locations: [String], points: [String] = []) -> [String] {
        var tally = RunNoticeTally()
        for (position, result) in enumerated() { tally.add(result, at: position) }
        return tally.lines(runs: count, locations: locations, points: points)
    }
}

/// The notices of runs that may finish in any order (a study folded as it runs,
/// ``StudyFold``): per scripted event, the first run (by its place in canonical order) that
/// tripped it and how many did.
struct RunNoticeTally: Sendable {
    private var byEvent: [Int: (first: RunNotice, run: SummaryRow, point: Int, position: Int, runs: Int)] = [:]

    /// The notices of `result`, the run at `position` in canonical order.
    mutating func add(_ result: ExperimentRunner.RunResult, at position: Int) {
        for notice in result.notices {
            if let seen = byEvent[notice.event] {
                byEvent[notice.event]!.runs = seen.runs + 1
                guard position < seen.position else { continue }
                byEvent[notice.event]!.first = notice
                (byEvent[notice.event]!.run, byEvent[notice.event]!.point) = (result.summary, result.point)
                byEvent[notice.event]!.position = position
            } else {
                byEvent[notice.event] = (notice, result.summary, result.point, position, 1)
            }
        }
    }

    /// ``Swift/Array/noticeLines(locations:points:)`` of the `runs` runs added.
    func lines(runs total: Int, locations: [String], points: [String]) -> [String] {
        byEvent.keys.sorted().map { event in
            let (notice, run, point, _, runs) = byEvent[event]!
            let location = event < locations.count ? locations[event] : "event \(event + 1)"
            var line = "\(location): warning: \(notice.message)"
            if runs < total {
                let at = points.indices.contains(point) ? " at \(points[point])" : ""
                line +=
                    """
                     (in \(runs) of \(total) runs, first \(run.policy) replication \
                    \(run.replication)\(at))
                    """
            }
            return line
        }
    }
}
