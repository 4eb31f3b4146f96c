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

    /// Pairs the runs of `groups` (each point's values and rows, in point order) against the
    /// rows of point `baselinePoint` under `policy`; nil if that point has no such rows.
    init?(groups: [(values: [String], rows: [SummaryRow])], baselinePoint: Int, policy: String, platformMetrics: Bool) {
        guard groups.indices.contains(baselinePoint) else { return nil }
        let base = groups[baselinePoint].rows.filter { $0.policy == policy }
        guard !base.isEmpty else { return nil }
        let byReplication = Dictionary(base.map { ($0.replication, $0) }, uniquingKeysWith: { a, _ in a })
        metrics = Metric.columns(platformMetrics: platformMetrics)
        baselineValues = groups[baselinePoint].values
        baselinePolicy = policy
        var pairs: [Pair] = []
        for (g, group) in groups.enumerated() {
            var order: [String] = []
            for row in group.rows where !order.contains(row.policy) { order.append(row.policy) }
            for name in order where !(g == baselinePoint && name == policy) {
                let runs = group.rows.filter { $0.policy == name }
                let paired = runs.compactMap { run in byReplication[run.replication].map { (run, $0) } }
                guard !paired.isEmpty else { continue }
                // The metrics are a prefix of `Metric.allCases`, the order of a row's values.
                let columns = metrics.indices
                let units = metrics.map(\.unit)
                pairs.append(
                    Pair(
                        values: group.values, policy: name, replications: paired.count,
                        means: columns.map { c in paired.reduce(0) { $0 + $1.0.values[c] } / Double(paired.count) },
                        baselineMeans: columns.map { c in
                            paired.reduce(0) { $0 + $1.1.values[c] } / Double(paired.count)
                        },
                        differences: columns.map { c in
                            Interval.of(paired.map { $0.0.values[c] - $0.1.values[c] }, unit: units[c])
                        }))
            }
        }
        self.pairs = pairs
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
