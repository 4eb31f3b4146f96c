import Experiments
import Foundation
import Metrics

/// What `odr-sim run` writes and says, all from its runs' rows: `summary.csv`,
/// `timeseries.csv`, `apps.csv`, with replications `comparison.csv` and
/// `comparison-long.csv`, with `--bound` `bounds.csv`, with the events `packs.csv`, and
/// `report.html`; the JSON object and the terminal's text read the same rows (`events.csv` is
/// streamed by the runs).
public struct RunFiles {
    public let source: ScenarioSource
    public let results: [ExperimentRunner.RunResult]
    public let policies: [String]
    public let baseline: String
    /// `--app`: whose numbers the verdict and the table show (the files keep every app).
    public let app: String?
    public let replications: Int
    public let warmup: Double
    public let bound: Bool
    /// The verdict's lines.
    public let headline: [String]
    /// The files, in the order they are written.
    public private(set) var files: [(name: String, contents: String)] = []

    public init(
        _ source: ScenarioSource, results: [ExperimentRunner.RunResult], policies: [String], baseline: String,
        app: String?, replications: Int, warmup: Double, bound: Bool, report: Bool, events: Bool = false
    ) {
        (self.source, self.results, self.policies, self.baseline) = (source, results, policies, baseline)
        (self.app, self.replications, self.warmup, self.bound) = (app, replications, warmup, bound)
        let platformMetrics = Metric.hasPlatformMetrics(source.scenario)
        let comparison = Comparison(
            rows: results.map(\.summary), reference: baseline, platformMetrics: platformMetrics)
        headline = verdictLines(
            app == nil
                ? comparison
                : Comparison(
                    rows: results.summaryRows(app: app), reference: baseline, platformMetrics: platformMetrics),
            app: app)
        files = [
            ("summary.csv", SummaryRow.csv(results.map(\.summary), platformMetrics: platformMetrics)),
            ("timeseries.csv", RunRecorder.timeseriesHeader + results.map(\.sampleRows).joined()),
            ("apps.csv", AppRow.csv(results.flatMap(\.apps), platformMetrics: platformMetrics)),
        ]
        if events { files.append(("packs.csv", PackTimeline.header + results.map(\.packRows).joined())) }
        if replications > 1 {
            files += [("comparison.csv", comparison.csv), ("comparison-long.csv", comparison.longCSV)]
        }
        if report {
            var page = self.page()
            page.headline = headline
            if bound { page.bounds = RedownloadGaps.means(results, policies: policies) }
            files.append(("report.html", page.html))
        }
        if bound { files.append(("bounds.csv", RedownloadGaps.csv(results))) }
    }

    /// Why `events.csv` is refused up front: about a row per kernel event of every run, beyond
    /// `limit` rows (about 170 bytes a row); nil within it.
    public static func eventRowsRefusal(_ source: ScenarioSource, runs: Int, limit: Int) -> String? {
        let rows = source.scenario.expectedEvents * Double(runs)
        guard rows > Double(limit) else { return nil }
        return """
            \(source.file): events.csv would get about \(scientific(rows)) rows (about \(humanBytes(rows * 170))), \
            beyond --max-event-rows \(limit); run with --no-events, or raise --max-event-rows
            """
    }

    /// The contents of the file called `name`, if written.
    public subscript(name: String) -> String? { files.first { $0.name == name }?.contents }

    /// `--format json`: one object, its rows those of the files. `precisionMet` is nil
    /// without `--precision`.
    public func json(out: String, precisionMet: Bool?) -> String {
        func csv(_ name: String) -> String { JSONText.records(self[name] ?? "") }
        var pairs = JSONText.head(
            "run", source, out: out, policies: policies, replications: replications, warmup: warmup,
            baseline: baseline)
        pairs += [
            ("verdict", policies.count > 1 ? JSONText.array(headline.map(JSONText.string)) : "null"),
            ("precision_met", precisionMet.map { $0 ? "true" : "false" } ?? "null"),
            ("summary", csv("summary.csv")), ("apps", csv("apps.csv")),
        ]
        if replications > 1 { pairs.append(("comparison", csv("comparison.csv"))) }
        if bound { pairs.append(("bounds", csv("bounds.csv"))) }
        // Under a focus, the app's rows as the verdict, the table and the report read them.
        if let app {
            let rows = results.summaryRows(app: app)
            let platformMetrics = Metric.hasPlatformMetrics(source.scenario)
            pairs += [
                ("app", JSONText.string(app)),
                ("summary_app", JSONText.records(SummaryRow.csv(rows, platformMetrics: platformMetrics))),
            ]
        }
        return JSONText.object(pairs)
    }

    /// The terminal's text: the verdict, the table, what was left out or missed, and where
    /// the reports went. `missed` is nil without `--precision`.
    public func text(missed: [Precision.Miss]?, elapsed: Double, out: String) -> String {
        var lines: [String] = []
        if policies.count > 1 {
            lines.append(
                "Verdict against \(baseline)\(app.map { " for app \($0)" } ?? "") "
                    + "(\(replications) replication\(replications == 1 ? "" : "s"), paired):")
            lines += headline.map { "  " + $0 } + [""]
        }
        let platformMetrics = Metric.hasPlatformMetrics(source.scenario)
        lines.append(
            summaryTable(
                results.summaryRows(app: app), replicated: replications > 1, platformMetrics: platformMetrics,
                focus: app))
        if warmup > 0 { lines.append("(metrics from \(humanDuration(warmup)) on: --warmup left the start out)") }
        if let missed { lines.append(Precision.sentence(missed, replications: replications) { humanValue($1, $0) }) }
        if bound {
            lines.append(
                "\nRe-downloaded bytes against the fewest any purge order could have (means over replications):")
            lines.append(RedownloadGaps.table(results, policies: policies))
        }
        let events = results.reduce(0) { $0 + $1.kernelEvents }
        lines.append(
            String(
                format: "\n%@: %d run(s), %d kernel events in %.2f s; reports in %@/", source.name, results.count,
                events, elapsed, out))
        return lines.joined(separator: "\n")
    }

    /// `report.html`: per policy its first replication's disk and waits, every replication's
    /// re-downloads.
    private func page() -> RunReport {
        var runs: [RunReport.PolicyRun] = []
        for result in results {
            if let i = runs.firstIndex(where: { $0.policy == result.summary.policy }) {
                runs[i].redownloads.append(result.samples.map(\.redownloaded))
                continue
            }
            var run = RunReport.PolicyRun(
                policy: result.summary.policy, replication: result.summary.replication,
                samples: result.samples, purgeEpisodes: result.purgeEpisodes,
                lowDiskWarnings: result.lowDiskWarnings, waits: result.waitDistribution)
            run.redownloads = [result.samples.map(\.redownloaded)]
            run.packStretches = result.packStretches
            runs.append(run)
        }
        // Under a focus, the app's rows: the same numbers as the verdict and the table.
        var report = RunReport(
            title: "\(source.name): \(runs.count) purge polic\(runs.count == 1 ? "y" : "ies")"
                + (app.map { ", app \($0)" } ?? ""),
            lede: source.lede("run"), facts: ScenarioStory.facts(source.scenario), rows: results.summaryRows(app: app),
            runs: runs, capacity: source.scenario.device.capacity, palette: reportPalette)
        report.focus = app
        return report
    }
}
