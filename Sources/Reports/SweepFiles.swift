import Experiments
import Foundation
import Metrics
import ODRPolicies
import Quantities
import SafeOutput

/// What a study's sweep writes: `results.csv`, `comparison.csv`, `comparison-long.csv`, with
/// a reference point `baseline-pairs.csv`, per app `apps.csv` and `comparison-apps.csv`, and
/// `report.html`. Everything comes from the result lines, so a merge of shards writes the same
/// bytes as one machine. Under a focus (`--app`) the report is the app's, as the terminal's
/// verdict is, and `baseline-pairs-app.csv` holds its paired differences; the other files keep
/// the device and every app.
public struct SweepFiles {
    /// The results, with beside each axis of quantities its numbers.
    public let results: SweepResults
    public let comparisons: [(values: [String], comparison: Comparison)]
    public private(set) var files: [(name: String, contents: String)] = []
    /// `results.csv` and `apps.csv`, which grow with the runs: written a piece at a time
    /// when the folder is committed (`ReportDirectory.commit(_:streams:staged:)`): `write`
    /// hands each piece, in order, to the function it is given.
    public private(set) var streams: [(name: String, write: ((String) throws -> Void) throws -> Void)] = []

    /// The files of `results` (`extra` after them), the report's unless `report` is false;
    /// `app`, the focus. Results not yet prepared (a merge's) are, on every core.
    public init(
        _ results: SweepResults, name: String, report: Bool, app: String? = nil, extra: [(String, String)] = []
    ) throws {
        let prepared = try results.prepared(
            jobs: results.jobs > 0 ? results.jobs : ProcessInfo.processInfo.activeProcessorCount, app: app)
        let comparisons = try prepared.comparisons()
        let axes = Self.axes(results.axisNames, points: comparisons.map(\.values))
        var results = prepared
        results.axisNumbers = Self.axisNumbers(axes)
        // The files do not depend on one another: they are made at once, on the study's threads.
        let made = results
        var tasks: [@Sendable () throws -> (name: String, contents: String)?] = [
            { ("comparison.csv", made.comparisonCSV(comparisons)) },
            { ("comparison-long.csv", made.comparisonLongCSV(comparisons)) },
            { try made.baselinePairs().map { ("baseline-pairs.csv", made.baselinePairsCSV($0)) } },
            {
                guard let app else { return nil }
                return try made.baselinePairs(app: app).map {
                    ("baseline-pairs-app.csv", made.baselinePairsCSV($0, app: app))
                }
            },
        ]
        // Results folded as they ran (``Experiments/StudyFold``) wrote these two already.
        if !results.lines.isEmpty { streams = [("results.csv", made.writeResultsFile)] }
        if !results.appLines.isEmpty { streams.append(("apps.csv", made.writeAppsFile)) }
        if results.hasApps { tasks.append { ("comparison-apps.csv", try made.comparisonAppsCSV()) } }
        if report {
            tasks.append { try Self.reportPage(made, comparisons: comparisons, axes: axes, name: name, app: app) }
        }
        files = try OrderedParallel.each(tasks, jobs: results.jobs).compactMap { $0 }
        files += extra
        (self.results, self.comparisons) = (results, comparisons)
    }

    /// The files of `results` (``init(_:name:report:app:extra:)``) swapped in together as
    /// `destination` (`staged`: beside those already written into its temporary directory).
    @discardableResult
    public static func write(
        _ results: SweepResults, name: String, to destination: ReportDirectory, report: Bool = true,
        app: String? = nil, extra: [(String, String)] = [], staged: Bool = false
    ) throws(CommandFailure) -> SweepFiles {
        let files: SweepFiles
        do { files = try SweepFiles(results, name: name, report: report, app: app, extra: extra) } catch {
            destination.abandon()
            throw CommandFailure("cannot write reports to \(destination.path): \(error)")
        }
        try destination.commit(files.files, streams: files.streams, staged: staged)
        return files
    }

    /// The results a study's runs are folded into (``Experiments/StudyFold``): its axes
    /// (their numbers from the points' axis values `values`), baseline policy and point, and
    /// whether the platform metrics are written; no runs yet.
    public static func template(
        axisNames: [String], baseline: String, baselinePoint: Int?, platformMetrics: Bool, values: [[String]]
    ) -> SweepResults {
        var template = SweepResults(
            axisNames: axisNames, baseline: baseline, lines: [], platformMetrics: platformMetrics,
            baselinePoint: baselinePoint)
        template.axisNumbers = axisNumbers(axes(axisNames, points: values))
        return template
    }

    /// Each axis's values in the order the points (`points`, each one's axis values) first
    /// show them.
    static func axes(_ names: [String], points: [[String]]) -> [SweepReport.Axis] {
        names.indices.map { a in
            var values: [String] = []
            // A reference point that leaves the axis out ("") is no position on it (issue 50):
            // the report draws it as its own labelled line.
            for point in points where !point[a].isEmpty && !values.contains(point[a]) { values.append(point[a]) }
            return SweepReport.Axis(name: names[a], values: values)
        }
    }

