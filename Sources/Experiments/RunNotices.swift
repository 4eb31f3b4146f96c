import Metrics
import Simulation

extension [ExperimentRunner.RunResult] {
    /// The runs' notices as `FILE:LINE:COLUMN: warning: message` lines, one per scripted event
    /// in file order; an event that only some runs (policies, replications) trip says how many
    /// and the first of them (and, in a study, its point). `locations` are where the scripted
    /// events were written; `points` name a study's points.
    public func noticeLines(locations: [String], points: [String] = []) -> [String] {
        let results = self
        var byEvent: [Int: (first: RunNotice, run: SummaryRow, runs: Int)] = [:]
        var firstPoint: [Int: Int] = [:]
        for result in results {
            for notice in result.notices {
                if let seen = byEvent[notice.event] {
                    byEvent[notice.event]!.runs = seen.runs + 1
                } else {
                    byEvent[notice.event] = (notice, result.summary, 1)
                    firstPoint[notice.event] = result.point
                }
            }
        }
        return byEvent.keys.sorted().map { event in
            let (notice, run, runs) = byEvent[event]!
            let location = event < locations.count ? locations[event] : "event \(event + 1)"
            var line = "\(location): warning: \(notice.message)"
            if runs < results.count {
                let point = points.indices.contains(firstPoint[event] ?? -1) ? " at \(points[firstPoint[event]!])" : ""
                line +=
                    """
                     (in \(runs) of \(results.count) runs, first \(run.policy) replication \
                    \(run.replication)\(point))
                    """
            }
            return line
        }
    }
}
