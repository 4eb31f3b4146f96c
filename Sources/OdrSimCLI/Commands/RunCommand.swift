import ArgumentParser
import Experiments
import Foundation
import Metrics
import Quantities
import Reports
import SafeOutput
import ScenarioFile
import Simulation

/// `odr-sim run`: simulate a scenario under each policy and write the CSV reports.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Simulate a scenario under each purge policy and write CSV reports.",
        discussion: """
            Every policy runs on the same workload. Reports go to DIR (default Reports/<name>/), \
            replaced only when the run has succeeded:
              summary.csv      one row per policy (and replication): requests, hits, bytes \
            downloaded and re-downloaded, purges, over-purge, low-disk warnings, failures, waits
              apps.csv         the same per app, for what belongs to one (not episodes, the disk)
              events.csv       one row per thing that happened, with time and policy
              timeseries.csv   disk used, ODR bytes, bytes in use and downloading, sampled
              comparison.csv   with --replications > 1: mean, sd, 95 % interval per metric
              comparison-long.csv  the same numbers, one per row (policy, baseline, metric,
                               unit, statistic, value)

            Examples:
              odr-sim run scenarios/game.scn
              odr-sim run scenarios/game.scn --policy lru --policy best-fit --policy belady
              odr-sim run scenarios/game.scn --sample 10m --out /tmp/game
              odr-sim run scenarios/odyssey-telemetry.scn
            """)

    @OptionGroup var options: ScenarioRunOptions

    @OptionGroup var warmup: WarmupOption

    @OptionGroup var printing: FormatOption

    @OptionGroup var output: OutputOptions

    @Option(help: "Time-series sampling interval (e.g. 1m, 30s, 1h). Default: about 500 samples per run.")
    var sample: String?

    @Flag(help: "Skip events.csv (faster on long runs).")
    var noEvents = false

    @Option(
        help: ArgumentHelp(
            """
            Most rows events.csv may get, estimated from the workload before the runs (about 170 bytes a row): \
            beyond it the run is refused up front. Raise it, or use --no-events. Default: 10000000 (about 1.7 \
            GB).
            """,
            valueName: "n"))
    var maxEventRows: Int = RunCommand.defaultMaxEventRows

    /// About 1.7 GB of events.csv: a long telemetry replay under several policies would
    /// otherwise write many gigabytes nobody asked for.
    static let defaultMaxEventRows = 10_000_000

    func validate() throws { if maxEventRows < 1 { throw ValidationError("--max-event-rows must be at least 1") } }

    @Flag(
        help:
            """
            Also bound each run's re-downloaded bytes from below (what no purge order could avoid, given its grants) \
            and write DIR/bounds.csv with each policy's gap to it.
            """
    )
    var bound = false

    func run() throws {
        if warmup.isAuto {
            throw CommandFailure.usage(
                "--warmup auto: compare chooses a warm-up (MSER-5); give this command a duration such as 1d")
        }
        let document = try loadScenario(options.file)
        let scenario = document.scenario
        // Background Assets and Play add their columns (blocked launches); ODR's keep their shape.
        let platformMetrics = Metric.hasPlatformMetrics(scenario)
        let descriptors = try resolvePolicies(options.policies, scenario: document)
        let policies = descriptors.map(\.name)
        let baseline = try resolveBaseline(
            options.baseline, policies: policies, strategies: ExperimentPlan.Point(document).policiesAreStrategies)
        var interval: Double?
        if let sample {
            do throws(SampleInterval.Problem) {
                interval = try SampleInterval.parse(sample, duration: scenario.duration)
            } catch .notPositive {
                throw CommandFailure.usage("--sample: '\(sample)' is not a positive duration (try 30s, 1m, 1h)")
            } catch .tooMany(let samples) {
                throw CommandFailure.usage(
                    """
                    --sample: '\(sample)' takes \(SampleInterval.describe(samples)) samples over \
                    \(humanDuration(scenario.duration)); at most \(ModelLimits.samples) per run
                    """
                )
            }
        }
        // --precision: replications doubled on the same seeds, without events, until the intervals are tight; then the
        // run itself at that count.
        var options = options
        var missed: [Precision.Miss] = []
        if let precision = try options.targetPrecision() {
            var pass = try runPlan(
                document, options, policies: descriptors, warmup: warmup, bound: false, sampleInterval: 0,
                recordsEvents: false)
            var passResults = try runWithProgress(pass, locations: document.eventLocations)
            missed = try replicate(
                to: precision, document, options, policies: descriptors, warmup: warmup, bound: false,
                reference: baseline.name, runner: &pass, results: &passResults)
            options.replications = pass.replications
        }
        var runner = try runPlan(
            document, options, policies: descriptors, warmup: warmup, bound: bound,
            sampleInterval: interval, recordsEvents: !noEvents)
        // events.csv gets about a row per kernel event of every run.
        let eventRows = scenario.expectedEvents * Double(policies.count * runner.replications)
        if !noEvents && eventRows > Double(maxEventRows) {
            throw CommandFailure(
                """
                \(options.file): events.csv would get about \(scientific(eventRows)) rows (about \
                \(humanBytes(eventRows * 170))), beyond --max-event-rows \(maxEventRows); run with \
                --no-events, or raise --max-event-rows
                """
            )
        }
        let report = try output.claim(default: OutputSafety.defaultReport(document.name), inputs: [options.file])
        let destination = report.path
        // events.csv can outgrow memory on long runs: each run streams its rows into a part
        // file in the report's temporary directory, joined in plan order at the end.
        if !noEvents {
            do { runner.eventsDirectory = try report.prepare() } catch {
                throw CommandFailure("cannot write reports to \(destination): \(error.localizedDescription)")
            }
        }
        let started = Date()
        let results = try runWithProgress(runner, locations: document.eventLocations, cleanUp: report.abandon)
        let elapsed = Date().timeIntervalSince(started)

        var files: [(name: String, contents: String)] = [
            (
                "summary.csv",
                SummaryRow.header(platformMetrics: platformMetrics)
                    + results.map { $0.summary.csvLine(platformMetrics: platformMetrics) }.joined()
            ),
            ("timeseries.csv", RunRecorder.timeseriesHeader + results.map(\.sampleRows).joined()),
            ("apps.csv", AppRow.csv(results.flatMap(\.apps), platformMetrics: platformMetrics)),
        ]
        let comparison = Comparison(
            rows: results.map(\.summary), reference: baseline.name, platformMetrics: platformMetrics)
        if runner.replications > 1 {
            files.append(("comparison.csv", comparison.csv))
            files.append(("comparison-long.csv", comparison.longCSV))
        }
        let headline = verdictLines(
            options.app == nil
                ? comparison
                : Comparison(
                    rows: options.shownRows(results), reference: baseline.name, platformMetrics: platformMetrics),
            app: options.app)
        if !output.noReport {
            var page = runReport(document, file: options.file, results)
            page.headline = headline
            if bound { page.bounds = RedownloadGaps.means(results, policies: policies) }
            files.append(("report.html", page.html))
        }
        if bound { files.append(("bounds.csv", RedownloadGaps.csv(results))) }
        do {
            if let problem = results.lazy.compactMap(\.writeError).first {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: problem])
            }
            if !noEvents {
                try report.concatenate(
                    into: "events.csv", header: RunRecorder.eventsHeader, parts: results.compactMap(\.eventsPart))
            }
        } catch {
            report.abandon()
            throw CommandFailure("cannot write reports to \(destination): \(error.localizedDescription)")
        }
        try report.commit(files, staged: !noEvents)

        if printing.json {
            func csv(_ name: String) -> String { JSONSummary.records(files.first { $0.name == name }?.contents ?? "") }
            var pairs = JSONSummary.head(
                "run", document, file: options.file, out: destination, policies: policies,
                runner: runner, baseline: baseline.name)
            pairs += [
                ("verdict", policies.count > 1 ? JSONSummary.array(headline.map(JSONSummary.string)) : "null"),
                ("precision_met", options.precision.isEmpty ? "null" : missed.isEmpty ? "true" : "false"),
                ("summary", csv("summary.csv")), ("apps", csv("apps.csv")),
            ]
            if runner.replications > 1 { pairs.append(("comparison", csv("comparison.csv"))) }
            if bound { pairs.append(("bounds", csv("bounds.csv"))) }
            say(JSONSummary.object(pairs))
            return
        }

        if policies.count > 1 {
            say(
                "Verdict against \(baseline.name)\(options.app.map { " for app \($0)" } ?? "") "
                    + "(\(runner.replications) replication\(runner.replications == 1 ? "" : "s"), paired):"
            )
            for line in headline { say("  " + line) }
            say("")
        }
        say(
            summaryTable(
                options.shownRows(results), replicated: runner.replications > 1, platformMetrics: platformMetrics))
        if runner.warmup > 0 { say("(metrics from \(humanDuration(runner.warmup)) on: --warmup left the start out)") }
        if !options.precision.isEmpty {
            say(Precision.sentence(missed, replications: runner.replications) { humanValue($1, $0) })
        }
        if bound {
            say("\nRe-downloaded bytes against the fewest any purge order could have (means over replications):")
            say(RedownloadGaps.table(results, policies: policies))
        }
        let events = results.reduce(0) { $0 + $1.kernelEvents }
        say(
            String(
                format: "\n%@: %d run(s), %d kernel events in %.2f s; reports in %@/", document.name, results.count,
                events, elapsed, destination))
    }
}
