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

    @OptionGroup var input: TraceInputOptions

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
        // 0.1 % … 100 %: three decades.
        let n = points ?? 20
        let capacities: [TraceReplayer.Capacity] =
            try capacity.map(parseCapacities) ?? (0..<n).map { .percent(pow(10, -1 + 3 * Double($0) / Double(n - 1))) }
        let format = try input.traceFormat()
        let report = try output.claim(
            default: input.defaultReport("mrc"), inputs: [input.trace]
        )
        let bar = ProgressBar(unit: "requests")
        defer { bar.finish() }
        let files: CurveFiles
        do {
            let lru = LRUCurve(path: input.trace, format: format)
            let progress = { (f: Double) in bar.update(fraction: f, done: 0, total: 0) }
            let sampled = try sample.map { try lru.computeSampled(capacities, rate: $0, progress: progress) }
            let curve =
                try sampled.map { ($0.points, $0.estimatedUniqueBytes) } ?? lru.compute(capacities, progress: progress)
            files = CurveFiles(
                trace: input.trace, points: curve.0, uniqueBytes: curve.1, sampled: sampled,
                report: !output.noReport)
        } catch { throw CommandFailure("\(error)", located: true) }
        bar.finish()
        try report.commit(files.files)
        say(input.json ? files.json(out: report.path) : files.text(out: report.path))
    }
}
