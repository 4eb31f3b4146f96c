import ArgumentParser
import Foundation
import Experiments
import Metrics
import Reports
import ODRPolicies
import Simulation

/// `odr-sim compare`: replicated runs of every policy, ranked with confidence intervals.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Rank purge policies over replicated workloads, with 95 % confidence intervals.",
        discussion: """
        Runs each policy on the same N seeded workloads (common random numbers), ranks them \
        from best to worst by mean re-download bytes, and shows each mean with its 95 % \
        Student-t interval and the paired difference to apple. Writes summary.csv (a row per \
        policy and replication), comparison.csv (a row per policy) and comparison-long.csv \
        (the same numbers, one per row: policy, baseline, metric, unit, statistic, value) to \
        DIR (default Reports/<name>-compare/). Policies default to every registered one.

        Examples:
          odr-sim compare scenarios/game.scn --replications 30
          odr-sim compare scenarios/photo-filters.scn --policy apple --policy lru --policy gdsf --jobs 2
          odr-sim compare scenarios/game.scn --policy lru --policy lfu --baseline lru --warmup 1d
          odr-sim compare scenarios/game.scn --format json --no-report
        """)

    @OptionGroup var options: ScenarioRunOptions

    @OptionGroup var warmup: WarmupOption

    @OptionGroup var printing: FormatOption

    @OptionGroup var output: OutputOptions


    @Flag(help: "Also bound each run's re-downloaded bytes from below (what no purge order could avoid, given its grants) and write DIR/bounds.csv with each policy's gap to it.")
    var bound = false

    func run() throws {
        let document = try loadScenario(options.file)
        let scenario = document.scenario
        let platformMetrics = Metric.hasPlatformMetrics(scenario)
        let policies = options.policies.isEmpty ? PolicyRegistry.names : try resolvePolicies(options.policies, scenario: document)
        let baseline = try resolveBaseline(options.baseline, policies: policies)
        var runner = experimentRunner(document, policies: policies, replications: options.replications,
                                      sampleInterval: 0, recordsEvents: false, jobs: options.jobCount)
        runner.maxEvents = options.limits.maxEvents
        runner.computesRedownloadBound = bound
        runner.warmup = try warmup.seconds(shortestRun: scenario.duration, bound: bound)
        try checkWorkload(scenario, file: options.file, maxEvents: runner.maxEvents)
        let report = try output.claim(default: OutputSafety.defaultReport(document.name, suffix: "-compare"),
                                                   inputs: [options.file])
        let destination = report.path
        let started = Date()
        let results = try runWithProgress(runner, locations: document.eventLocations)
        let elapsed = Date().timeIntervalSince(started)
        let rows = results.map(\.summary)
        let comparison = Comparison(rows: rows, reference: baseline.name)
        let headline = verdictLines(comparison)
        do {
            var files = [
                ("summary.csv", SummaryRow.header(platformMetrics: platformMetrics)
                    + rows.map { $0.csvLine(platformMetrics: platformMetrics) }.joined()),
                ("comparison.csv", comparison.csv),
                ("comparison-long.csv", comparison.longCSV),
            ]
            if bound { files.append(("bounds.csv", RedownloadGaps.csv(results))) }
            if !output.noReport {
                var page = CompareReport(
                    title: "\(document.name): \(policies.count) policies × \(runner.replications) replications",
                    lede: document.description.isEmpty ? "odr-sim compare of \(options.file)" : document.description,
                    facts: storyFacts(scenario), comparison: comparison, palette: reportPalette)
                page.headline = headline
                if bound { page.bounds = RedownloadGaps.means(results, policies: policies) }
                files.append(("report.html", page.html))
            }
            try report.commit(files)
            if printing.json {
                func csv(_ name: String) -> String { JSONSummary.records(files.first { $0.0 == name }?.1 ?? "") }
                var pairs = JSONSummary.head("compare", document, file: options.file, out: destination, policies: policies,
                                             runner: runner, baseline: baseline.name)
                pairs += [
                    ("verdict", JSONSummary.array(headline.map(JSONSummary.string))),
                    ("identical", JSONSummary.array(identicalMetricColumns(rows).map(JSONSummary.string))),
                    ("comparison", csv("comparison.csv")),
                ]
                if bound { pairs.append(("bounds", csv("bounds.csv"))) }
                say(JSONSummary.object(pairs))
                return
            }
        }
        say("Verdict against \(baseline.name) (\(runner.replications) replications, paired):")
        for line in headline { say("  " + line) }
        say("")
        say(rankedTable(comparison))
        if runner.warmup > 0 { say("(metrics from \(humanDuration(runner.warmup)) on: --warmup left the start out)") }
        if let line = identicalMetrics(rows) { note("odr-sim: note: \(line)") }
        if let note = baseline.note { say(note) }
        if bound {
            say("\nRe-downloaded bytes against the fewest any purge order could have (means over replications):")
            say(RedownloadGaps.table(results, policies: policies))
        }
        say(String(format: "\n%@: %d policies × %d replications in %.2f s; reports in %@/",
                     document.name, policies.count, runner.replications, elapsed, destination))
    }
}

