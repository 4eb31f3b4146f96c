import Foundation
import Metrics

/// Human units for axes, hovers and tables: decimal bytes (1 MB = 10^6), and durations in
/// the unit that suits a whole axis.
public enum Units {
    /// The byte unit for values up to `largest`.
    static func byteUnit(_ largest: Double) -> (name: String, scale: Double) {
        for unit in [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)] where largest >= unit.1 { return unit }
        return ("B", 1)
    }

    /// The time unit for values up to `largest` seconds.
    static func timeUnit(_ largest: Double) -> (name: String, scale: Double) {
        if largest >= 3 * 86400 { return ("days", 86400) }
        if largest >= 3 * 3600 { return ("h", 3600) }
        if largest >= 180 { return ("min", 60) }
        return ("s", 1)
    }

    /// `1234567890` → `1.23 GB`.
    public static func bytes(_ value: Double) -> String {
        let unit = byteUnit(abs(value))
        return number(value / unit.scale) + " " + unit.name
    }

    /// `5400` → `1.5 h`.
    public static func duration(_ seconds: Double) -> String {
        let unit = timeUnit(abs(seconds))
        return number(seconds / unit.scale) + " " + unit.name
    }

    /// Three significant digits, no exponent for everyday magnitudes.
    public static func number(_ x: Double) -> String {
        if x == 0 { return "0" }
        // No value (a point without a policy, an axis left out): a dash, never a trap.
        guard x.isFinite else { return x.isNaN ? "—" : (x > 0 ? "∞" : "−∞") }
        let digits = max(0, 2 - Int(floor(log10(abs(x)))))
        var text = String(format: "%.\(min(digits, 6))f", x)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}

extension Metric {
    /// How a chart draws the metric's values.
    var chartUnit: Chart.Unit {
        switch unit {
        case .count: .count
        case .bytes: .bytes
        case .seconds: .duration
        }
    }
}
