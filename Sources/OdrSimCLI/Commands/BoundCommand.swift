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

    @OptionGroup var input: TraceInputOptions

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
        let format = try input.traceFormat()
        let report = try output.claim(
            default: input.defaultReport("bound"),
            inputs: [input.trace])
        let files = BoundFiles(
            trace: input.trace,
            bounds: try traceBounds(
                input.trace, format: format, capacities: capacities, foo: !noFoo, fooMaxRequests: fooMaxRequests))
        try report.commit(files.files)
        say(input.json ? files.json(out: report.path) : files.text(out: report.path))
    }
}

/// The offline bounds of a trace at each capacity (``Bounds/TraceBound``), for `bound` and
/// `replay --bound`: a trace that cannot be read is one located line.
func traceBounds(
    _ trace: String, format: TraceFormat, capacities: [TraceReplayer.Capacity], foo: Bool, fooMaxRequests: Int
) throws -> [TraceBound] {
    do {
        let (objects, sizes, unique) = try TraceReplayer(path: trace, format: format).requestSequence()
        return TraceBound.compute(
            RequestSequence(objects: objects, sizes: sizes),
            capacities: capacities.map { $0.bytes(uniqueBytes: unique) },
            foo: foo, fooMaxRequests: fooMaxRequests)
    } catch { throw CommandFailure(error.description, located: true) }
}
