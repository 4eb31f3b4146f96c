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

    /// The metrics of an app's row, in file order: the per-app ones of `summary.csv`'s columns.
    public static func columns(platformMetrics: Bool) -> [Metric] {
        Metric.columns(platformMetrics: platformMetrics).filter(\.belongsToApp)
    }

    public static func header(platformMetrics: Bool) -> String {
        CSV.row(["policy", "replication", "seed", "app"] + columns(platformMetrics: platformMetrics).map(\.column))
    }

    public subscript(metric: Metric) -> Double { values[metric.position] }

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
}