    /// Beside each axis of quantities, its numbers (from the labels, so a merge writes the
    /// same); an axis an explicit point leaves out ("") has none there.
    static func axisNumbers(_ axes: [SweepReport.Axis]) -> [SweepResults.AxisNumbers?] {
        axes.map { axis in
            AxisQuantity.numbers(of: axis.values).map { quantity in
                SweepResults.AxisNumbers(
                    column: axis.name + quantity.suffix,
                    values: Dictionary(zip(axis.values, quantity.values), uniquingKeysWith: { a, _ in a }))
            }
        }
    }

    /// A study's runs (`runner`'s, a study runner's: ``Experiments/ExperimentRunner/studyLines``)
    /// folded point by point as they finish (``Experiments/StudyFold``), drawn as they go,
    /// `results.csv` and `apps.csv` (as written, with their axes' numbers) written into
    /// `report`'s temporary directory a piece at a time (``SafeOutput/StagedFiles``), the runs'
    /// notices said (`locations`: the scripted events'; `labels`: the points'). `axisNames`,
    /// `baseline` and `baselinePoint` are the study's; `app`, the focus. The results every
    /// other file and answer reads, and with `keepsRows` what an objective, `--precision` and
    /// `--robustness` read of each run (its rows as run: ``Experiments/StudyFold``); a failure
    /// abandons the report, in one line. Folded again into the same report, the earlier
    /// fold's files are let go.
    public static func fold(
        _ runner: ExperimentRunner, axisNames: [String], baseline: String, baselinePoint: Int?, app: String?,
        keepsRows: Bool, locations: [String], labels: [String], into report: ReportDirectory
    ) throws(CommandFailure) -> (results: SweepResults, runRows: [[SummaryRow]]) {
        let (values, platformMetrics) = runner.studyLines!
        let template = Self.template(
            axisNames: axisNames, baseline: baseline, baselinePoint: baselinePoint, platformMetrics: platformMetrics,
            values: values)
        let files = StagedFiles(in: try report.prepared())
        let fold = StudyFold(
            runner.plan, indices: Array(runner.plan.runs.indices), values: values, template: template, focus: app,
            keepsRowsAsRun: keepsRows
        ) { file, text in try files.write(file == .results ? "results.csv" : "apps.csv", text) }
        do {
            try ProgressBar(unit: "runs").run(runner, folding: fold)
            let (results, notices, runRows) = try fold.finish(jobs: runner.jobs, locations: locations, labels: labels)
            try files.close()
            for line in notices { note(line) }
            return (results, runRows)
        } catch {
            report.abandon()
            throw error is ExperimentRunner.RunError
                ? CommandFailure("\(error)") : CommandFailure("cannot write reports to \(report.path): \(error)")
        }
    }

    /// `report.html`: the study's charts and verdict, under a focus the app's.
    private static func reportPage(
        _ results: SweepResults, comparisons: [(values: [String], comparison: Comparison)], axes: [SweepReport.Axis],
        name: String, app: String?
    ) throws -> (name: String, contents: String) {
        // Under a focus, the app's comparisons: the numbers of the terminal's verdict.
        let shown = try app.map(results.comparisons(app:)) ?? comparisons
        let policies = shown.first?.comparison.policies ?? []
        let lede = """
            \(shown.count) points × \(policies.count) policies × \(policies.first?.replications ?? 0) \
            replications; paired differences against \(results.baseline)\(app.map { Self.focusNote($0) } ?? ".")
            """
        var page = SweepReport(
            title: "\(name): study" + (app.map { ", app \($0)" } ?? ""), lede: lede, axes: axes, points: shown,
            palette: reportPalette)
        page.headline = studyVerdict(shown.map(\.comparison), app: app)
        page.focused = app != nil
        return ("report.html", page.html)
    }

    /// What the lede says of a focused report: whose numbers it shows.
    static func focusNote(_ app: String) -> String {
        """
        . The numbers are app \(app)'s own, and the device's where only the device has one (over-purge, the \
        user's refused data).
        """
    }

    /// The contents of the file called `name`, if written.
    public subscript(name: String) -> String? { files.first { $0.name == name }?.contents }
}

/// A sweep's answer, from its runs: per main metric the policy best at the most points, the
/// paired changes against a reference point, the recommendation of an objective at each point
/// and over the study, robustness, and what each axis does; as the terminal and the JSON say it.
public struct StudyAnswer {
    /// What the sweep was.
    public struct Study {
        public var name: String, file: String
        public var points: Int, policies: [String]
        /// Each point's label (`budget=1GB, platform=background-assets`).
        public var labels: [String]
        public var baselinePoint: Int?

