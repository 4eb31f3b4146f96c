import ODRCore

/// One row of `apps.csv`: what one app did in one run (policy × replication), every metric
/// that belongs to an app (``Metric/belongsToApp``). Summed over the apps, the additive ones
/// give the run's ``SummaryRow`` (``Metric/sumsOverApps``).
public struct AppRow: Sendable, Hashable {
    public var policy: String
    public var replication: Int
    public var seed: UInt64
    public var app: String
    /// Every metric's value in ``Metric`` order; NaN for the device's own metrics.
    public var values: [Double]

    /// App `app`'s rows of `rows` as summary rows (the device's own metrics NaN): what a table,
    /// a verdict or a baseline of one app (`--app`) reads.
    ///
    /// With the device's rows of the same runs (`beside`), the rows are the app's *focus*: a
    /// metric that belongs to the app is the app's, one that exists only for the device (the
    /// user's refused data, over-purge, low-disk warnings, the disk's peak) keeps the device's
    /// value, never a blank that an objective would read as 0; and the device's values ride
    /// along (``SummaryRow/device``) for `device.` terms.
    public static func summaryRows(
        of app: String, in rows: [AppRow], beside devices: [SummaryRow] = [], scenarioHash: String = ""
    ) -> [SummaryRow] {
        var device: [String: SummaryRow] = [:]
        for row in devices { device["\(row.policy)\u{0}\(row.replication)"] = row }
        return rows.filter { $0.app == app }.map {
            var row = SummaryRow(
                policy: $0.policy, replication: $0.replication, seed: $0.seed, values: $0.values,
                scenarioHash: scenarioHash)
            if let whole = device["\($0.policy)\u{0}\($0.replication)"] {
                for metric in Metric.allCases where !metric.belongsToApp && metric.position < row.values.count {
                    row.values[metric.position] = whole[metric]
                }
                row.device = whole.values
            }
            return row
        }
    }

    /// The metrics of an app's row, in file order: the per-app ones of `summary.csv`'s columns.
    public static func columns(platformMetrics: Bool) -> [Metric] {
        Metric.columns(platformMetrics: platformMetrics).filter(\.belongsToApp)
    }

    public static func header(platformMetrics: Bool) -> String {
        CSV.row(["policy", "replication", "seed", "app"] + columns(platformMetrics: platformMetrics).map(\.column))
    }

    public subscript(metric: Metric) -> Double { values[metric.position] }

    public init(policy: String, replication: Int, seed: UInt64, app: String, values: [Double]) {
        self.policy = policy
        self.replication = replication
        self.seed = seed
        self.app = app
        self.values = values
    }

    /// The row as ``init(fields:platformMetrics:)`` reads it back from ``csvLine(platformMetrics:)``:
    /// each of the file's columns as its text reads (``CSV/asWritten(seconds:)``), NaN elsewhere.
    public func asWritten(platformMetrics: Bool) -> AppRow {
        var written = [Double](repeating: .nan, count: Metric.allCases.count)
        for metric in Self.columns(platformMetrics: platformMetrics) {
            let value = self[metric]
            written[metric.position] =
                metric.unit == .seconds ? CSV.asWritten(seconds: value) : CSV.asWritten(integer: value)
        }
        return AppRow(policy: policy, replication: replication, seed: seed, app: app, values: written)
    }

    /// An app row read back from its fields as ``csvLine(platformMetrics:)`` writes them
    /// (policy, replication, seed, app, the app's metrics); nil if they do not parse.
    public init?(fields: ArraySlice<String>, platformMetrics: Bool) {
        let metrics = Self.columns(platformMetrics: platformMetrics)
        let f = Array(fields)
        guard f.count == 4 + metrics.count, let replication = Int(f[1]), let seed = UInt64(f[2]) else { return nil }
        var values = [Double](repeating: .nan, count: Metric.allCases.count)
        for (k, metric) in metrics.enumerated() {
            guard let value = Double(f[4 + k]) else { return nil }
            values[metric.position] = value
        }
        self.init(policy: f[0], replication: replication, seed: seed, app: f[3], values: values)
    }

    public func csvLine(platformMetrics: Bool) -> String {
        let fields = Self.columns(platformMetrics: platformMetrics).map { metric in
            metric.unit == .seconds ? CSV.seconds(self[metric]) : String(Int64(self[metric]))
        }
        return CSV.row([policy, String(replication), String(seed), app] + fields)
    }

    /// App `app`'s row from its share of the ledger (``ODRCore/ODRDevice/ledger(of:)``) and its waits.
    public init(policy: String, replication: Int, seed: UInt64, app: String, ledger: Ledger, waits: WaitStatistics) {
        self.policy = policy
        self.replication = replication
        self.seed = seed
        self.app = app
        values = Metric.allCases.map { $0.belongsToApp ? $0.value(ledger, pendingAtEnd: 0, waits: waits) : .nan }
    }

    /// `apps.csv` of `rows`: a header and a row per app, run and policy.
    public static func csv(_ rows: [AppRow], platformMetrics: Bool) -> String {
        header(platformMetrics: platformMetrics) + rows.map { $0.csvLine(platformMetrics: platformMetrics) }.joined()
    }

    /// Each app's comparison of the policies, apps in first-seen order: its rows as a run's
    /// rows (the device's own metrics NaN), paired by replication against `reference`.
    public static func comparisons(_ rows: [AppRow], reference: String, platformMetrics: Bool = false) -> [(
        app: String, comparison: Comparison
    )] {
        var order: [String] = []
        var byApp: [String: [SummaryRow]] = [:]
        for row in rows {
            if byApp[row.app] == nil { order.append(row.app) }
            byApp[row.app, default: []].append(
                SummaryRow(policy: row.policy, replication: row.replication, seed: row.seed, values: row.values))
        }
        return order.map { ($0, Comparison(rows: byApp[$0]!, reference: reference, platformMetrics: platformMetrics)) }
    }

    /// `comparison-apps.csv`: `comparison.csv`'s columns for every metric that belongs to an
    /// app, one row per app and policy, the app first.
    public static func comparisonCSV(_ comparisons: [(app: String, comparison: Comparison)]) -> String {
        guard let reference = comparisons.first?.comparison.reference else { return "" }
        let metrics = comparisons[0].comparison.metrics.filter(\.belongsToApp)
        var header = ["app", "policy", "replications"]
        for m in metrics.map(\.column) {
            header += [
                "\(m)_mean", "\(m)_sd", "\(m)_ci_low", "\(m)_ci_high", "\(m)_diff_vs_\(reference)", "\(m)_diff_ci_low",
                "\(m)_diff_ci_high",
            ]
        }
        var text = CSV.row(header)
        for (app, comparison) in comparisons {
            for p in comparison.policies {
                var fields = [app, p.policy, String(p.replications)]
                for metric in metrics {
                    let m = p.metrics[metric.position]
                    fields += [m.mean, m.standardDeviation, m.nonNegativeLow, m.high].map { CSV.decimal($0) }
                    fields +=
                        p.differences.map { d in
                            [d[metric.position].mean, d[metric.position].low, d[metric.position].high].map {
                                CSV.decimal($0)
                            }
                        }
                        ?? ["", "", ""]
                }
                text += CSV.row(fields)
            }
        }
        return text
    }
}
