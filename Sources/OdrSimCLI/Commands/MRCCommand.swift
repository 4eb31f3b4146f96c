import ArgumentParser
import Foundation
import Metrics
import Reports
import SafeOutput
import TraceReplay

/// `odr-sim mrc`: the exact LRU miss-ratio curve of a trace, in one pass.
struct MRCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mrc", abstract: "The exact LRU miss-ratio curve of a trace (object and byte), in one pass.",
        discussion: """
            Computes, for every capacity at once, what `replay --policy lru` counts at each:
            stack distances with sizes (a byte-weighted Fenwick tree, O(log n) per request),
            the same counting rules (no warm-up; first requests miss; an object larger than
            the disk misses and stores nothing), so every point equals a separate replay.

            Capacities: --points N log-spaced from 0.1 % to 100 % of the trace's unique bytes
            (the sum of each object's first-seen size), or --capacity with sizes and
            percentages (1%,5%,10%,25% or 202976972,512MB). Writes DIR/mrc.csv and
            DIR/report.html (default Reports/mrc-<trace file name>/).

            --sample RATE estimates the curve from RATE of the objects (SHARDS), with each
            point's standard error in mrc.csv (docs/traces.md).

            Examples:
              odr-sim mrc Scenarios/traces/zipf-20k.csv
              odr-sim mrc Scenarios/traces/zipf-20k.csv --capacity 1%,5%,10%,25%
              odr-sim mrc big.oracleGeneral.zst --sample 0.01 --points 100
            """)

    @Argument(
        help:
            """
            The trace: a CSV with a header row naming time, obj_id, size (and optionally app), another delimited \
            text (--columns), or libCacheSim's oracleGeneral (.zst).
            """
    )
    var trace: String

    @OptionGroup(title: "Trace format")
    var traceFormat: TraceFormatOptions

    @Option(help: "Capacities log-spaced from 0.1 % to 100 % of the unique bytes (2…1000). Default: 20.")
    var points: Int?

    @Option(
        help: ArgumentHelp(
            "Capacities instead of --points: sizes or percentages, comma-separated.", valueName: "size[,size…]"))
    var capacity: String?

    @Option(
        help: ArgumentHelp(
            """
            Estimate the curve from this share of the objects (SHARDS spatial sampling, e.g. 0.01), for traces too \
            large to replay whole; reports each point's standard error.
            """,
            valueName: "rate"))
    var sample: Double?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if points != nil && capacity != nil { throw ValidationError("give --points or --capacity, not both") }
        if let points, !(2...1000).contains(points) { throw ValidationError("--points must be between 2 and 1000") }
        if let sample, !(sample > 0 && sample <= 1) {
            throw ValidationError("--sample must be a share of the objects above 0 and at most 1, such as 0.01")
        }
    }

    func run() throws {
        let capacities: [TraceReplayer.Capacity]
        if let capacity {
            capacities = try parseCapacities(capacity)
        } else {
            let n = points ?? 20
            // 0.1 % … 100 %: three decades.
            capacities = (0..<n).map { .percent(pow(10, -1 + 3 * Double($0) / Double(n - 1))) }
        }
        let format = try traceFormat.traceFormat(path: trace)
        let report = try output.claim(
            default: OutputSafety.defaultReport("mrc-" + URL(fileURLWithPath: trace).lastPathComponent), inputs: [trace]
        )
        let out = report.path
        let bar = ProgressBar(unit: "requests")
        let curve: (points: [LRUCurve.Point], uniqueBytes: Int64)
        var sampled: SampledLRUCurve?
        do {
            let lru = LRUCurve(path: trace, format: format)
            if let sample {
                let estimate = try lru.computeSampled(capacities, rate: sample) { f in
                    bar.update(fraction: f, done: 0, total: 0)
                }
                sampled = estimate
                curve = (estimate.points, estimate.estimatedUniqueBytes)
            } else {
                curve = try lru.compute(capacities) { f in bar.update(fraction: f, done: 0, total: 0) }
            }
            bar.finish()
        } catch {
            bar.finish()
            throw CommandFailure(error.description, located: true)
        }
        let header = [
            "capacity_bytes", "capacity_fraction", "requests", "misses", "bytes_requested", "bytes_missed",
            "object_miss_ratio", "byte_miss_ratio", "sample_rate", "object_miss_ratio_stderr", "byte_miss_ratio_stderr",
        ]
        let rows = curve.points.enumerated().map { j, p in
            [
                String(p.capacity),
                String(format: "%.6f", curve.uniqueBytes == 0 ? 0 : Double(p.capacity) / Double(curve.uniqueBytes)),
                String(p.requests), String(p.misses), String(p.bytesRequested), String(p.bytesMissed),
                String(format: "%.6f", p.objectMissRatio), String(format: "%.6f", p.byteMissRatio),
                sampled.map { String(format: "%.8f", $0.rate) } ?? "1",
                String(format: "%.6f", sampled?.objectMissRatioErrors[j] ?? 0),
                String(format: "%.6f", sampled?.byteMissRatioErrors[j] ?? 0),
            ]
        }
        var files = [(name: "mrc.csv", contents: CSV.row(header) + rows.map(CSV.row).joined())]
        if !output.noReport {
            let page = MissRatioReport(
                title: "LRU miss-ratio curve of \(URL(fileURLWithPath: trace).lastPathComponent)",
                lede: sampled.map {
                    "\($0.requests) requests, about \(Units.bytes(Double($0.estimatedUniqueBytes))) of unique "
                        + "objects; estimated from \(String(format: "%.3g", 100 * $0.rate)) % of the objects (SHARDS)."
                }
                    ?? """
                    \(curve.points.first?.requests ?? 0) requests, \(Units.bytes(Double(curve.uniqueBytes))) of \
                    unique objects; exact, from one pass.
                    """,
                points: curve.points.map {
                    .init(
                        policy: "lru", capacity: $0.capacity, objectMissRatio: $0.objectMissRatio,
                        byteMissRatio: $0.byteMissRatio, misses: $0.misses, bytesMissed: $0.bytesMissed)
                },
                palette: reportPalette)
            files.append((name: "report.html", contents: page.html))
        }
        try report.commit(files)
        if traceFormat.json {
            say(
                JSONSummary.object([
                    ("command", JSONSummary.string("mrc")), ("trace", JSONSummary.string(trace)),
                    ("out", JSONSummary.string(out)),
                    ("curve", JSONSummary.records(files[0].contents)),
                ]))
            return
        }
        var table = Table(["capacity", "of unique", "misses", "object miss ratio", "byte miss ratio"])
        for (p, row) in zip(curve.points, rows) {
            let plusMinus = { (r: String, e: String) in sampled == nil ? r : "\(r) ± \(e)" }
            table.add([
                row[0], String(format: "%.3g %%", 100 * Double(p.capacity) / Double(max(1, curve.uniqueBytes))),
                row[3], plusMinus(row[6], row[9]), plusMinus(row[7], row[10]),
            ])
        }
        say(table.rendered)
        if let sampled {
            say(
                "Estimated from \(sampled.sampledObjects) objects (\(String(format: "%.4g", 100 * sampled.rate)) % of "
                    + """
                    them by hash) and their \(sampled.sampledRequests) of \(sampled.requests) requests; ± is one \
                    standard error, from 8 sub-samples.
                    """
            )
        }
        say("wrote \(out)/mrc.csv" + (output.noReport ? "" : " and report.html"))
    }
}
