import Foundation

/// Reads a `summary.csv` back into rows, for regression checks against a committed baseline.
///
/// Columns are matched by header name, so a baseline written before a metric existed still
/// reads (the missing metric is NaN and is not checked).
public enum BaselineFile {
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    public static func read(_ path: String) throws -> [SummaryRow] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Error(description: "\(path): cannot read the baseline")
        }
        return try parse(text, name: path)
    }

    public static func parse(_ text: String, name: String) throws -> [SummaryRow] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let headerLine = lines.first else { throw Error(description: "\(name): the baseline is empty") }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let policy = column("policy"), let replication = column("replication"), let seed = column("seed") else {
            throw Error(description: "\(name):1: a baseline needs policy, replication and seed columns (a summary.csv)")
        }
        let metricIndex = SummaryRow.metricColumns.map(column)
        return try lines.dropFirst().enumerated().map { offset, line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let lineNumber = offset + 2
            guard fields.count == header.count, let r = Int(fields[replication]), let s = UInt64(fields[seed]) else {
                throw Error(description: "\(name):\(lineNumber): malformed baseline row")
            }
            let values = try metricIndex.map { index -> Double in
                guard let index else { return .nan }
                guard let value = Double(fields[index]) else {
                    throw Error(description: "\(name):\(lineNumber): '\(fields[index])' in column \(header[index]) is not a number")
                }
                return value
            }
            return SummaryRow(policy: fields[policy], replication: r, seed: s, values: values)
        }
    }
}
