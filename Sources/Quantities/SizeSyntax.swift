/// Byte sizes as scenario files write them: `512MB`, `1.5GB`, `64MiB`, `700KB`, `123B`, or a
/// bare integer (bytes).
///
/// `KB/MB/GB/TB` are powers of 10 and `KiB/MiB/GiB/TiB` powers of 2 (ODR-SPEC §5), in any
/// case (`64gb`), but a lone `b` (a bit) is refused. A blank between number and unit is
/// allowed; fractions are rounded to the nearest byte. A size is at most 1 PiB
/// (``ModelLimits/bytes``). The one reader of sizes: scenario and study files and every
/// command-line option that takes a size go through it.
///
/// ```swift
/// try SizeSyntax.parse("1.5GB")        // 1_500_000_000
/// try SizeSyntax.parse("64MiB")        // 67_108_864
/// try SizeSyntax.parseSigned("-1GB")   // -1_000_000_000 (disk events)
/// ```
public enum SizeSyntax {
    /// Unit suffixes and their multipliers. `kB` is the SI spelling of `KB`.
    public static let units: [(suffix: String, bytes: UInt64)] = [
        ("B", 1),
        ("KB", 1_000), ("kB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000),
        ("PB", 1_000_000_000_000_000),
        ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40), ("PiB", 1 << 50),
    ]

    static let expected =
        "use a number and a unit (B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB), such as 512MB or 1.5GB"

    /// A size of at least 0 bytes.
    public static func parse(_ text: String) throws(ValueSyntaxError) -> Int64 {
        let (number, bytes) = try read(text)
        guard !number.isNegative || number.isZero else {
            throw ValueSyntaxError(text: text, problem: .negative(kind: "size"))
        }
        return bytes
    }

    /// A change in size, `+3GB` or `-1GB`; without a sign it grows.
    public static func parseSigned(_ text: String) throws(ValueSyntaxError) -> Int64 {
        let (number, bytes) = try read(text)
        return number.isNegative ? -bytes : bytes
    }

    /// The number as written and its magnitude in bytes.
    private static func read(_ text: String) throws(ValueSyntaxError) -> (DecimalNumber, Int64) {
        let trimmed = Substring(text).trimmingBlanks()
        let (numberText, unitText) = DecimalNumber.split(trimmed)
        let number: DecimalNumber
        do {
            number = try DecimalNumber(numberText)
        } catch .tooManyDigits {
            throw ValueSyntaxError(text: text, problem: .tooLarge(kind: "size", maximum: ModelLimits.bytesText))
        } catch {
            throw ValueSyntaxError(text: text, problem: .unparsable(kind: "size", expected: expected))
        }
        let multiplier: UInt64
        if unitText.isEmpty {
            multiplier = 1
        } else if unitText == "b" {
            // A lone lowercase b reads as bits elsewhere (Mb/s): never guessed for bytes.
            throw ValueSyntaxError(
                text: text, problem: .unparsable(kind: "size", expected: "write B for bytes (b is a bit); " + expected))
        } else if let unit = units.first(where: { $0.suffix == unitText })
            ?? units.first(where: { $0.suffix.uppercased() == unitText.uppercased() })
        {
            // Units in any case (`64gb`, `10kib`), as people type them on a command line and
            // in files alike.
            multiplier = unit.bytes
        } else {
            throw ValueSyntaxError(text: text, problem: .unparsable(kind: "size", expected: expected))
        }
        guard let bytes = number.magnitude(times: multiplier), bytes <= ModelLimits.bytes else {
            throw ValueSyntaxError(text: text, problem: .tooLarge(kind: "size", maximum: ModelLimits.bytesText))
        }
        return (number, bytes)
    }
}
