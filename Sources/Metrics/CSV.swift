import Foundation

/// RFC 4180 output: comma-separated, CRLF-free (LF line ends, as every CSV reader accepts),
/// fields quoted only when they hold a comma, quote or line break.
public enum CSV {
    public static func field(_ text: String) -> String {
        // By bytes, not characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// Seconds in plain decimal with microsecond resolution (never exponent notation).
    public static func seconds(_ value: Double) -> String {
        String(format: "%.6f", value)
    }

    /// A ratio or statistic with six decimals.
    public static func decimal(_ value: Double, places: Int = 6) -> String {
        value.isFinite ? String(format: "%.\(places)f", value) : ""
    }
}
