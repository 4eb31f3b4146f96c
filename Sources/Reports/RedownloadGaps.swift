import Experiments
import Metrics

/// Each run's re-downloaded bytes next to its ``Experiments/RedownloadBound`` (`run --bound`,
/// `compare --bound`): what no purge order could have avoided, given the run's grants. The
/// numbers stay numbers; the CSV and the terminal format them, each once.
public enum RedownloadGaps {
    static let columns = ["policy", "replication", "redownload_bytes", "redownload_bound_bytes", "gap"]

    /// How far above its bound a value is (0.25: a quarter more); nil where the bound is 0.
    static func gap(_ bytes: Double, _ bound: Double) -> Double? { bound > 0 ? bytes / bound - 1 : nil }

    /// `bounds.csv`: a row per run.
    public static func csv(_ results: [ExperimentRunner.RunResult]) -> String {
        CSV.row(columns)
            + results.map { r in
                let bytes = Int64(r.summary[.redownloadBytes])
                let bound = r.redownloadBound ?? 0
                return CSV.row([
                    r.summary.policy, String(r.summary.replication), String(bytes), String(bound),
                    gap(Double(bytes), Double(bound)).map { CSV.decimal($0, places: 4) } ?? "",
                ])
            }.joined()
    }

    /// Per policy run, its mean re-downloaded bytes and mean bound (the reports' section).
    public static func means(_ results: [ExperimentRunner.RunResult], policies: [String]) -> [(
        policy: String, redownloaded: Double, bound: Double
    )] {
        policies.compactMap { policy in
            let runs = results.filter { $0.summary.policy == policy }
            guard !runs.isEmpty else { return nil }
            let bytes = runs.map { $0.summary[.redownloadBytes] }.reduce(0, +) / Double(runs.count)
            let bound = runs.map { Double($0.redownloadBound ?? 0) }.reduce(0, +) / Double(runs.count)
            return (policy, bytes, bound)
        }
    }

    /// The terminal's table of ``means(_:policies:)``.
    public static func table(_ results: [ExperimentRunner.RunResult], policies: [String]) -> String {
        var table = Table(["policy", "re-downloaded", "bound", "gap"])
        for (policy, bytes, bound) in means(results, policies: policies) {
            table.add([policy, Units.bytes(bytes), Units.bytes(bound), percentGap(gap(bytes, bound))])
        }
        return table.rendered
    }
}

/// A gap (0.3674) as the terminal shows it (`+36.7 %`), or "-" without one. Rounded to the
/// CSV's four places first, so that the terminal and the file show the same figure.
func percentGap(_ gap: Double?) -> String {
    guard let gap, let written = Double(CSV.decimal(gap, places: 4)) else { return "-" }
    return String(format: "%+.1f %%", 100 * written)
}
