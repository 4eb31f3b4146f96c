import ArgumentParser
import Bounds
import Experiments
import Foundation
import Metrics
import Reports
import SafeOutput
import TraceReplay

/// `odr-sim bound`: how few misses any policy could have on a trace (offline bounds).
struct BoundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bound", abstract: "Offline bounds on a trace's misses: how far from optimal any policy is.",
        discussion: """
            With objects of different sizes, Belady (farthest next use) is not
            optimal. These bounds come from Berger, Beckmann and Harchol-Balter,
            "Practical Bounds on Optimal Caching with Variable Object Sizes"
            (SIGMETRICS 2018), counted as replay counts (no warm-up: first requests
            miss):

              PFOO-L  lower bounds on object and byte misses: the cheapest
                      intervals between requests that fit in capacity × requests
                      of space-time. O(n log n): millions of requests in seconds.
              FOO-L   a lower bound on object misses: the min-cost flow's value
                      (objects may be partly cached).
              FOO-U   an upper bound on the optimum's object misses: the schedule
                      that caches the intervals the flow keeps whole.

            No policy misses fewer than the lower bounds; the optimum lies between
            FOO-L and FOO-U (LEMON's network simplex, traces of up to
            --foo-max-requests requests). Writes DIR/bounds.csv (default
            Reports/bound-<trace file name>/); docs/traces.md explains every column.

            Examples:
              odr-sim bound Scenarios/traces/zipf-20k.csv --capacity 1%,5%,10%,25%
              odr-sim bound big.oracleGeneral.zst --capacity 10% --no-foo
            """)

    @Argument(help: "The trace (CSV, other delimited text with --columns, or oracleGeneral[.zst]).")
    var trace: String

    @OptionGroup(title: "Trace format")
    var traceFormat: TraceFormatOptions

    @Option(
        help: ArgumentHelp(
            "Capacities: sizes or percentages of the unique bytes, comma-separated.", valueName: "size[,size…]"))
    var capacity: String

    @Flag(help: "PFOO-L only (no min-cost flow).")
    var noFoo = false

    @Option(help: "The longest trace FOO takes. Default: \(FOO.maximumRequests).")
    var fooMaxRequests: Int = FOO.maximumRequests

    @OptionGroup var output: FolderOption

    func run() throws {
        let capacities = try parseCapacities(capacity)
        let format = try traceFormat.traceFormat(path: trace)
        let report = try output.claim(
            default: OutputSafety.defaultReport("bound-" + URL(fileURLWithPath: trace).lastPathComponent),
            inputs: [trace])
        let out = report.path
        let bounds: [TraceBound]
        do {
            bounds = try TraceBound.compute(
                trace: trace, format: format, capacities: capacities, foo: !noFoo, fooMaxRequests: fooMaxRequests)
        } catch let error as TraceError { throw CommandFailure(error.description, located: true) }
        try report.commit([(name: "bounds.csv", contents: TraceBound.csv(bounds))])
        if traceFormat.json {
            say(
                JSONSummary.object([
                    ("command", JSONSummary.string("bound")), ("trace", JSONSummary.string(trace)),
                    ("out", JSONSummary.string(out)),
                    ("bounds", JSONSummary.records(TraceBound.csv(bounds))),
                ]))
            return
        }
        var table = Table(["capacity", "PFOO-L objects", "FOO-L objects", "FOO-U objects", "PFOO-L bytes"])
        for b in bounds {
            table.add([
                String(b.capacity), CSV.decimal(b.pfoo.counts.objectMissRatio),
                b.foo.map { CSV.decimal($0.lowerMisses / Double($0.requests)) } ?? "-",
                b.foo.map { CSV.decimal(Double($0.upperMisses) / Double($0.requests)) } ?? "-",
                CSV.decimal(b.pfoo.counts.byteMissRatio),
            ])
        }
        say("Miss ratios no policy can go below (lower bounds) and the optimum's upper bound:")
        say(table.rendered)
        if let note = bounds.first?.fooNote { say(note) }
        say("wrote \(out)/bounds.csv")
    }
}

/// The bounds of a trace at one capacity, as `bound` and `replay --bound` report them.
struct TraceBound {
    var capacity: Int64
    var pfoo: PFOOL.Bound
    var foo: FOO.Bound?
    /// Why FOO is missing (too long a trace), for the terminal.
    var fooNote: String?

    static func compute(
        trace: String, format: TraceFormat, capacities: [TraceReplayer.Capacity], foo: Bool,
        fooMaxRequests: Int
    ) throws -> [TraceBound] {
        let (objects, sizes, unique) = try TraceReplayer(path: trace, format: format).requestSequence()
        let sequence = RequestSequence(objects: objects, sizes: sizes)
        let pfool = PFOOL(sequence)
        var note: String?
        var result: [TraceBound] = []
        for capacity in capacities.map({ $0.bytes(uniqueBytes: unique) }) {
            var flow: FOO.Bound?
            if foo && note == nil {
                do { flow = try FOO.bound(sequence, capacity: capacity, maximumRequests: fooMaxRequests) } catch {
                    note = "\(error)"
                }
            }
            result.append(
                TraceBound(capacity: capacity, pfoo: pfool.bound(capacity: capacity), foo: flow, fooNote: note))
        }
        return result
    }