/// One line naming the main metrics that came out the same under every policy in every
/// replication (nothing to choose by), with why for low-disk warnings; nil if none did or
/// only one policy ran.
func identicalMetrics(_ rows: [SummaryRow]) -> String? {
    let same = identicalMetrics(of: rows)
    guard !same.isEmpty else { return nil }
    var line = "identical under every policy in every replication: " + same.map(\.column).joined(separator: ", ")
    if same.contains(.lowDiskNotifications) {
        line += " (a low-disk warning is posted only when purging every candidate would not free enough, so the purge order rarely moves it)"
    }
    return line
}

/// The main metrics that came out the same under every policy in every replication (none
/// when only one policy ran).
func identicalMetrics(of rows: [SummaryRow]) -> [Metric] {
    guard Set(rows.map(\.policy)).count > 1 else { return [] }
    let metrics: [Metric] = [.redownloadBytes, .overPurgeBytes, .lowDiskNotifications, .failedRequests, .waitP95]
    let byReplication = Dictionary(grouping: rows, by: \.replication)
    return metrics.filter { metric in
        byReplication.values.allSatisfy { runs in Set(runs.map { $0[metric] }).count == 1 }
    }
}

func identicalMetricColumns(_ rows: [SummaryRow]) -> [String] { identicalMetrics(of: rows).map(\.column) }

/// Policies best to worst by mean re-download bytes (ties: over-purge, then name).
func rankedTable(_ comparison: Comparison) -> String {
    let redownload = Metric.redownloadBytes.position, overPurge = Metric.overPurgeBytes.position
    let ranked = comparison.policies.sorted {
        ($0.metrics[redownload].mean, $0.metrics[overPurge].mean, $0.policy)
            < ($1.metrics[redownload].mean, $1.metrics[overPurge].mean, $1.policy)
    }
    var table = Table(["rank", "policy", "re-downloaded (95% CI)", "vs \(comparison.reference)", "over-purge",
                       "low-disk", "failed", "wait p95"])
    let waits = secondsColumn(ranked.map { $0.metrics[Metric.waitP95.position].mean })
    for (rank, p) in ranked.enumerated() {
        let r = p.metrics[redownload]
        // Bytes are never negative: the interval is shown clipped at 0, not as mean ± half-width.
        let diff = p.differences.map { d in
            let x = d[redownload]
            return "\(signedBytes(x.mean)) ±\(humanBytes(x.halfWidth))"
        } ?? "—"
        table.add([
            "\(rank + 1)", p.policy, "\(humanBytes(r.mean)) (\(humanBytes(max(0, r.low)))–\(humanBytes(r.high)))", diff,
            humanBytes(p.metrics[overPurge].mean),
            String(format: "%.1f", p.metrics[Metric.lowDiskNotifications.position].mean),
            String(format: "%.1f", p.metrics[Metric.failedRequests.position].mean),
            waits[rank],
        ])
    }
    return table.rendered
}

private func signedBytes(_ x: Double) -> String { x >= 0 ? "+" + humanBytes(x) : "-" + humanBytes(-x) }
