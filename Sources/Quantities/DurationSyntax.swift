/// Virtual times and durations: `0`, `90s`, `1.5s`, `250ms`, `2m`, `3h`, `14d`, or a bare
/// number (seconds). The result is in seconds. As an odr-sim extension, units may be
/// chained from largest to smallest: `1d8h`, `2h30m`, `5d16h30m` (so a two-week script can
/// say "day 5, 4 pm" directly).
///
/// `m` is minutes (there are no months or metres in a scenario). Negative times are errors.
///
/// ```swift
/// try DurationSyntax.parse("2m")     // 120
/// try DurationSyntax.parse("250ms")  // 0.25
/// ```
public enum DurationSyntax {
    /// Unit suffixes and their length in seconds.
    public static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400),
    ]

    static let expected = "use seconds or a number and a unit (ms, s, m, h, d), such as 90s, 2m, 14d or 1d8h"

    /// Seconds, 0 … ten years (``ModelLimits/seconds``).
    public static func parse(_ text: String) throws(ValueSyntaxError) -> Double {
        let trimmed = Substring(text).trimmingBlanks()
        if let parts = compoundParts(trimmed) {
            var total = 0.0
            for part in parts { total += try parse(String(part)) }
            guard total <= ModelLimits.seconds else {
                throw ValueSyntaxError(text: text, problem: .tooLarge(kind: "time", maximum: ModelLimits.secondsText))
            }
            return total
        }
        let (numberText, unitText) = DecimalNumber.split(trimmed)
        let number: DecimalNumber
        do {
            number = try DecimalNumber(numberText)
        } catch {
            // Too many digits for 64 bits still makes a fine Double, but no scenario means it.
            throw ValueSyntaxError(text: text, problem: .unparsable(kind: "time", expected: expected))
        }
        let seconds: Double
        if unitText.isEmpty {
            seconds = 1
        } else if let unit = units.first(where: { $0.suffix == unitText }) {
            seconds = unit.seconds
        } else {
            throw ValueSyntaxError(text: text, problem: .unparsable(kind: "time", expected: expected))
        }
        guard !number.isNegative || number.isZero else {
            throw ValueSyntaxError(text: text, problem: .negative(kind: "time"))
        }
        let total = number.doubleValue * seconds
        guard total <= ModelLimits.seconds else {
            throw ValueSyntaxError(text: text, problem: .tooLarge(kind: "time", maximum: ModelLimits.secondsText))
        }
        return total
    }

    /// Splits `1d8h30m` into `1d`, `8h`, `30m` when it has several unit-suffixed numbers,
    /// each unit smaller than the one before; nil for a plain single-unit value.
    static func compoundParts(_ text: Substring) -> [Substring]? {
        var parts: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        var previous = Double.infinity
        while i < text.endIndex {
            guard text[i].isASCII, text[i].isNumber || text[i] == "." else { return nil }
            while i < text.endIndex, text[i].isASCII, text[i].isNumber || text[i] == "." { i = text.index(after: i) }
            let unitStart = i
            while i < text.endIndex, text[i].isASCII, text[i].isLetter { i = text.index(after: i) }
            guard let unit = units.first(where: { $0.suffix == text[unitStart..<i] }), unit.seconds < previous else {
                return nil
            }
            previous = unit.seconds
            parts.append(text[start..<i])
            start = i
        }
        return parts.count > 1 ? parts : nil
    }
}
