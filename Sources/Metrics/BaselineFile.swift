import Foundation
import TextInput

/// Reads a `summary.csv` back into rows, for regression checks against a committed baseline.
///
/// The file is RFC 4180 CSV (``CSVReader``: CRLF or LF, quoted fields). Columns are matched
/// by header name; which metrics the baseline has and lacks is kept, so that a check can
/// refuse to compare what is not there instead of passing over it. Every malformed value is
/// an error naming `FILE:LINE:COLUMN` (the column counted in fields, 1-based).
public struct BaselineFile: Sendable {
    /// Whether a file beginning with `head` is a baseline (a summary.csv odr-sim wrote, one
    /// `--update` may replace).
    public static func isOne(head: String) -> Bool { head.hasPrefix(SummaryRow.header.prefix { $0 != "\n" }) }

    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The rows, in file order.
    public var rows: [SummaryRow]
    /// The `scenario_hash` of the rows (one value for the whole file), if the file has it.
    public var scenarioHash: String?
    /// The app's own strategy when the baseline is one app's that runs one (its `strategy`
    /// column, one value for the whole file: ``SummaryRow/csv(_:platformMetrics:strategy:)``).
    public var strategy: String? = nil
    /// Metrics odr-sim reports that the file has no column for (their values are NaN).
    public var missingMetrics: [String]
    /// Columns of the file that are not a metric odr-sim reports.
    public var unknownColumns: [String]
    /// Whether the file has the platform metrics' columns (a run on Background Assets or Play,
    /// or with updates): then they are checked too.
    public var platformMetrics: Bool

    public init(
        rows: [SummaryRow], scenarioHash: String? = nil, missingMetrics: [String] = [], unknownColumns: [String] = [],
        platformMetrics: Bool = false
    ) {
        self.platformMetrics = platformMetrics
        self.rows = rows
        self.scenarioHash = scenarioHash
        self.missingMetrics = missingMetrics
        self.unknownColumns = unknownColumns
    }

    public static func read(_ path: String) throws -> BaselineFile {
        let text: String
        do {
            text = try InputText.read(path)
        } catch {
            throw Error(description: "\(path):\(error.line):\(error.column): \(error.message)")
        }
        return try parse(text, name: path)
    }

    public static func parse(_ text: String, name: String) throws -> BaselineFile {
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(text)
        } catch {
            throw Error(description: "\(name):\(error)")
        }
        guard let headerRecord = records.first else {
            throw Error(description: "\(name):1:1: the baseline is empty; expected a summary.csv header and rows")
        }
        var header = headerRecord.fields
        if let first = header.first, first.hasPrefix("\u{FEFF}") { header[0] = String(first.dropFirst()) }
        var seen: [String: Int] = [:]
        for (i, column) in header.enumerated() {
            if let earlier = seen[column] {
                throw Error(
                    description:
                        """
                        \(name):\(headerRecord.line):\(i + 1): column '\(column)' is named twice (also field \
                        \(earlier + 1))
                        """
                )
            }
            seen[column] = i
        }
        guard let policy = seen["policy"], let replication = seen["replication"], let seed = seen["seed"] else {
            throw Error(
                description:
                    """
                    \(name):\(headerRecord.line):1: a baseline needs policy, replication and seed columns (a \
                    summary.csv)
                    """
            )
        }
        let hashColumn = seen["scenario_hash"]
        let known = Set(["policy", "replication", "seed", "scenario_hash", "strategy"] + Metric.allCases.map(\.column))
        let strategyColumn = seen["strategy"]
        var strategy: String?
        // The platform metrics' columns are read when the file has them.
        let platform = Metric.allCases.filter(\.isPlatformMetric).contains { seen[$0.column] != nil }
        let columns = Metric.columns(platformMetrics: platform)
        let metricIndex = columns.map { seen[$0.column] }

        var rows: [SummaryRow] = []
        var hash: String?
        for record in records.dropFirst() {
            let fields = record.fields
            let line = record.line
            guard fields.count == header.count else {
                throw Error(
                    description: "\(name):\(line):1: the row has \(fields.count) fields, the header \(header.count)")
            }
            guard let r = Int(fields[replication]), r >= 1 else {
                throw Error(
                    description:
                        """
                        \(name):\(line):\(replication + 1): replication '\(fields[replication])' is not a whole \
                        number of at least 1
                        """
                )
            }
            guard let s = UInt64(fields[seed]) else {
                throw Error(description: "\(name):\(line):\(seed + 1): seed '\(fields[seed])' is not a whole number")
            }
            // Columns with one value for the whole file: a row that differs is a file made of two.
            func same(_ column: Int?, _ label: String, _ held: inout String?, _ why: String) throws {
                guard let column else { return }
                let value = fields[column]
                if let held, held != value {
                    throw Error(
                        description: "\(name):\(line):\(column + 1): \(label) '\(value)' differs from the rows above "
                            + "('\(held)'): \(why)")
                }
                held = value
            }
            try same(hashColumn, "scenario_hash", &hash, "the rows come from two scenarios")
            try same(strategyColumn, "strategy", &strategy, "a baseline is one app's strategy")
            var values: [Double] = []
            values.reserveCapacity(metricIndex.count)
            for (metric, index) in zip(columns, metricIndex) {
                guard let index else {
                    // A count odr-sim added later reads as what it was then: nothing of it.
                    values.append(Metric.countedSince.contains(metric) ? 0 : .nan)
                    continue
                }
                let text = fields[index]
                // Finite numbers only (odr-sim writes "nan" for a statistic of no values).
                guard let value = Double(text), value.isFinite || text == "nan" else {
                    throw Error(
                        description:
                            "\(name):\(line):\(index + 1): '\(text)' in column \(header[index]) is not a number")
                }
                values.append(value)
            }
            rows.append(
                SummaryRow(
                    policy: fields[policy], replication: r, seed: s, values: values,
                    scenarioHash: hash ?? ""))
        }
        let missing = columns.filter { seen[$0.column] == nil && !Metric.countedSince.contains($0) }
        var file = BaselineFile(
            rows: rows, scenarioHash: hash, missingMetrics: missing.map(\.column),
            unknownColumns: header.filter { !known.contains($0) }, platformMetrics: platform)
        file.strategy = strategy
        return file
    }
}
