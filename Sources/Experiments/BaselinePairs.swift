import Metrics

/// Every point × policy of a study paired against one baseline point under one policy
/// (`baseline: {point: {platform: ios17}, policy: apple}`): the migration question in one
/// study, "Background Assets with lru at 1 GB against ODR under apple".
///
/// Replication `r` of every point runs on the same seed, so the differences are paired on
/// common random numbers, as a comparison's within a point are; a pair's interval is the
/// Student-t 95 % interval of the per-replication differences (``Metrics/Interval``).
public struct BaselinePairs: Sendable {
    /// One point × policy against the baseline.
    public struct Pair: Sendable {
        /// The point's axis values (empty where an explicit point leaves an axis out).
        public let values: [String]
        public let policy: String
        /// Replications paired (those both runs have).
        public let replications: Int
        /// Per metric of ``BaselinePairs/metrics``: the pair's mean, the baseline's, and the
        /// paired difference (pair − baseline).
        public let means: [Double]
        public let baselineMeans: [Double]
        public let differences: [Interval]
    }

    /// The baseline point's axis values and its policy.
    public let baselineValues: [String]
    public let baselinePolicy: String
    /// The metrics paired, in file order.
    public let metrics: [Metric]
    /// Every other point × policy, in point order and then policy order.
    public let pairs: [Pair]

    /// The pairs of a study folded point by point (``StudyPoint``): `pairs`, every point's
    /// against `base`, in point order.
    init(base: Base, metrics: [Metric], pairs: [Pair]) {
        (baselineValues, baselinePolicy, self.metrics, self.pairs) = (base.values, base.policy, metrics, pairs)
    }

    /// The baseline point's runs under the baseline policy, by replication.
    struct Base: Sendable {
        let values: [String]
        let policy: String
        let byReplication: [Int: SummaryRow]

        /// Point `values`'s `rows` under `policy`; nil if it has none.
        init?(values: [String], rows: [SummaryRow], policy: String) {
            let base = rows.filter { $0.policy == policy }
            guard !base.isEmpty else { return nil }
            byReplication = Dictionary(base.map { ($0.replication, $0) }, uniquingKeysWith: { a, _ in a })
            (self.values, self.policy) = (values, policy)
        }
    }

    /// One point's pairs (values `values`, runs `rows`) against `base`, in its policies' order;
    /// the baseline point's own policy left out there (`isBaseline`).
    static func pairs(
        of values: [String], _ rows: [SummaryRow], isBaseline: Bool, against base: Base, metrics: [Metric]
    ) -> [Pair] {
        var order: [String] = []
        for row in rows where !order.contains(row.policy) { order.append(row.policy) }
        var pairs: [Pair] = []
        for name in order where !(isBaseline && name == base.policy) {
            let runs = rows.filter { $0.policy == name }
            let paired = runs.compactMap { run in base.byReplication[run.replication].map { (run, $0) } }
            guard !paired.isEmpty else { continue }
            // The metrics are a prefix of `Metric.allCases`, the order of a row's values.
            let columns = metrics.indices
            let units = metrics.map(\.unit)
            pairs.append(
                Pair(
                    values: values, policy: name, replications: paired.count,
                    means: columns.map { c in paired.reduce(0) { $0 + $1.0.values[c] } / Double(paired.count) },
                    baselineMeans: columns.map { c in
                        paired.reduce(0) { $0 + $1.1.values[c] } / Double(paired.count)
                    },
                    differences: columns.map { c in
                        Interval.of(paired.map { $0.0.values[c] - $0.1.values[c] }, unit: units[c])
                    }))
        }
        return pairs
    }

    /// The long table's header after the axis columns.
    public static let header = [
        "policy", "replications", "baseline_policy", "metric", "unit", "mean", "baseline_mean",
        "diff", "diff_ci_low", "diff_ci_high", "significant",
    ]

    /// The verdict against the baseline: a heading, then per point (but the baseline's) its
    /// best deployable policy's paired changes in re-downloads, failures, the user's data
    /// refused and, where the runs have them, the time launches were blocked, each with its
    /// 95 % interval ("the same" where no replication differs). `format`
    /// writes a metric's value (`humanValue`).
    /// Under a focus on one app (`focus`), a metric only the device has (the user's refused
    /// data) is the device's, and says so.
    public func verdict(
        axisNames: [String], offline: Set<String>, focus: Bool = false, format: (Metric, Double) -> String
    ) -> [String] {
        func label(_ values: [String]) -> String {
            zip(axisNames, values).filter { !$1.isEmpty }.map { "\($0)=\($1)" }.joined(separator: ", ")
        }
        func signed(_ metric: Metric, _ x: Double) -> String { (x < 0 ? "−" : "+") + format(metric, abs(x)) }
        let shown =
            [Metric.redownloadBytes, .failedRequests, .refusedOtherBytes]
            + (metrics.contains(.launchBlockedSeconds) ? [.launchBlockedSeconds] : [])
        let replications = pairs.first?.replications ?? 0
        var lines = [
            """
            Against \(label(baselineValues)) under \(baselinePolicy) (\(replications) replications, paired; at each \
            point its best policy but \(baselinePolicy), by re-downloads):
            """
        ]
        for pair in bestPerPoint(offline: offline) {
            // A metric without values is left out.
            let changes = shown.filter { !pair.differences[$0.position].mean.isNaN }.map { metric in
                let d = pair.differences[metric.position]
                let name = metric.title.lowercased() + (focus && !metric.belongsToApp ? " (the device's)" : "")
                if d.isAllZero { return "\(name) the same" }
                if !d.isBounded {
                    return "\(name) \(signed(metric, d.mean)) in every replication"
                        + (d.excludesZero ? "" : ", not significant")
                }
                return
                    "\(name) \(signed(metric, d.mean)) (\(signed(metric, d.low)) to "
                    + "\(signed(metric, d.high))\(d.excludesZero ? "" : ", not significant"))"
            }
            lines.append("\(label(pair.values)) with \(pair.policy): " + changes.joined(separator: ", "))
        }
        return lines
    }

    /// One point's best deployable policy (fewest re-downloaded bytes; ties by name) against
    /// the baseline, per point but the baseline's own: what the verdict says, in point order.
    /// `offline` policies (bounds) are never best, nor the baseline's policy: the question is
    /// what the other points' policies change against it (ODR's `apple` at a Background Assets
    /// point is that app's strategy only as a what-if).
    public func bestPerPoint(offline: Set<String>) -> [Pair] {
        let redownload = Metric.redownloadBytes.position
        var best: [Pair] = []
        for pair in pairs where !offline.contains(pair.policy) && pair.policy != baselinePolicy {
            if let i = best.firstIndex(where: { $0.values == pair.values }) {
                let (a, b) = (pair.means[redownload], best[i].means[redownload])
                if a < b || (a == b && pair.policy < best[i].policy) { best[i] = pair }
            } else if pair.values != baselineValues {
                best.append(pair)
            }
        }
        return best
    }
}