        public init(name: String, file: String, points: Int, policies: [String], labels: [String], baselinePoint: Int?)
        {
            (self.name, self.file, self.points, self.policies) = (name, file, points, policies)
            (self.labels, self.baselinePoint) = (labels, baselinePoint)
        }
    }

    public let study: Study
    public let app: String?
    public let baseline: String
    public let plan: ExperimentPlan
    public let warmup: Double
    /// Each point's comparison (the app's under `--app`).
    public let comparisons: [Comparison]
    public let overall: Recommendation?
    public let effects: [AxisEffects.Effect]
    public let lines: [String]

    /// `runRows`: each run's rows as run, in the order of `plan`
    /// (``Experiments/ExperimentRunner/RunResult/rowsAsRun(app:)``); empty without an objective.
    public init(
        _ study: Study, results: SweepResults, runRows: [[SummaryRow]], plan: ExperimentPlan,
        warmup: Double, app: String?, objective: Objective?, robustness: StudyRobustness?
    ) throws {
        (self.study, self.app, self.baseline, self.plan, self.warmup) = (study, app, results.baseline, plan, warmup)
        let baseline = results.baseline
        let points = (try? app.map(results.comparisons(app:)) ?? results.comparisons()) ?? []
        comparisons = points.map(\.comparison)
        let offline = PolicyRegistry.offline
        overall = objective?.recommendOverStudy(
            runRows, plan: plan, baseline: baseline, baselinePoint: study.baselinePoint ?? 0, labels: study.labels,
            offline: offline)
        effects = AxisEffects.effects(
            points, axisNames: results.axisNames, policy: baseline, metrics: Verdict.headlineMetrics)
        var lines = studyVerdict(comparisons, app: app)
        lines +=
            try results.baselinePairs(app: app)?.verdict(
                axisNames: results.axisNames, offline: offline, focus: app != nil
            ) {
                humanValue($1, $0)
            } ?? []
        if let objective {
            let each = objective.recommendEachPoint(runRows, plan: plan, baseline: baseline, offline: offline)
            lines += Recommendation.study(each, points: study.labels)
        }
        for (k, line) in (overall?.lines(humanValue, leftOut: false) ?? []).enumerated() {
            lines.append(k == 0 ? "Over the study: " + line : line)
        }
        if let app, let objective { lines.append(objective.described(focus: app)) }
        lines += (robustness.map { [$0.headline] } ?? []) + effects.compactMap { $0.sentence { humanValue($0, $1) } }
        self.lines = lines
    }

    /// `--format json`: one object; `comparisonCSV` is the written comparison.csv.
    public func json(out: String, precisionMet: Bool?, comparisonCSV: String) -> String {
        let perPoint = zip(study.labels, comparisons).map {
            JSONText.object([("point", JSONText.string($0)), ("lines", verdict($1, app: app).json)])
        }
        return JSONText.object([
            ("command", JSONText.string("sweep")), ("study", JSONText.string(study.name)),
            ("file", JSONText.string(study.file)),
            ("out", JSONText.string(out)), ("points", String(study.points)),
            ("policies", JSONText.array(study.policies.map(JSONText.string))),
            ("replications", String(plan.replications)),
            ("precision_met", precisionMet.map { $0 ? "true" : "false" } ?? "null"),
            ("recommendation", overall?.json ?? "null"),
            ("baseline", JSONText.string(baseline)), ("runs", String(plan.runs.count)),
            ("warmup_s", JSONText.number(warmup)),
            ("axis_effects", JSONText.array(effects.map(\.json))),
            ("verdict", JSONText.array(lines.map(JSONText.string))),
            ("verdict_lines", JSONText.array(perPoint)),
            ("comparison", JSONText.records(comparisonCSV)),
        ])
    }

    /// The terminal's text. `missed` is nil without `--precision`.
    public func text(missed: [Precision.Miss]?, elapsed: Double, out: String) -> String {
        var text = [
            "Verdict over \(study.points) points against \(baseline)\(app.map { " for app \($0)" } ?? "") "
                + "(\(plan.replications) replications each, paired):"
        ]
        text += lines.map { "  " + $0 }
        text.append(
            "  (Each point's verdict is adjusted over its policies (Holm); the \(study.points) points × "
                + "\(study.policies.count) policies and the metrics are not adjusted for one another.)")
        text.append("  " + CompareFiles.measuredLevel)
        if let missed {
            text.append(Precision.sentence(missed, replications: plan.replications) { humanValue($1, $0) })
        }
        text.append(
            String(
                format: "%@: %d runs (%@) in %.2f s; results in %@/", study.name, plan.runs.count, what, elapsed, out))
        return text.joined(separator: "\n")
    }

    /// `3 points × 5 policies × 10 replications`.
    public var what: String {
        "\(study.points) points × \(study.policies.count) policies × \(plan.replications) replications"
    }
}
