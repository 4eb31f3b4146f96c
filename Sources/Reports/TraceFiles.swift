import Bounds
import Foundation
import Metrics
import TraceReplay

/// What `odr-sim replay` writes and says: `summary.csv`, with `--bound` `bounds.csv`, and
/// `report.html` (the miss-ratio curves); the JSON and the terminal read the same rows.
public struct ReplayFiles {
    public let trace: String
    public let results: [ReplayResult]
    /// With `--bound`: the bounds at each capacity.
    public let bounds: [TraceBound]?
    public let warmupRequests: Int
    public private(set) var files: [(name: String, contents: String)] = []

    public init(
        trace: String, results: [ReplayResult], bounds: [TraceBound]?, policies: Int, capacities: Int,
        warmupRequests: Int, report: Bool
    ) {
        (self.trace, self.results, self.bounds, self.warmupRequests) = (trace, results, bounds, warmupRequests)
        files = [("summary.csv", ReplayReport.csv(results))]
        if let bounds { files.append(("bounds.csv", BoundGaps.csv(results, bounds))) }
        guard report else { return }
        let page = MissRatioReport(
            title: "Replay of \(URL(fileURLWithPath: trace).lastPathComponent)",
            lede: "\(results.first?.requests ?? 0) requests under \(policies) polic\(policies == 1 ? "y" : "ies") at "
                + "\(capacities) capacit\(capacities == 1 ? "y" : "ies").",
            points: results.map {
                .init(
                    policy: $0.policy, capacity: $0.capacityBytes, objectMissRatio: $0.objectMissRatio,
                    byteMissRatio: $0.byteMissRatio, misses: $0.misses, bytesMissed: $0.bytesMissed)
            },
            palette: reportPalette)
        files.append(("report.html", page.html))
    }

    public func json(out: String) -> String {
        var pairs: [(String, String)] = [
            ("command", JSONText.string("replay")), ("trace", JSONText.string(trace)), ("out", JSONText.string(out)),
            ("warmup_requests", String(warmupRequests)), ("summary", JSONText.records(files[0].contents)),
        ]
        if bounds != nil { pairs.append(("bounds", JSONText.records(files[1].contents))) }
        return JSONText.object(pairs)
    }

    public func text(out: String) -> String {
        var text = ReplayReport.table(results)
        if let bounds {
            text += """
                \nAgainst the offline bounds (the optimum lies between FOO-L and FOO-U; gap: how many more misses \
                than the lower bound):\n
                """
            text += BoundGaps.table(results, bounds) + "\n"
            if let note = bounds.first?.fooNote { text += note + "; gaps are to PFOO-L\n" }
        }
        let written = files.map(\.name).filter { $0 != "report.html" }.joined(separator: ", ")
        return text + "wrote \(out)/\(written)" + (files.last?.name == "report.html" ? " and report.html" : "")
    }
}

/// What `odr-sim bound` writes and says: `bounds.csv`.
public struct BoundFiles {
    public let trace: String
    public let bounds: [TraceBound]
    public var files: [(name: String, contents: String)] { [("bounds.csv", BoundGaps.boundsCSV(bounds))] }

    public init(trace: String, bounds: [TraceBound]) { (self.trace, self.bounds) = (trace, bounds) }

    public func json(out: String) -> String {
        JSONText.object([
            ("command", JSONText.string("bound")), ("trace", JSONText.string(trace)), ("out", JSONText.string(out)),
            ("bounds", JSONText.records(files[0].contents)),
        ])
    }

    public func text(out: String) -> String {
        var lines = ["Miss ratios no policy can go below (lower bounds) and the optimum's upper bound:"]
        lines.append(BoundGaps.boundsTable(bounds))
        if let note = bounds.first?.fooNote { lines.append(note) }
        return (lines + ["wrote \(out)/bounds.csv"]).joined(separator: "\n")
    }
}