    static let columns = [
        "capacity_bytes", "requests", "pfoo_l_object_miss_ratio", "pfoo_l_byte_miss_ratio",
        "pfoo_l_reference_byte_miss_ratio", "foo_l_object_miss_ratio", "foo_u_object_miss_ratio", "foo_l_misses",
        "foo_u_misses",
    ]

    var fields: [String] {
        let c = pfoo.counts
        return [
            String(capacity), String(c.requests), CSV.decimal(c.objectMissRatio), CSV.decimal(c.byteMissRatio),
            CSV.decimal(c.bytesRequested == 0 ? 0 : Double(pfoo.referenceByteMisses) / Double(c.bytesRequested)),
            foo.map { CSV.decimal($0.lowerMisses / Double($0.requests)) } ?? "",
            foo.map { CSV.decimal(Double($0.upperMisses) / Double($0.requests)) } ?? "",
            foo.map { String(format: "%.3f", $0.lowerMisses) } ?? "", foo.map { String($0.upperMisses) } ?? "",
        ]
    }

    static func csv(_ bounds: [TraceBound]) -> String { CSV.row(columns) + bounds.map { CSV.row($0.fields) }.joined() }
}

/// Each replayed policy next to the bounds at its capacity (`replay --bound`).
enum BoundGaps {
    static let columns = [
        "policy", "capacity_bytes", "object_miss_ratio", "byte_miss_ratio",
        "object_miss_lower_bound", "object_miss_upper_bound_of_optimum", "byte_miss_lower_bound", "object_gap",
        "byte_gap",
    ]

    /// The tightest lower bound on object misses: FOO-L where it was computed, else PFOO-L.
    static func objectLower(_ b: TraceBound) -> Double { b.foo?.lowerMisses ?? b.pfoo.counts.misses }

    static func rows(_ results: [ReplayResult], _ bounds: [TraceBound]) -> [[String]] {
        results.compactMap { r in
            guard let b = bounds.first(where: { $0.capacity == r.capacityBytes }) else { return nil }
            let lower = objectLower(b)
            let byteLower = b.pfoo.counts.bytesMissed
            let gap = { (value: Double, bound: Double) in bound > 0 ? CSV.decimal(value / bound - 1, places: 4) : "" }
            return [
                r.policy, String(r.capacityBytes), CSV.decimal(r.objectMissRatio), CSV.decimal(r.byteMissRatio),
                CSV.decimal(lower / Double(max(1, r.requests))),
                b.foo.map { CSV.decimal(Double($0.upperMisses) / Double(max(1, r.requests))) } ?? "",
                CSV.decimal(byteLower / Double(max(1, r.bytesRequested))), gap(Double(r.misses), lower),
                gap(Double(r.bytesMissed), byteLower),
            ]
        }
    }

    static func csv(_ results: [ReplayResult], _ bounds: [TraceBound]) -> String {
        CSV.row(columns) + rows(results, bounds).map(CSV.row).joined()
    }

    static func table(_ results: [ReplayResult], _ bounds: [TraceBound]) -> String {
        var table = Table(["policy", "capacity", "objects", "lower", "optimum ≤", "gap", "bytes", "lower", "gap"])
        for row in rows(results, bounds) {
            table.add([
                row[0], row[1], row[2], row[4], row[5].isEmpty ? "-" : row[5], percentGap(row[7]), row[3], row[6],
                percentGap(row[8]),
            ])
        }
        return table.rendered
    }
}

/// Each run's re-downloaded bytes next to its ``RedownloadBound`` (`compare --bound`).
enum RedownloadGaps {
    static let columns = ["policy", "replication", "redownload_bytes", "redownload_bound_bytes", "gap"]

    static func gap(_ bytes: Double, _ bound: Double) -> String {
        bound > 0 ? CSV.decimal(bytes / bound - 1, places: 4) : ""
    }

    static func csv(_ results: [ExperimentRunner.RunResult]) -> String {
        CSV.row(columns)
            + results.map { r in
                let bound = r.redownloadBound ?? 0
                return CSV.row([
                    r.summary.policy, String(r.summary.replication), String(Int64(r.summary[.redownloadBytes])),
                    String(bound),
                    gap(Double(Int64(r.summary[.redownloadBytes])), Double(bound)),
                ])
            }.joined()
    }

    /// Per policy run, its mean re-downloaded bytes and mean bound (the reports' section).
    static func means(_ results: [ExperimentRunner.RunResult], policies: [String]) -> [(
        policy: String, redownloaded: Double, bound: Double
    )] {
        policies.compactMap { policy in
            let runs = results.filter { $0.summary.policy == policy }
            guard !runs.isEmpty else { return nil }
            let bytes = runs.map { $0.summary[.redownloadBytes] }.reduce(0, +) / Double(runs.count)
            let bound = runs.map { Double($0.redownloadBound ?? 0) }.reduce(0, +) / Double(runs.count)
            return (policy, bytes, bound)
        }
    }

    static func table(_ results: [ExperimentRunner.RunResult], policies: [String]) -> String {
        var table = Table(["policy", "re-downloaded", "bound", "gap"])
        for (policy, bytes, bound) in means(results, policies: policies) {
            let g = gap(bytes, bound)
            table.add([policy, Units.bytes(bytes), Units.bytes(bound), percentGap(g)])
        }
        return table.rendered
    }
}

/// A gap column's value (`0.3674`) as the terminal shows it (`+36.7 %`), or "-" without one.
func percentGap(_ gap: String) -> String { Double(gap).map { String(format: "%+.1f %%", 100 * $0) } ?? "-" }
