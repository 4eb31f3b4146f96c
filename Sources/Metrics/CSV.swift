import Foundation

/// RFC 4180 output: comma-separated, CRLF-free (LF line ends, as every CSV reader accepts),
/// fields quoted only when they hold a comma, quote or line break.
public enum CSV {
    public static func field(_ text: String) -> String {
        // By bytes, not characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 })
        else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// Seconds in plain decimal with microsecond resolution (never exponent notation).
    public static func seconds(_ value: Double) -> String {
        sixDecimals(value)
    }

    /// A ratio or statistic with six decimals.
    public static func decimal(_ value: Double, places: Int = 6) -> String {
        guard value.isFinite else { return "" }
        return places == 6 ? sixDecimals(value) : String(format: "%.\(places)f", value)
    }

    /// `String(format: "%.6f", value)`, digit for digit, without Foundation's formatter (about
    /// 10,000 instructions a call, most of a comparison.csv's cost).
    static func sixDecimals(_ value: Double) -> String {
        guard let micros = micros(value.magnitude), value.isFinite else { return String(format: "%.6f", value) }
        var digits = String(micros % 1_000_000)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        return (value.sign == .minus ? "-" : "") + String(micros / 1_000_000) + "." + digits
    }

    /// What a reader gets back from `value` written as seconds (``seconds(_:)``): `Double` of
    /// the text, without the text. The text is ±micros/10^6, and a division of two integers
    /// that doubles hold exactly is the double nearest their quotient, as parsing is.
    public static func asWritten(seconds value: Double) -> Double {
        guard value.isFinite else { return .nan }
        guard let micros = micros(value.magnitude), micros <= 1 << 53 else { return Double(sixDecimals(value)) ?? .nan }
        let read = Double(micros) / 1e6
        return value.sign == .minus ? -read : read
    }

    /// What a reader gets back from `value` written as an integer (`String(Int64(value))`): the
    /// integer, rounded to the nearest double as parsing its digits rounds.
    public static func asWritten(integer value: Double) -> Double {
        guard value.isFinite else { return .nan }
        return Double(Int64(value))
    }

    /// `value` × 10^6 rounded as glibc's `%.6f` rounds (the exact binary value, half to even),
    /// by integer arithmetic, for 0 ≤ `value` < 4·10^12 (nil beyond, or for a negative value).
    static func micros(_ value: Double) -> UInt64? {
        if value == 0 && value.sign == .plus { return 0 }
        guard value > 0, value < 4e12 else { return nil }
        let biased = Int(value.exponentBitPattern)
        let mantissa = UInt128(biased == 0 ? value.significandBitPattern : value.significandBitPattern | (1 << 52))
        let shift = 1075 - Swift.max(biased, 1)  // value = mantissa / 2^shift, shift > 0 here
        guard shift <= 100 else { return 0 }  // value·10^6 < 2^-27: rounds to 0
        let scaled = mantissa * 1_000_000
        var rounded = scaled >> shift
        let rest = scaled & ((1 << shift) - 1)
        let half: UInt128 = 1 << (shift - 1)
        if rest > half || (rest == half && rounded & 1 == 1) { rounded += 1 }
        return UInt64(rounded)  // value·10^6 < 4·10^18 fits
    }
}