/// What `odr-sim mrc` writes and says: `mrc.csv` (exact, or SHARDS-sampled with standard
/// errors) and `report.html`.
public struct CurveFiles {
    public let trace: String
    public let points: [LRUCurve.Point]
    public let uniqueBytes: Int64
    public let sampled: SampledLRUCurve?
    public private(set) var files: [(name: String, contents: String)] = []
    /// The CSV's rows, as written: the terminal reads its figures from them.
    private let rows: [[String]]

    public init(trace: String, points: [LRUCurve.Point], uniqueBytes: Int64, sampled: SampledLRUCurve?, report: Bool) {
        (self.trace, self.points, self.uniqueBytes, self.sampled) = (trace, points, uniqueBytes, sampled)
        let header = [
            "capacity_bytes", "capacity_fraction", "requests", "misses", "bytes_requested", "bytes_missed",
            "object_miss_ratio", "byte_miss_ratio", "sample_rate", "object_miss_ratio_stderr", "byte_miss_ratio_stderr",
        ]
        let rows = points.enumerated().map { j, p in
            [
                String(p.capacity),
                String(format: "%.6f", uniqueBytes == 0 ? 0 : Double(p.capacity) / Double(uniqueBytes)),
                String(p.requests), String(p.misses), String(p.bytesRequested), String(p.bytesMissed),
                String(format: "%.6f", p.objectMissRatio), String(format: "%.6f", p.byteMissRatio),
                sampled.map { String(format: "%.8f", $0.rate) } ?? "1",
                String(format: "%.6f", sampled?.objectMissRatioErrors[j] ?? 0),
                String(format: "%.6f", sampled?.byteMissRatioErrors[j] ?? 0),
            ]
        }
        self.rows = rows
        files = [("mrc.csv", CSV.row(header) + rows.map(CSV.row).joined())]
        guard report else { return }
        let lede =
            sampled.map {
                "\($0.requests) requests, about \(Units.bytes(Double($0.estimatedUniqueBytes))) of unique "
                    + "objects; estimated from \(String(format: "%.3g", 100 * $0.rate)) % of the objects (SHARDS)."
            }
                ?? """
                \(points.first?.requests ?? 0) requests, \(Units.bytes(Double(uniqueBytes))) of \
                unique objects; exact, from one pass.
                """
        let page = MissRatioReport(
            title: "LRU miss-ratio curve of \(URL(fileURLWithPath: trace).lastPathComponent)", lede: lede,
            points: points.map {
                .init(
                    policy: "lru", capacity: $0.capacity, objectMissRatio: $0.objectMissRatio,
                    byteMissRatio: $0.byteMissRatio, misses: $0.misses, bytesMissed: $0.bytesMissed)
            },
            palette: reportPalette)
        files.append(("report.html", page.html))
    }

    public func json(out: String) -> String {
        JSONText.object([
            ("command", JSONText.string("mrc")), ("trace", JSONText.string(trace)), ("out", JSONText.string(out)),
            ("curve", JSONText.records(files[0].contents)),
        ])
    }

    public func text(out: String) -> String {
        var table = Table(["capacity", "of unique", "misses", "object miss ratio", "byte miss ratio"])
        for (p, row) in zip(points, rows) {
            let plusMinus = { (r: String, e: String) in sampled == nil ? r : "\(r) ± \(e)" }
            table.add([
                row[0], String(format: "%.3g %%", 100 * Double(p.capacity) / Double(max(1, uniqueBytes))),
                row[3], plusMinus(row[6], row[9]), plusMinus(row[7], row[10]),
            ])
        }
        var lines = [table.rendered]
        if let sampled {
            lines.append(
                "Estimated from \(sampled.sampledObjects) objects (\(String(format: "%.4g", 100 * sampled.rate)) % of "
                    + """
                    them by hash) and their \(sampled.sampledRequests) of \(sampled.requests) requests; ± is one \
                    standard error, from 8 sub-samples.
                    """)
        }
        let report = files.count > 1 ? " and report.html" : ""
        return (lines + ["wrote \(out)/mrc.csv" + report]).joined(separator: "\n")
    }
}
