import Metrics

/// Warm-up detection by MSER-5 (White, "An effective truncation heuristic for bias reduction
/// in simulation output", Simulation 69(6), 1997; White, Cobb and Spratt, 2000): the
/// truncation that minimises the marginal standard error of what is left.
///
/// The series is cut into batches of 5 and averaged (Z₁ … Z_k); for each candidate d (batches
/// left out) MSER(d) = Σ_{j>d} (Z_j − Z̄_d)² / (k − d)², and the truncation is 5·d* for the
/// smallest d* that minimises it. A minimum in the second half of the series means the run
/// never settles: its output is all transient, and no truncation is chosen.
public enum MSER {
    /// The number of observations to leave out of `series` (a multiple of `batch`), or nil if
    /// the series never settles (the minimum lies past its middle) or is too short (fewer
    /// than 4 batches).
    public static func truncation(_ series: [Double], batch: Int = 5) -> Int? {
        let k = series.count / batch
        guard k >= 4 else { return nil }
        let means = (0..<k).map { j in series[(j * batch)..<((j + 1) * batch)].reduce(0, +) / Double(batch) }
        var best = (d: 0, value: Double.infinity)
        // Suffix sums give every MSER(d) in one pass from the end.
        var sum = 0.0
        var squares = 0.0
        var values = [Double](repeating: .infinity, count: k)
        for d in stride(from: k - 1, through: 0, by: -1) {
            sum += means[d]
            squares += means[d] * means[d]
            let n = Double(k - d)
            guard n >= 2 else { continue }
            values[d] = max(0, squares - sum * sum / n) / (n * n)
        }
        for d in 0..<(k - 1) where values[d] < best.value { best = (d, values[d]) }
        return best.d <= k / 2 ? best.d * batch : nil
    }

    /// What `--warmup auto` found where it left nothing out, or where runs never settle.
    public static func sentence(_ found: (seconds: Double, runs: Int, unsettled: Int)) -> String {
        guard found.unsettled > 0 else {
            return "--warmup auto: MSER-5 finds no transient in the \(found.runs) runs; nothing is left out."
        }
        return
            """
            --warmup auto: \(found.unsettled) of \(found.runs) runs never settle (MSER-5's minimum lies past their \
            middle);
            """
                + " " + (found.seconds > 0 ? "the others' latest warm-up is used." : "nothing is left out.")
    }

    /// The warm-up of a set of runs from their `timeseries.csv` rows (``Metrics/RunRecorder``'s
    /// samples: time in the 3rd column, cumulative re-downloaded bytes in the 10th): MSER-5 on
    /// each run's re-downloaded bytes per sample interval, and the latest truncation time over
    /// the runs (so that every run has left its transient). `unsettled` counts the runs that
    /// never settle; they choose nothing.
    /// Why `--warmup auto` does not apply (issue 51): a one-line reason.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// ``warmup(sampleRows:)`` where warm-up deletion applies, else why not: a finite story
    /// (every event scripted, no workload generator) has no steady state to warm up to, and
    /// where most runs never settle, the latest truncation of the few that do would speak for
    /// runs that are all transient.
    /// What `--warmup auto` found: the warm-up used, and each run's own truncation (nil for a
    /// run that never settles), which `warmup.csv` lists.
    public struct Found: Sendable {
        public let seconds: Double
        public let runs: Int
        public let unsettled: Int
        public let cuts: [(policy: String, replication: Int, seconds: Double?)]

        public var summary: (seconds: Double, runs: Int, unsettled: Int) { (seconds, runs, unsettled) }

        /// `warmup.csv`: policy, replication, the run's truncation in seconds (empty: never settles).
        public var csv: String {
            CSV.row(["policy", "replication", "truncation_s", "settles"])
                + cuts.map {
                    CSV.row([
                        $0.policy, String($0.replication), $0.seconds.map(CSV.seconds) ?? "",
                        $0.seconds == nil ? "false" : "true",
                    ])
                }.joined()
        }
    }

    /// ``warmup(sampleRows:finiteStory:)`` of a first pass's runs, with each run's truncation.
    public static func warmup(_ runs: [ExperimentRunner.RunResult], finiteStory: Bool) throws(Refusal) -> Found {
        let found = try warmup(sampleRows: runs.map(\.sampleRows), finiteStory: finiteStory)
        let cuts = runs.map { run in
            (policy: run.summary.policy, replication: run.summary.replication, seconds: cut(of: run.sampleRows))
        }
        return Found(seconds: found.seconds, runs: found.runs, unsettled: found.unsettled, cuts: cuts)
    }

    public static func warmup(sampleRows runs: [String], finiteStory: Bool) throws(Refusal) -> (
        seconds: Double, runs: Int, unsettled: Int
    ) {
        if finiteStory {
            throw Refusal(
                description: """
                    the scenario is a finite story (every event scripted, no workload generator): there is no \
                    steady state for a warm-up to reach; compare it whole
                    """)
        }
        let found = warmup(sampleRows: runs)
        if 2 * found.unsettled > found.runs {
            throw Refusal(
                description: """
                    \(found.unsettled) of \(found.runs) runs never settle (MSER-5's minimum lies past their middle): \
                    no warm-up deletion applies; run the scenario longer or compare it whole
                    """)
        }
        return found
    }

    public static func warmup(sampleRows runs: [String]) -> (seconds: Double, runs: Int, unsettled: Int) {
        var latest = 0.0
        var unsettled = 0
        for rows in runs {
            guard let seconds = cut(of: rows) else {
                unsettled += 1
                continue
            }
            latest = max(latest, seconds)
        }
        return (latest, runs.count, unsettled)
    }

    /// One run's truncation in seconds (0: nothing to leave out), nil if it never settles.
    static func cut(of rows: String) -> Double? {
        let samples = rows.split(separator: "\n").compactMap { line -> (time: Double, redownload: Double)? in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count >= 10, let time = Double(f[2]), let bytes = Double(f[9]) else { return nil }
            return (time, bytes)
        }
        let increments = zip(samples.dropFirst(), samples).map { $0.redownload - $1.redownload }
        guard let cut = truncation(increments) else { return nil }
        return cut > 0 ? samples[cut].time : 0
    }
}
