/// Human-readable byte counts for messages, in the decimal units odr-sim uses (1 MB = 10^6 bytes).
public enum ByteFormatting {
    /// `512000000` → `"512 MB"`, `1_500_000_000` → `"1.5 GB"`, `700` → `"700 B"`.
    public static func describe(_ bytes: Int64) -> String {
        let units: [(String, Double)] = [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)]
        let magnitude = Double(bytes.magnitude)
        for (unit, scale) in units where magnitude >= scale {
            let value = Double(bytes) / scale
            var text = String(format2: value)
            if text.hasSuffix(".00") { text.removeLast(3) } else if text.hasSuffix("0") { text.removeLast() }
            return "\(text) \(unit)"
        }
        return "\(bytes) B"
    }

    /// A size as a scenario file writes it: `80MB` when it is a whole number of megabytes,
    /// else its bytes (`80000001`). Read back by the scenario's size syntax as the same bytes.
    public static func scenarioSize(_ bytes: Int64) -> String {
        bytes % 1_000_000 == 0 ? "\(bytes / 1_000_000)MB" : String(bytes)
    }
}

extension String {
    /// Two decimals without Foundation, so the core stays free of I/O-capable imports.
    init(format2 value: Double) {
        let scaled = (value * 100).rounded()
        let whole = Int64(scaled / 100)
        let cents = Int64(abs(scaled)) % 100
        let sign = (scaled < 0 && whole == 0) ? "-" : ""
        self = "\(sign)\(whole).\(cents < 10 ? "0" : "")\(cents)"
    }
}
