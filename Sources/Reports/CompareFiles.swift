import Experiments
import Foundation
import Metrics
import ODRPolicies

/// What `odr-sim compare` writes and says, all from its runs' rows: `summary.csv`,
/// `comparison.csv`, `comparison-long.csv`, `comparison-apps.csv`, with `--bound`
/// `bounds.csv`, with `--robustness` `robustness.csv`, and `report.html`; the JSON object
/// and the terminal's text read the same comparison.
public struct CompareFiles {
    /// What the comparison was asked for beside its runs.
    public struct Request {
        public var policies: [String]
        public var baseline: (name: String, note: String?)
        /// `--app`: whose numbers the verdict and the table show.
        public var app: String?
        public var bound = false
        public var objective: Objective?
        /// `--precision`'s misses; nil without it.
        public var missed: [Precision.Miss]?
        /// `--select-best`: the selection and its metric.
        public var selection: (SelectBest, Metric)?
        /// `--warmup auto`: MSER-5's answer.
        public var autoWarmup: MSER.Found?
        /// Where apps fix their own strategy: what the policies vary.
        public var fixedStrategiesNote: String?

        public init(policies: [String], baseline: (name: String, note: String?), app: String?) {
            (self.policies, self.baseline, self.app) = (policies, baseline, app)
        }
    }

    public let source: ScenarioSource
    public let results: [ExperimentRunner.RunResult]
    public let request: Request
    public let replications: Int
    public let warmup: Double
    /// Every run's, and `--app`'s (the one the verdict and table show).
    public let comparison: Comparison, shown: Comparison
    public let recommendation: Recommendation?
    /// `--robustness`: the verdict rerun under each undocumented assumption's alternatives.
    public let robustness: Robustness?
    /// The verdict's lines, then the recommendation's.
    public let headline: [String]
    public private(set) var files: [(name: String, contents: String)] = []

    /// With `robustness` (the runner of `results`), the verdict shown (the app's under a focus)
    /// and the objective's recommendation are rerun under each undocumented assumption's
    /// alternatives (``Experiments/Robustness``).
    public init(
        _ source: ScenarioSource, results: [ExperimentRunner.RunResult], request: Request, replications: Int,
        warmup: Double, report: Bool, robustness: ExperimentRunner? = nil
    ) throws {
        (self.source, self.results, self.request) = (source, results, request)
        (self.replications, self.warmup) = (replications, warmup)
        let platformMetrics = Metric.hasPlatformMetrics(source.scenario)
        let baseline = request.baseline.name
        let rows = results.map(\.summary)
        comparison = Comparison(rows: rows, reference: baseline, platformMetrics: platformMetrics)
        shown =
            request.app == nil
            ? comparison
            : Comparison(
                rows: results.summaryRows(app: request.app), reference: baseline, platformMetrics: platformMetrics)
        recommendation = request.objective?.recommend(
            results.summaryRows(app: request.app), baseline: baseline, offline: PolicyRegistry.offline)
        headline =
            verdictLines(shown, app: request.app) + (recommendation?.lines(humanValue) ?? [])
            + (request.app.flatMap { app in request.objective.map { [$0.described(focus: app)] } } ?? [])
        // Judged as the verdict is: under a focus, on the app's comparison.
        let judged = verdict(shown)
        let objective = request.objective.map { ($0, rows: results.summaryRows(app: request.app)) }
        self.robustness = try robustness.map { runner in
            try Robustness.check(
                like: runner, verdict: judged, baseline: baseline, app: request.app, objective: objective)
        }
        let byApp = AppRow.comparisons(results.flatMap(\.apps), reference: baseline, platformMetrics: platformMetrics)
        files = [
            ("summary.csv", SummaryRow.csv(rows, platformMetrics: platformMetrics)),
            ("comparison.csv", comparison.csv),
            ("comparison-long.csv", comparison.longCSV),
            ("comparison-apps.csv", AppRow.comparisonCSV(byApp)),
        ]
        if request.bound { files.append(("bounds.csv", RedownloadGaps.csv(results))) }
        if let robust = self.robustness { files.append(("robustness.csv", robust.csv)) }
        // `--warmup auto`: where each run of the first pass settles (issue 51).
        if let auto = request.autoWarmup { files.append(("warmup.csv", auto.csv)) }
        if report {
            // Under a focus, the app's comparison: the same numbers as the verdict and the table.
            var page = CompareReport(
                title: "\(source.name): \(request.policies.count) policies × \(replications) replications"
                    + (request.app.map { ", app \($0)" } ?? ""),
                lede: source.lede("compare"), facts: ScenarioStory.facts(source.scenario), comparison: shown,
                palette: reportPalette)
            page.headline = headline
            if request.bound { page.bounds = RedownloadGaps.means(results, policies: request.policies) }
            page.robustness = self.robustness.map { ($0.headline(describe: humanValue), $0.tableRows) }
            files.append(("report.html", page.html))
        }
    }

