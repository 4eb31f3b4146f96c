import Metrics

/// A study's results: `results.csv` (one row per point × policy × replication, each axis a
/// column) and `comparison.csv` (per point × policy: each metric's mean, sd, 95 % interval
/// and paired difference to the baseline).
///
/// Both are built from the rows as `results.csv` writes them, seconds at six decimals, so a
/// study run on one machine and one merged from shards give byte-identical files.
public struct SweepResults: Sendable {
    public let axisNames: [String]
    public let baseline: String
    /// `results.csv` without its header: one line per run, in canonical order.
    public let lines: [String]
    /// Whether the rows carry the platform metrics (a point on Background Assets or Play).
    public let platformMetrics: Bool

    public init(axisNames: [String], baseline: String, lines: [String], platformMetrics: Bool = false) {
        self.axisNames = axisNames
        self.baseline = baseline
        self.lines = lines
        self.platformMetrics = platformMetrics
    }

    /// The result line of one run: its point's axis values, then its summary row.
    public static func line(values: [String], summary: SummaryRow, platformMetrics: Bool = false) -> String {
        String(CSV.row(values).dropLast()) + "," + summary.csvLine(platformMetrics: platformMetrics)
    }

    public var resultsHeader: String {
        String(CSV.row(axisNames).dropLast()) + "," + SummaryRow.header(platformMetrics: platformMetrics)
    }

    public var resultsCSV: String { resultsHeader + lines.joined() }

    /// Per point (in point order), its axis values and the comparison of its policies, from
    /// the rows as `results.csv` writes them: what `comparison.csv` and the report show.
    public func comparisons() throws -> [(values: [String], comparison: Comparison)] {
        let records = try CSVReader.records(resultsCSV)
        let axes = axisNames.count
        let fixed = 4   // policy, replication, seed, scenario_hash
        var groups: [(values: [String], rows: [SummaryRow])] = []
        for record in records.dropFirst() {
            let f = record.fields
            let values = Array(f[..<axes])
            let metrics = f[(axes + fixed)...].map { Double($0) ?? .nan }
            let row = SummaryRow(policy: f[axes], replication: Int(f[axes + 1]) ?? 0, seed: UInt64(f[axes + 2]) ?? 0,
                                 values: metrics, scenarioHash: f[axes + 3])
            if groups.last?.values == values {
                groups[groups.count - 1].rows.append(row)
            } else {
                groups.append((values, [row]))
            }
        }
        return groups.map { ($0.values, Comparison(rows: $0.rows, reference: baseline)) }
    }

    /// `comparison.csv`: the axis columns, then ``Comparison/csv``'s columns, per point in
    /// point order and per policy in run order.
    public func comparisonCSV(_ comparisons: [(values: [String], comparison: Comparison)]) -> String {
        let head = String(CSV.row(axisNames).dropLast()) + ","
        guard !comparisons.isEmpty else { return head + Comparison(rows: [], reference: baseline).csv }
        var text = ""
        for (g, group) in comparisons.enumerated() {
            let lines = group.comparison.csv.split(separator: "\n", omittingEmptySubsequences: false)
            let prefix = String(CSV.row(group.values).dropLast())
            if g == 0 { text += head + lines[0] + "\n" }
            for line in lines.dropFirst() where !line.isEmpty { text += prefix + "," + line + "\n" }
        }
        return text
    }

    public func comparisonCSV() throws -> String { comparisonCSV(try comparisons()) }
}
