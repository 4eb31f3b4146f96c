/// Link bandwidths: `300Mbps`, `40Kbps`, `1Gbps`, `0` (offline), or a bare number, in bits
/// per second with decimal prefixes (1 Mbps = 10^6 bit/s, ODR-SPEC §5).
///
/// ```swift
/// try BandwidthSyntax.parse("12Mbps")  // 12_000_000
/// ```
public enum BandwidthSyntax {
    /// Unit suffixes and their bits per second. `kbps` is accepted beside `Kbps`.
    public static let units: [(suffix: String, bitsPerSecond: Double)] = [
        ("bps", 1), ("Kbps", 1e3), ("kbps", 1e3), ("Mbps", 1e6), ("Gbps", 1e9),
    ]

    static let expected = "use bits per second with a unit (bps, Kbps, Mbps, Gbps), such as 40Mbps, or 0 for offline"

    /// Bits per second, 0 … 100 Gbps (``ModelLimits/bitsPerSecond``).
    public static func parse(_ text: String) throws(ValueSyntaxError) -> Double {
        let (numberText, unitText) = DecimalNumber.split(Substring(text).trimmingBlanks())
        let number: DecimalNumber
        do {
            number = try DecimalNumber(numberText)
        } catch {
            throw ValueSyntaxError(text: text, problem: .unparsable(kind: "bandwidth", expected: expected))
        }
        let scale: Double
        if unitText.isEmpty {
            scale = 1
        } else if let unit = units.first(where: { $0.suffix == unitText }) {
            scale = unit.bitsPerSecond
        } else {
            throw ValueSyntaxError(text: text, problem: .unparsable(kind: "bandwidth", expected: expected))
        }
        guard !number.isNegative || number.isZero else {
            throw ValueSyntaxError(text: text, problem: .negative(kind: "bandwidth"))
        }
        let bitsPerSecond = number.doubleValue * scale
        guard bitsPerSecond <= ModelLimits.bitsPerSecond else {
            throw ValueSyntaxError(
                text: text, problem: .tooLarge(kind: "bandwidth", maximum: ModelLimits.bitsPerSecondText))
        }
        return bitsPerSecond
    }
}
