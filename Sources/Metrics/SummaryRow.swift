import ODRCore

/// One row of `summary.csv`: the metrics of one run (policy × replication).
public struct SummaryRow: Sendable, Hashable {
    public var policy: String
    public var replication: Int
    public var seed: UInt64
    /// The digest of the scenario file the run came from (``Scenario/sourceDigest``), so that
    /// a baseline made from another scenario is recognised; empty for scenarios built in code.
    public var scenarioHash: String
    /// The metrics' values, in ``Metric`` order: every metric for a run, the columns it was
    /// read with for a row read from a file.
    public var values: [Double]
    /// Under a focus on one app (`--app`), the device's values of the same run, in ``Metric``
    /// order, beside the app's (``AppRow/summaryRows(of:in:beside:scenarioHash:)``); nil for a
    /// device's own row, whose values are the device's.
    public var device: [Double]? = nil

    /// The metric columns every file has (``Metric/classic``), in file order. Byte and count
    /// columns are integers.
    public static let metricColumns: [String] = Metric.classic.map(\.column)

    public static var header: String { header(platformMetrics: false) }

    /// The header with the platform metrics' columns too, or not (``Metric/columns(platformMetrics:)``).
    /// `summary.csv` (and a baseline): the header, then a line per row.
    public static func csv(_ rows: [SummaryRow], platformMetrics: Bool) -> String {
        header(platformMetrics: platformMetrics) + rows.map { $0.csvLine(platformMetrics: platformMetrics) }.joined()
    }

    /// A baseline of one app (`check --update --app`): ``csv(_:platformMetrics:)``, and where the
    /// app runs a strategy of its own (`apps[].strategy`), a last `strategy` column naming it,
    /// so that the gate knows what shipped (``BaselineFile/strategy``).
    public static func csv(_ rows: [SummaryRow], platformMetrics: Bool, strategy: String?) -> String {
        guard let strategy else { return csv(rows, platformMetrics: platformMetrics) }
        let lines = csv(rows, platformMetrics: platformMetrics).split(separator: "\n").map(String.init)
        let column = ["strategy"] + Array(repeating: CSV.field(strategy), count: max(0, lines.count - 1))
        return zip(lines, column).map { "\($0),\($1)\n" }.joined()
    }

    /// `rows` with every policy labelled `label` (nil: as they are): a gate's rows named by the
    /// strategy that ran rather than the run's policy.
    public static func labelled(_ rows: [SummaryRow], as label: String?) -> [SummaryRow] {
        guard let label else { return rows }
        return rows.map { row in
            var row = row
            row.policy = label
            return row
        }
    }

    public static func header(platformMetrics: Bool) -> String {
        CSV.row(
            ["policy", "replication", "seed", "scenario_hash"]
                + Metric.columns(platformMetrics: platformMetrics).map(\.column))
    }

    /// The metric's value; NaN for a platform metric a file did not have.
    public subscript(metric: Metric) -> Double { metric.position < values.count ? values[metric.position] : .nan }

    /// The device's value of `metric` in this run: beside a focused row, else the row's own.
    public func deviceValue(_ metric: Metric) -> Double {
        guard let device else { return self[metric] }
        return metric.position < device.count ? device[metric.position] : .nan
    }

    public var csvLine: String { csvLine(platformMetrics: false) }

    /// The row as a reader gets it back from ``csvLine(platformMetrics:)``: the file's columns,
    /// each value as its text reads (``CSV/asWritten(seconds:)``), and no device values.
    public func asWritten(platformMetrics: Bool) -> SummaryRow {
        let written = zip(Metric.columns(platformMetrics: platformMetrics), values).map { metric, value in
            !value.isFinite
                ? Double.nan : metric.unit == .seconds ? CSV.asWritten(seconds: value) : CSV.asWritten(integer: value)
        }
        return SummaryRow(
            policy: policy, replication: replication, seed: seed, values: written, scenarioHash: scenarioHash)
    }

    public func csvLine(platformMetrics: Bool) -> String {
        let fields = zip(Metric.columns(platformMetrics: platformMetrics), values).map { metric, value in
            // `nan`: no value (the device's own metrics in one app's rows), as the reader takes it.
            !value.isFinite ? "nan" : metric.unit == .seconds ? CSV.seconds(value) : String(Int64(value))
        }
        return CSV.row([policy, String(replication), String(seed), scenarioHash] + fields)
    }

    /// The row for a finished run, from the device's ledger and the collected waits.
    /// `pendingAtEnd`: requests still waiting when the run ended (``ODRDevice/waitingRequests``).
    public init(
        policy: String, replication: Int, seed: UInt64, scenarioHash: String = "", ledger: Ledger,
        pendingAtEnd: Int = 0, waits: WaitStatistics
    ) {
        self.policy = policy
        self.replication = replication
        self.seed = seed
        self.scenarioHash = scenarioHash
        values = Metric.allCases.map { $0.value(ledger, pendingAtEnd: pendingAtEnd, waits: waits) }
    }

    public init(policy: String, replication: Int, seed: UInt64, values: [Double], scenarioHash: String = "") {
        self.policy = policy
        self.replication = replication
        self.seed = seed
        self.scenarioHash = scenarioHash
        self.values = values
    }
}
