import ArgumentParser
import Bounds
import Foundation
import Metrics
import ODRPolicies
import Quantities
import Reports
import SafeOutput
import ScenarioFile
import TraceReplay

/// `odr-sim replay`: replays a cache trace through the ODR core under one or more policies.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract:
            """
            Replay a cache trace (CSV, other delimited text, oracleGeneral) through the ODR device, once per purge \
            policy.
            """,
        discussion: """
            Every object of the trace becomes a single-resource tag (one asset pack); an
            optional 'app' column assigns objects to apps. Each line requests its object
            and ends access at once; a request for an object not on the disk is a miss,
            counted with its bytes, and the device purges by the policy to store it.
            Objects larger than the disk are misses that store nothing.

            SIZE is bytes, a size (512MB, 64MiB; MB = 10^6 bytes) or a share of the trace's
            unique bytes (10%); several, comma-separated, replay the trace once per capacity
            (--capacity 1%,5%,10%,25%; report.html then shows the miss-ratio curves). The
            format follows the name (.oracleGeneral, .zst, else CSV) or --format, --columns
            and --delimiter; --bound adds the offline bounds. Results: DIR/summary.csv
            (default Reports/replay-<trace file name>/) and a table (docs/traces.md). With
            --jobs 2 or more, one run of an oracleGeneral trace replays while the trace is
            read, on a second core; the results are the same.

            Examples:
              odr-sim replay Scenarios/traces/zipf-20k.csv --capacity 10% --policy lru
              odr-sim replay Scenarios/traces/zipf-20k.csv --capacity 1%,5%,10%,25% --policy lru --bound
              odr-sim replay w.oracleGeneral.zst --capacity 10% --policy belady
              odr-sim replay web.tr --columns time=1,id=2,size=3 --delimiter space \\
                --capacity 1GB
              odr-sim replay apps.csv --capacity 1.5GB --policy android-quota
            """)

    @OptionGroup var input: TraceInputOptions

    @Option(
        help: ArgumentHelp(
            """
            Disk capacity, e.g. 202976972, 512MB, 64MiB, 1.5GB, 10% (of the trace's unique bytes); several \
            comma-separated: 1%,5%,10%,25%.
            """,
            valueName: "size[,size…]"))
    var capacity: String

    @Flag(
        help:
            """
            Also compute the offline bounds (PFOO-L, FOO-L, FOO-U; see 'odr-sim bound') and each policy's gap to \
            them, into DIR/bounds.csv.
            """
    )
    var bound = false

    @Option(help: "With --bound: the longest trace FOO takes (PFOO-L has no limit).")
    var fooMaxRequests: Int = FOO.maximumRequests

    @OptionGroup var jobs: JobOptions

    @Option(
        name: .customLong("policy"),
        help: ArgumentHelp("A purge policy, repeatable (default: lru; see 'odr-sim policies').", valueName: "name"))
    var policies: [String] = []

    @Option(
        help: ArgumentHelp(
            """
            Leave the first N requests out of every count (the cache fills as usual); libCacheSim's --warmup-sec, \
            counted in requests.
            """,
            valueName: "n"))
    var warmup: Int?

    @Option(help: "Seed for stochastic policies such as 'random'.")
    var seed: UInt64 = 0

    @OptionGroup var output: OutputOptions

    // Problems are reported from `run` as a `CommandFailure`, one line ("odr-sim: …"),
    // rather than as validation errors, which add the usage text.
    func run() throws {
        let capacities = try parseCapacities(capacity)
        if let warmup {
            guard warmup >= 0 else {
                throw CommandFailure.usage("--warmup must be a number of requests, 0 or more, not \(warmup)")
            }
            guard !bound || warmup == 0 else {
                throw CommandFailure.usage("--warmup and --bound do not combine: the bounds are of the whole trace")
            }
        }
        let format = try input.traceFormat()
        let report = try output.claim(
            default: input.defaultReport("replay"),
            inputs: [input.trace])
        let chosen = try resolvePolicyFlags(policies.isEmpty ? ["lru"] : policies, option: "--policy")
        let results = try replay(format: format, capacities: capacities, policies: chosen)
        let bounds =
            try bound
            ? traceBounds(
                input.trace, format: format, capacities: capacities, foo: true, fooMaxRequests: fooMaxRequests)
            : nil
        let files = ReplayFiles(
            trace: input.trace, results: results, bounds: bounds, policies: chosen.count, capacities: capacities.count,
            warmupRequests: warmup ?? 0, report: !output.noReport)
        try report.commit(files.files)
        say(input.json ? files.json(out: report.path) : files.text(out: report.path))
    }

    /// Every policy at every capacity, with a progress bar; a trace that cannot be read is one
    /// located line.
    private func replay(format: TraceFormat, capacities: [TraceReplayer.Capacity], policies: [PolicyDescriptor])
        throws -> [ReplayResult]
    {
        let bar = ProgressBar(unit: "policies")
        defer { bar.finish() }
        var replayer = TraceReplayer(path: input.trace, format: format)
        replayer.warmupRequests = warmup ?? 0
        do {
            return try replayer.replay(
                capacities: capacities, policies: policies, context: PolicyContext(seed: seed), jobs: jobs.count,
                warning: { note("odr-sim: warning: \($0)") }, progress: bar.fractions(of: policies.count))
        } catch {
            // Exactly `FILE:LINE: reason`, as the scenario parser's messages are.
            throw CommandFailure(error.description, located: true)
        }
    }
}

/// `--capacity` of replay, mrc and bound (``TraceReplay/TraceReplayer/Capacity/list(_:)``).
func parseCapacities(_ text: String) throws -> [TraceReplayer.Capacity] {
    do { return try TraceReplayer.Capacity.list(text) } catch { throw CommandFailure.usage("--capacity: \(error)") }
}
