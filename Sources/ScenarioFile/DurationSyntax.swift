/// Virtual times and durations: `0`, `90s`, `1.5s`, `250ms`, `2m`, `3h`, `14d`, or a bare
/// number (seconds). The result is in seconds.
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

    static let expected = "use seconds or a number and a unit (ms, s, m, h, d), such as 90s, 2m or 14d"

    /// Seconds, at least 0.
    public static func parse(_ text: String) throws(ValueSyntaxError) -> Double {
        let (numberText, unitText) = DecimalNumber.split(Substring(text).trimmingBlanks())
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
        return number.doubleValue * seconds
    }
}
