/// The number behind a study axis's labels, for a numeric column beside them, so that a
/// script sorts and plots an axis without parsing `15MB` itself.
///
/// Every label of the axis must read as the same kind of quantity; the first kind that reads
/// them all names the column:
///
/// | labels | column | value |
/// |---|---|---|
/// | `40Mbps`, `1Gbps` | `NAME_bps` | bits per second |
/// | `8MB`, `1.5GiB` | `NAME_bytes` | bytes |
/// | `90s`, `2m`, `1d8h` | `NAME_s` | seconds |
/// | `24/d`, `1/w` | `NAME_per_s` | events per second |
/// | `25%` | `NAME_fraction` | 0.25 |
///
/// Labels that are all plain numbers already are the numeric column, and names (`lru`,
/// `ios18`) have none: both give nil.
public enum AxisQuantity {
    /// The column's suffix and each label's number, or nil.
    public static func numbers(of labels: [String]) -> (suffix: String, values: [Double])? {
        guard !labels.isEmpty, !labels.allSatisfy({ Double($0) != nil }) else { return nil }
        let kinds: [(suffix: String, read: (String) -> Double?)] = [
            ("_bps", { try? BandwidthSyntax.parse($0) }),
            ("_bytes", { (try? SizeSyntax.parseSigned($0)).map(Double.init) }),
            ("_s", { try? DurationSyntax.parse($0) }),
            ("_per_s", rate),
            ("_fraction", fraction),
        ]
        for kind in kinds {
            let values = labels.compactMap(kind.read)
            if values.count == labels.count { return (kind.suffix, values) }
        }
        return nil
    }

    /// `24/d` → 24 / 86,400.
    static func rate(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let units: [Substring: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard parts.count == 2, let count = Double(parts[0].trimmingBlanks()),
            let unit = units[parts[1].trimmingBlanks()]
        else { return nil }
        return count / unit
    }

    /// `25%` → 0.25.
    static func fraction(_ text: String) -> Double? {
        guard text.hasSuffix("%"), let percent = Double(text.dropLast().trimmingBlanks()) else { return nil }
        return percent / 100
    }
}
