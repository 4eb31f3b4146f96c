import Bounds
import Metrics
import TraceReplay

/// The offline bounds of a trace (``Bounds/TraceBound``) as `bound` writes them, and each
/// replayed policy next to the bounds at its capacity (`replay --bound`). The rows keep
/// numbers; the CSV and the terminal each format them once.
public enum BoundGaps {
    /// `bounds.csv` of `odr-sim bound`.
    public static func boundsCSV(_ bounds: [TraceBound]) -> String {
        let columns = [
            "capacity_bytes", "requests", "pfoo_l_object_miss_ratio", "pfoo_l_byte_miss_ratio",
            "pfoo_l_reference_byte_miss_ratio", "foo_l_object_miss_ratio", "foo_u_object_miss_ratio", "foo_l_misses",
            "foo_u_misses",
        ]
        return CSV.row(columns)
            + bounds.map { b in
                let c = b.pfoo.counts
                let reference =
                    c.bytesRequested == 0 ? 0 : Double(b.pfoo.referenceByteMisses) / Double(c.bytesRequested)
                return CSV.row([
                    String(b.capacity), String(c.requests), CSV.decimal(c.objectMissRatio),
                    CSV.decimal(c.byteMissRatio),
                    CSV.decimal(reference), b.foo.map { CSV.decimal($0.lowerMisses / Double($0.requests)) } ?? "",
                    b.foo.map { CSV.decimal(Double($0.upperMisses) / Double($0.requests)) } ?? "",
                    b.foo.map { String(format: "%.3f", $0.lowerMisses) } ?? "",
                    b.foo.map { String($0.upperMisses) } ?? "",
                ])
            }.joined()
    }

    /// The terminal's table of `odr-sim bound`.
    public static func boundsTable(_ bounds: [TraceBound]) -> String {
        var table = Table(["capacity", "PFOO-L objects", "FOO-L objects", "FOO-U objects", "PFOO-L bytes"])
        for b in bounds {
            table.add([
                String(b.capacity), CSV.decimal(b.pfoo.counts.objectMissRatio),
                b.foo.map { CSV.decimal($0.lowerMisses / Double($0.requests)) } ?? "-",
                b.foo.map { CSV.decimal(Double($0.upperMisses) / Double($0.requests)) } ?? "-",
                CSV.decimal(b.pfoo.counts.byteMissRatio),
            ])
        }
        return table.rendered
    }

    /// One replay beside the bounds at its capacity.
    struct Row {
        let result: ReplayResult
        /// The tightest lower bound on object misses, as a ratio of requests; the optimum's
        /// upper bound (FOO-U) where computed; PFOO-L's lower bound on byte misses, as a ratio.
        let objectLower: Double, objectUpper: Double?, byteLower: Double
        /// How many more misses than the lower bound, as a share of it; nil where it is 0.
        let objectGap: Double?, byteGap: Double?

        init?(_ r: ReplayResult, _ bounds: [TraceBound]) {
            guard let b = bounds.first(where: { $0.capacity == r.capacityBytes }) else { return nil }
            let lower = b.objectLowerMisses
            let byteLower = b.pfoo.counts.bytesMissed
            result = r
            objectLower = lower / Double(max(1, r.requests))
            objectUpper = b.foo.map { Double($0.upperMisses) / Double(max(1, r.requests)) }
            self.byteLower = byteLower / Double(max(1, r.bytesRequested))
            objectGap = lower > 0 ? Double(r.misses) / lower - 1 : nil
            byteGap = byteLower > 0 ? Double(r.bytesMissed) / byteLower - 1 : nil
        }
    }

    /// `bounds.csv` of `replay --bound`.
    public static func csv(_ results: [ReplayResult], _ bounds: [TraceBound]) -> String {
        let columns = [
            "policy", "capacity_bytes", "object_miss_ratio", "byte_miss_ratio",
            "object_miss_lower_bound", "object_miss_upper_bound_of_optimum", "byte_miss_lower_bound", "object_gap",
            "byte_gap",
        ]
        return CSV.row(columns)
            + results.compactMap { Row($0, bounds) }.map { row in
                let r = row.result
                return CSV.row([
                    r.policy, String(r.capacityBytes), CSV.decimal(r.objectMissRatio), CSV.decimal(r.byteMissRatio),
                    CSV.decimal(row.objectLower), row.objectUpper.map { CSV.decimal($0) } ?? "",
                    CSV.decimal(row.byteLower), row.objectGap.map { CSV.decimal($0, places: 4) } ?? "",
                    row.byteGap.map { CSV.decimal($0, places: 4) } ?? "",
                ])
            }.joined()
    }

    /// The terminal's table of `replay --bound`: the same figures as ``csv(_:_:)``.
    public static func table(_ results: [ReplayResult], _ bounds: [TraceBound]) -> String {
        var table = Table(["policy", "capacity", "objects", "lower", "optimum ≤", "gap", "bytes", "lower", "gap"])
        for row in results.compactMap({ Row($0, bounds) }) {
            let r = row.result
            table.add([
                r.policy, String(r.capacityBytes), CSV.decimal(r.objectMissRatio), CSV.decimal(row.objectLower),
                row.objectUpper.map { CSV.decimal($0) } ?? "-", percentGap(row.objectGap), CSV.decimal(r.byteMissRatio),
                CSV.decimal(row.byteLower), percentGap(row.byteGap),
            ])
        }
        return table.rendered
    }
}