    /// The contents of the file called `name`, if written.
    public subscript(name: String) -> String? { files.first { $0.name == name }?.contents }

    /// A line for the metrics every policy gave the same in every replication, if any.
    public var identicalNote: String? { identicalMetrics(results.map(\.summary)) }

    /// `--format json`: one object, its rows those of the files.
    public func json(out: String) -> String {
        func csv(_ name: String) -> String { JSONText.records(self[name] ?? "") }
        var pairs = JSONText.head(
            "compare", source, out: out, policies: request.policies, replications: replications, warmup: warmup,
            baseline: request.baseline.name)
        pairs += [
            ("verdict", JSONText.array(headline.map(JSONText.string))),
            ("verdict_lines", verdict(shown, app: request.app).json),
            ("identical", JSONText.array(identicalMetricColumns(results.map(\.summary)).map(JSONText.string))),
            ("precision_met", request.missed.map { $0.isEmpty ? "true" : "false" } ?? "null"),
            ("recommendation", recommendation?.json ?? "null"),
            (
                "selection",
                request.selection.map { selection, metric in
                    selection.json(
                        metric: metric, sentence: selection.sentence(metric: metric) { humanValue($0, metric) })
                } ?? "null"
            ),
            ("comparison", csv("comparison.csv")), ("comparison_apps", csv("comparison-apps.csv")),
        ]
        // Under a focus, the app's comparison, as the verdict, the table and the report read it
        // (the app's metrics, the device's where the app has none).
        if let app = request.app {
            pairs += [("app", JSONText.string(app)), ("comparison_app", JSONText.records(shown.csv))]
        }
        if request.bound { pairs.append(("bounds", csv("bounds.csv"))) }
        if let robust = self.robustness {
            pairs += [
                ("robustness", csv("robustness.csv")),
                ("robustness_headline", JSONText.string(robust.headline(describe: humanValue))),
            ]
        }
        return JSONText.object(pairs)
    }

    /// What the verdict's significance is adjusted for, and what not (issue 51).
    static func multiplicity(metrics: Int) -> String {
        "(Each metric's best is tested with Holm's adjustment over the policies; the \(metrics) metrics are not "
            + "adjusted for one another: about one in 20 unadjusted tests is significant by chance.)"
    }

    /// What the intervals printed are worth, as the calibration suite measured it (issue 51).
    static let measuredLevel =
        "(Intervals are Student-t at 95 %; on the shipped scenarios they \(Calibration.held(Calibration.fixedCount)): "
        + "docs/statistics.md.)"

    /// The terminal's text: the selection, the verdict, the ranked table, and what was left
    /// out, missed or fixed.
    public func text(elapsed: Double, out: String) -> String {
        var lines: [String] = []
        if let (selection, metric) = request.selection {
            lines.append(selection.sentence(metric: metric) { humanValue($0, metric) } + "\n")
        }
        lines.append(
            "Verdict against \(request.baseline.name)\(request.app.map { " for app \($0)" } ?? "") "
                + "(\(replications) replications, paired):")
        lines += headline.map { "  " + $0 }
        if let robust = self.robustness { lines.append("  " + robust.headline(describe: humanValue)) }
        lines.append("  " + Self.multiplicity(metrics: Verdict.metrics(of: shown).count))
        lines.append("  " + Self.measuredLevel)
        lines += ["", rankedTable(shown, focus: request.app)]
        let auto = request.autoWarmup
        if warmup > 0 {
            lines.append(
                "(metrics from \(humanDuration(warmup)) on: "
                    + "--warmup\(auto.map { " auto, MSER-5 over \($0.runs) runs," } ?? "") left the start out)")
        }
        if let auto, auto.unsettled > 0 || auto.seconds == 0 { lines.append(MSER.sentence(auto.summary)) }
        lines += [request.baseline.note, request.fixedStrategiesNote].compactMap { $0 }
        if let missed = request.missed {
            lines.append(Precision.sentence(missed, replications: replications) { humanValue($1, $0) })
        }
        if request.bound {
            lines.append(
                "\nRe-downloaded bytes against the fewest any purge order could have (means over replications):")
            lines.append(RedownloadGaps.table(results, policies: request.policies))
        }
        lines.append(
            String(
                format: "\n%@: %d policies × %d replications in %.2f s; reports in %@/", source.name,
                request.policies.count, replications, elapsed, out))
        return lines.joined(separator: "\n")
    }
}
