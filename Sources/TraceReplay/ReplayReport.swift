import Foundation

/// Replay results as a CSV (`summary.csv`) and as an aligned terminal table.
public enum ReplayReport {
    /// The CSV columns, in order.
    public static let columns = [
        "policy", "capacity_bytes", "requests", "misses", "bytes_requested", "bytes_missed",
        "object_miss_ratio", "byte_miss_ratio", "purges", "purged_bytes", "over_purge_bytes",
    ]

    /// One row of fields per result, ratios with exactly six decimals.
    public static func rows(_ results: [ReplayResult]) -> [[String]] {
        results.map { r in
            [
                r.policy, String(r.capacityBytes), String(r.requests), String(r.misses),
                String(r.bytesRequested), String(r.bytesMissed), ratio(r.objectMissRatio),
                ratio(r.byteMissRatio), String(r.purges), String(r.purgedBytes), String(r.overPurgeBytes),
            ]
        }
    }

    static func ratio(_ value: Double) -> String { String(format: "%.6f", value) }

    /// RFC 4180 CSV with a header row; fields holding a comma, quote or line break are quoted.
    /// Records end with `\n` (RFC 4180 allows implementations to read either line end; this
    /// matches the reference results file).
    public static func csv(_ results: [ReplayResult]) -> String {
        ([columns] + rows(results)).map { $0.map(quote).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The results as an aligned table: text left-aligned, numbers right-aligned.
    public static func table(_ results: [ReplayResult]) -> String {
        let all = [columns] + rows(results)
        let widths = columns.indices.map { c in all.map { $0[c].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - row[c].count)
                return c == 0 ? row[c] + pad : pad + row[c]
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
