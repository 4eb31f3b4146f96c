/// A decimal number as written (`1.5`, `-3`, `.25`), kept exact so that `1.1GB` is
/// 1 100 000 000 bytes and not the nearest binary fraction times 10^9.
///
/// Only plain decimal notation is accepted: no exponents, hex, `inf` or `nan`, which
/// `Double(_:)` would otherwise let through.
public struct DecimalNumber: Hashable, Sendable {
    public var isNegative: Bool
    /// The digits with the decimal point removed and trailing fraction zeros dropped.
    public var significand: UInt64
    /// How many of those digits are after the point: the value is `significand / 10^scale`.
    public var scale: Int

    /// The longest prefix of `text` that looks like a number, and the rest (the unit),
    /// with blanks around the unit trimmed: `"1.5 GB"` → (`"1.5"`, `"GB"`).
    public static func split(_ text: Substring) -> (number: Substring, unit: Substring) {
        var end = text.startIndex
        if end < text.endIndex, text[end] == "+" || text[end] == "-" { end = text.index(after: end) }
        while end < text.endIndex, text[end].isASCII, text[end].isNumber || text[end] == "." {
            end = text.index(after: end)
        }
        let unit = text[end...].drop(while: { $0 == " " })
        return (text[..<end], unit)
    }

    /// Why text is not a ``DecimalNumber``.
    public enum Failure: Error {
        /// Not `[+-]digits[.digits]` or `[+-].digits`.
        case malformed
        /// Well formed, but with more significant digits than 64 bits hold.
        case tooManyDigits
    }

    /// Reads `[+-]digits[.digits]` or `[+-].digits`.
    public init(_ text: Substring) throws(Failure) {
        var rest = text
        isNegative = rest.first == "-"
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        var fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
            (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw .malformed }
        while fraction.last == "0" { fraction = fraction.dropLast() }
        var value: UInt64 = 0
        for digit in (whole + fraction).utf8 {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw .tooManyDigits }
            value = next
        }
        guard fraction.count <= 19 else { throw .tooManyDigits }  // 10^19 is the largest power of ten in 64 bits
        significand = value
        scale = fraction.count
    }

    public var isZero: Bool { significand == 0 }

    public var doubleValue: Double {
        let magnitude = Double(significand) / Self.powerOfTen(scale)
        return isNegative && !isZero ? -magnitude : magnitude  // no -0 in the model
    }

    /// `|self| × multiplier`, rounded to the nearest integer (halves up); nil past `Int64.max`.
    public func magnitude(times multiplier: UInt64) -> Int64? {
        let product = significand.multipliedFullWidth(by: multiplier)
        let divisor = UInt64(Self.powerOfTen(scale))
        guard product.high < divisor else { return nil }
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        let roundsUp = remainder >= divisor - remainder
        let (rounded, overflow) = quotient.addingReportingOverflow(roundsUp ? 1 : 0)
        guard !overflow, rounded <= UInt64(Int64.max) else { return nil }
        return Int64(rounded)
    }

    private static func powerOfTen(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
