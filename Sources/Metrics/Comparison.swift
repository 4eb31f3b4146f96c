/// Replicated runs summarised per policy: every metric's mean, standard deviation and 95 %
/// interval, and the paired difference to a reference policy (`apple`) over the same
/// replications (common random numbers make the paired interval much narrower).
public struct Comparison: Sendable {
    public struct PolicyStatistics: Sendable {
        public let policy: String
        public let replications: Int
        /// Per metric (``Comparison/metrics`` order).
        public let metrics: [Interval]
        /// Per metric: (policy − reference) per replication; nil for the reference itself
        /// or when the reference was not run.
        public let differences: [Interval]?
    }

    public let reference: String
    public let policies: [PolicyStatistics]
    /// The metrics compared, in file order: every metric of the runs' `summary.csv`
    /// (``Metric/columns(platformMetrics:)``), the platform metrics included where the runs
    /// have them.
    public let metrics: [Metric]

    /// Groups `rows` by policy (in first-seen order) and pairs replications by number;
    /// `platformMetrics`: the runs' files carry the platform metrics' columns.
    public init(rows: [SummaryRow], reference: String = "apple", platformMetrics: Bool = false) {
        self.reference = reference
        metrics = Metric.columns(platformMetrics: platformMetrics)
        var order: [String] = []
        var byPolicy: [String: [SummaryRow]] = [:]
        for row in rows {
            if byPolicy[row.policy] == nil { order.append(row.policy) }
            byPolicy[row.policy, default: []].append(row)
        }
        // The metrics are a prefix of `Metric.allCases`, the order of a row's values.
        let columns = metrics.indices
        let units = metrics.map(\.unit)
        let base = byPolicy[reference].map { Dictionary(uniqueKeysWithValues: $0.map { ($0.replication, $0) }) }
        policies = order.map { policy in
            let runs = byPolicy[policy]!.sorted { $0.replication < $1.replication }
            // With no spread, a count gets the rule of three's interval, bytes and seconds none
            // (``Interval/of(_:unit:)``): never a point as certainty.
            func interval(_ c: Int, _ values: [Double]) -> Interval { Interval.of(values, unit: units[c]) }
            let metrics = columns.map { c in interval(c, runs.map { $0.values[c] }) }
            var differences: [Interval]?
            if policy != reference, let base {
                let paired = runs.compactMap { run in base[run.replication].map { (run, $0) } }
                differences = columns.map { c in interval(c, paired.map { $0.0.values[c] - $0.1.values[c] }) }
            }
            return PolicyStatistics(
                policy: policy, replications: runs.count, metrics: metrics, differences: differences)
        }
    }

    /// Statistics of one policy, if it was run.
    public func statistics(of policy: String) -> PolicyStatistics? { policies.first { $0.policy == policy } }

    /// `comparison.csv`: one row per policy; per metric `_mean, _sd, _ci_low, _ci_high,
    /// _diff_vs_<reference>, _diff_ci_low, _diff_ci_high` (differences empty for the reference).
    /// Every metric is a count, bytes or seconds, never negative, so `_ci_low` is clipped at
    /// 0 (a Student-t interval of a skewed sample can reach below); differences are not. An
    /// interval without bounds (bytes or seconds the same in every replication) is written
    /// empty.
    public var csv: String {
        var header = ["policy", "replications"]
        for m in metrics.map(\.column) {
            header += [
                "\(m)_mean", "\(m)_sd", "\(m)_ci_low", "\(m)_ci_high",
                "\(m)_diff_vs_\(reference)", "\(m)_diff_ci_low", "\(m)_diff_ci_high",
            ]
        }
        var text = CSV.row(header)
        for p in policies {
            var fields = [p.policy, String(p.replications)]
            for c in metrics.indices {
                let m = p.metrics[c]
                fields += [m.mean, m.standardDeviation, m.nonNegativeLow, m.high].map { CSV.decimal($0) }
                if let d = p.differences?[c] {
                    fields += [d.mean, d.low, d.high].map { CSV.decimal($0) }
                } else {
                    fields += ["", "", ""]
                }
            }
            text += CSV.row(fields)
        }
        return text
    }

    /// The statistics of ``longCSV``, in the order each metric lists them.
    public static let longStatistics = ["mean", "sd", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]

    /// `comparison-long.csv`'s header after any leading columns: `policy, baseline, metric,
    /// unit, statistic, value` (one number per row, the form `pandas.pivot_table` and ggplot take).
    public static let longHeader = ["policy", "baseline", "metric", "unit", "statistic", "value"]

    /// The same numbers as ``csv``, one per row (``longHeader``); each line starts with
    /// `prefix` (a sweep's axis values, already CSV fields with their trailing comma). The
    /// reference's differences, and the bounds of an interval without any, are left out rather
    /// than written empty, so every value parses.
    public func longRows(prefix: String = "") -> String {
        var text = ""
        for p in policies {
            for (c, metric) in metrics.enumerated() {
                let m = p.metrics[c]
                var values = [m.mean, m.standardDeviation, m.nonNegativeLow, m.high]
                if let d = p.differences?[c] { values += [d.mean, d.low, d.high] }
                for (s, value) in values.enumerated() where !value.isInfinite {
                    text +=
                        prefix
                        + String(
                            CSV.row([
                                p.policy, reference, metric.column, metric.unit.rawValue, Self.longStatistics[s],
                                CSV.decimal(value),
                            ]))
                }
            }
        }
        return text
    }

    /// `comparison-long.csv` of one comparison.
    public var longCSV: String { CSV.row(Self.longHeader) + longRows() }
}
