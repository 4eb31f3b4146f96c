import Foundation
import Metrics

/// A plain aligned text table for the terminal: first column left-aligned, others right.
public struct Table {
    public var header: [String]
    public var rows: [[String]] = []

    public init(_ header: [String]) { self.header = header }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { c in all.map { $0[c].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            row.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// Bytes for people: decimal units, three significant figures.
/// A metric's value as the terminal shows it: bytes, seconds or a count.
public func humanValue(_ value: Double, _ metric: Metric) -> String {
    switch metric.unit {
    case .bytes: humanBytes(value)
    case .seconds: String(format: "%.1f s", value)
    case .count: String(format: "%.2f", value)
    }
}

public func humanBytes(_ bytes: Double) -> String {
    let units: [(String, Double)] = [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)]
    for (unit, scale) in units where abs(bytes) >= scale {
        return String(format: "%.3g %@", bytes / scale, unit)
    }
    return String(format: "%.0f B", bytes)
}

/// Durations for one table column, all in the unit that suits the column's largest value,
/// so a column never mixes "s" and "min".
public func secondsColumn(_ values: [Double]) -> [String] {
    let largest = values.filter(\.isFinite).max() ?? 0
    let (unit, scale): (String, Double) = largest >= 7200 ? ("h", 3600) : largest >= 120 ? ("min", 60) : ("s", 1)
    return values.map { String(format: "%.1f %@", $0 / scale, unit) }
}
