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
            (default Reports/replay-<trace file name>/) and a table (docs/traces.md).

            Examples:
              odr-sim replay Scenarios/traces/zipf-20k.csv --capacity 10% --policy lru
              odr-sim replay Scenarios/traces/zipf-20k.csv --capacity 1%,5%,10%,25% --policy lru --bound
              odr-sim replay w.oracleGeneral.zst --capacity 10% --policy belady
              odr-sim replay web.tr --columns time=1,id=2,size=3 --delimiter space \\
                --capacity 1GB
              odr-sim replay apps.csv --capacity 1.5GB --policy android-quota
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
        let format = try traceFormat.traceFormat(path: trace)
        let report = try output.claim(
            default: OutputSafety.defaultReport("replay-" + URL(fileURLWithPath: trace).lastPathComponent),
            inputs: [trace])
        let out = report.path
        let chosen = try resolvePolicyFlags(policies.isEmpty ? ["lru"] : policies, option: "--policy")
        let results: [ReplayResult]
        let bar = ProgressBar(unit: "policies")
        do {
            var progress: ((Double) -> Void)?
            if bar.enabled {
                let count = chosen.count
                progress = { (f: Double) in bar.update(fraction: f, done: Int(f * Double(count)), total: count) }
            }
            var replayer = TraceReplayer(path: trace, format: format)
            replayer.warmupRequests = warmup ?? 0
            results = try replayer.replay(
                capacities: capacities, policies: chosen, context: PolicyContext(seed: seed), jobs: jobs.count,
                warning: { note("odr-sim: warning: \($0)") }, progress: progress)
            bar.finish()
        } catch {
            bar.finish()
            // Exactly `FILE:LINE: reason`, as the scenario parser's messages are.
            throw CommandFailure(error.description, located: true)
        }
        var bounds: [TraceBound] = []
        if bound {
            do {
                bounds = try TraceBound.compute(
                    trace: trace, format: format, capacities: capacities, foo: true, fooMaxRequests: fooMaxRequests)
            } catch let error as TraceError { throw CommandFailure(error.description, located: true) }
        }
        do {
            var files = [(name: "summary.csv", contents: ReplayReport.csv(results))]
            if bound { files.append((name: "bounds.csv", contents: BoundGaps.csv(results, bounds))) }
            if !output.noReport {
                let page = MissRatioReport(
                    title: "Replay of \(URL(fileURLWithPath: trace).lastPathComponent)",
                    lede:
                        "\(results.first?.requests ?? 0) requests under \(chosen.count) "
                        + "polic\(chosen.count == 1 ? "y" : "ies") at \(capacities.count) "
                        + "capacit\(capacities.count == 1 ? "y" : "ies").",
                    points: results.map {
                        .init(
                            policy: $0.policy, capacity: $0.capacityBytes, objectMissRatio: $0.objectMissRatio,
                            byteMissRatio: $0.byteMissRatio, misses: $0.misses, bytesMissed: $0.bytesMissed)
                    },
                    palette: reportPalette)
                files.append((name: "report.html", contents: page.html))
            }
            try report.commit(files)
            if traceFormat.json {
                var pairs: [(String, String)] = [
                    ("command", JSONSummary.string("replay")), ("trace", JSONSummary.string(trace)),
                    ("out", JSONSummary.string(out)),
                    ("warmup_requests", String(warmup ?? 0)), ("summary", JSONSummary.records(files[0].contents)),
                ]
                if bound { pairs.append(("bounds", JSONSummary.records(files[1].contents))) }
                say(JSONSummary.object(pairs))
                return
            }
        }
        say(ReplayReport.table(results), terminator: "")
        if bound {
            say(
                """
                \nAgainst the offline bounds (the optimum lies between FOO-L and FOO-U; gap: how many more misses \
                than the lower bound):
                """
            )
            say(BoundGaps.table(results, bounds))
            if let note = bounds.first?.fooNote { say(note + "; gaps are to PFOO-L") }
        }
        say("wrote \(out)/summary.csv" + (bound ? ", bounds.csv" : "") + (output.noReport ? "" : " and report.html"))
    }
}

/// `--capacity` of replay and mrc: sizes and percentages of the trace's unique bytes,
/// comma-separated, each once.
func parseCapacities(_ text: String) throws -> [TraceReplayer.Capacity] {
    var capacities: [TraceReplayer.Capacity] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false).map({
        $0.trimmingCharacters(in: .whitespaces)
    }) {
        if item.hasSuffix("%") {
            guard let percent = Double(item.dropLast()), percent.isFinite, percent > 0 else {
                throw CommandFailure.usage("--capacity: '\(item)' is not a positive percentage such as 10%")
            }
            capacities.append(.percent(percent))
            continue
        }
        do { capacities.append(.bytes(try SizeSyntax.parse(item))) } catch {
            throw CommandFailure.usage("--capacity: \(error)")
        }
    }
    guard Set(capacities).count == capacities.count else {
        throw CommandFailure.usage("--capacity: '\(text)' lists a capacity twice")
    }
    return capacities
}
