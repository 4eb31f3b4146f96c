import ArgumentParser
import Experiments
import Foundation
import Metrics
import ODRPolicies
import Quantities
import Reports
import SafeOutput
import ScenarioFile
import Simulation

/// `odr-sim compare`: replicated runs of every policy, ranked with confidence intervals.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Rank purge policies over replicated workloads, with 95 % confidence intervals.",
        discussion: """
            Runs each policy on the same N seeded workloads (common random numbers), ranks them \
            by mean re-download bytes with 95 % intervals and paired differences to the baseline. \
            Writes summary.csv, comparison.csv (a row per policy), comparison-long.csv (one \
            number per row) and comparison-apps.csv (per app) to DIR (default \
            Reports/<name>-compare/). Policies default to every registered one (where the app evicts: the scenario's).

            Examples:
              odr-sim compare scenarios/game.scn --replications 30
              odr-sim compare scenarios/photo-filters.scn --policy apple --policy lru --policy gdsf --jobs 2
              odr-sim compare scenarios/game.scn --policy lru --policy lfu --baseline lru --warmup 1d
              odr-sim compare scenarios/game.scn --app odyssey --replications 10   # the game's own numbers
            """)

    @OptionGroup var options: ScenarioRunOptions

    @OptionGroup var warmup: WarmupOption

    @OptionGroup var printing: FormatOption

    @OptionGroup var objective: ObjectiveOptions

    @OptionGroup var output: OutputOptions

    @Flag(
        help:
            """
            Also rerun the comparison, on the same seeds, under each alternative of each undocumented assumption \
            that applies (odr-sim assumptions), and say whether the verdict holds or flips; writes \
            DIR/robustness.csv.
            """
    )
    var robustness = false

    @Flag(
        help:
            """
            Also bound each run's re-downloaded bytes from below (what no purge order could avoid, given its grants) \
            and write DIR/bounds.csv with each policy's gap to it.
            """
    )
    var bound = false

    @Option(
        help: ArgumentHelp(
            """
            Select the best deployable policy on METRIC by Kim and Nelson's fully sequential KN procedure (common \
            random numbers, one replication of each survivor at a time, up to --max-replications), with \
            --indifference; said before the comparison.
            """,
            valueName: "metric"))
    var selectBest: String?

    @Option(
        help: ArgumentHelp(
            "With --select-best: the indifference zone, in the metric's unit (50MB, 5s, 0.5).", valueName: "delta"))
    var indifference: String?

    @Option(help: "With --select-best: the probability of a correct selection, in (0.5, 1).") var confidence = 0.95
    func validate() throws {
        if !(confidence > 0.5 && confidence < 1) {
            throw ValidationError(
                """
                --confidence must be above 0.5 and below 1 (the probability of a correct selection), not \
                \(confidence)
                """
            )
        }
    }

    func run() throws {
        let document = try loadScenario(options.file)
        let scenario = document.scenario
        let platformMetrics = Metric.hasPlatformMetrics(scenario)
        // Where the app evicts, the candidates are the scenario's own strategies (system purge
        // orders such as apple are no app's code); elsewhere every registered policy.
        let descriptors =
            options.policies.isEmpty && !ExperimentPlan.Point(document).policiesAreStrategies
            ? PolicyRegistry.all
            : try resolvePolicies(options.policies, scenario: document)
        let policies = descriptors.map(\.name)
        let baseline = try resolveBaseline(
            options.baseline, policies: policies, strategies: ExperimentPlan.Point(document).policiesAreStrategies)
        let precision = try options.targetPrecision()
        let objective = try self.objective.parsed()
        let target = try selectBest.map { name in
            do {
                return try SelectBest.target(
                    metric: name, indifference: indifference)
            } catch { throw CommandFailure.usage("\(error)") }
        }
        var runner = try runPlan(
            document, options, policies: descriptors, warmup: warmup, bound: bound, sampleInterval: 0,
            recordsEvents: false)
        let report = try output.claim(
            default: OutputSafety.defaultReport(document.name, suffix: "-compare"), inputs: [options.file])
        let destination = report.path
        let started = Date()
        // --select-best: KN over every replication index of one plan, one replication of each survivor at a time.
        let selection = try target.map { target -> SelectBest in
            var most = options
            most.replications = options.maxReplications
            let all = try runPlan(
                document, most, policies: descriptors, warmup: warmup, bound: false, sampleInterval: 0,
                recordsEvents: false)
            do {
                return try SelectBest.run(
                    policies: descriptors.filter { !$0.needsFuture }.map(\.name),
                    lowerIsBetter: target.metric.lowerIsBetter,
                    indifference: target.delta, confidence: confidence, maximum: options.maxReplications
                ) { r, names in
                    let rows = try runWithProgress(
                        all, locations: document.eventLocations,
                        indices: names.map { policies.firstIndex(of: $0)! * all.replications + r - 1 })
                    return Dictionary(
                        uniqueKeysWithValues: zip(names, rows.summaryRows(app: options.app).map { $0[target.metric] }))
                }
            } catch let failure as SelectBest.Failure { throw CommandFailure.usage("--select-best: \(failure)") }
        }
        // --warmup auto: a first pass with samples, MSER-5 on it, then the runs from its warm-up.
        let auto =
            try warmup.isAuto
            ? MSER.warmup(
                sampleRows: runWithProgress(
                    runPlan(
                        document, options, policies: descriptors, warmup: warmup, bound: bound,
                        sampleInterval: nil, recordsEvents: false), locations: document.eventLocations
                ).map(\.sampleRows)) : nil
        if let auto, auto.seconds > 0 { runner.warmup = auto.seconds }
        var results = try runWithProgress(runner, locations: document.eventLocations)
        let missed = try replicate(
            to: precision, document, options, policies: descriptors, warmup: warmup, bound: bound,
            reference: baseline.name, runner: &runner, results: &results)
        let elapsed = Date().timeIntervalSince(started)
        let rows = results.map(\.summary)
        let comparison = Comparison(rows: rows, reference: baseline.name, platformMetrics: platformMetrics)
        let byApp = AppRow.comparisons(
            results.flatMap(\.apps), reference: baseline.name, platformMetrics: platformMetrics)
        let shown =
            options.app == nil
            ? comparison
            : Comparison(rows: options.shownRows(results), reference: baseline.name, platformMetrics: platformMetrics)
        let recommendation = objective?.recommend(
            options.shownRows(results), baseline: baseline.name, offline: offlinePolicies)
        let headline = verdictLines(shown, app: options.app) + (recommendation?.lines(humanValue) ?? [])
        let robust =
            try robustness ? Robustness.check(like: runner, verdict: verdict(comparison), baseline: baseline.name) : nil
        do {
            var files = [
                (
                    "summary.csv",
                    SummaryRow.header(platformMetrics: platformMetrics)
                        + rows.map { $0.csvLine(platformMetrics: platformMetrics) }.joined()
                ),
                ("comparison.csv", comparison.csv),
                ("comparison-long.csv", comparison.longCSV),
                ("comparison-apps.csv", AppRow.comparisonCSV(byApp)),
            ]
            if bound { files.append(("bounds.csv", RedownloadGaps.csv(results))) }
            if let robust { files.append(("robustness.csv", robust.csv)) }
            if !output.noReport {
                var page = CompareReport(
                    title: "\(document.name): \(policies.count) policies × \(runner.replications) replications",
                    lede: document.description.isEmpty ? "odr-sim compare of \(options.file)" : document.description,
                    facts: ScenarioStory.facts(scenario), comparison: comparison, palette: reportPalette)
                page.headline = headline
                if bound { page.bounds = RedownloadGaps.means(results, policies: policies) }
                page.robustness = robust.map { ($0.headline, $0.tableRows) }
                files.append(("report.html", page.html))
            }
            try report.commit(files)
            if printing.json {
                func csv(_ name: String) -> String { JSONSummary.records(files.first { $0.0 == name }?.1 ?? "") }
                var pairs = JSONSummary.head(
                    "compare", document, file: options.file, out: destination, policies: policies,
                    runner: runner, baseline: baseline.name)
                pairs += [
                    ("verdict", JSONSummary.array(headline.map(JSONSummary.string))),
                    ("verdict_lines", verdict(shown, app: options.app).json),
                    ("identical", JSONSummary.array(identicalMetricColumns(rows).map(JSONSummary.string))),
                    ("precision_met", precision == nil ? "null" : missed.isEmpty ? "true" : "false"),
                    ("recommendation", recommendation?.json ?? "null"),
                    ("comparison", csv("comparison.csv")), ("comparison_apps", csv("comparison-apps.csv")),
                ]
                if bound { pairs.append(("bounds", csv("bounds.csv"))) }
                if let robust {
                    pairs += [
                        ("robustness", csv("robustness.csv")),
                        ("robustness_headline", JSONSummary.string(robust.headline)),
                    ]
                }
                say(JSONSummary.object(pairs))
                return
            }
        }
        if let selection, let target {
            say(selection.sentence(metric: target.metric) { humanValue($0, target.metric) } + "\n")
        }
        say(
            "Verdict against \(baseline.name)\(options.app.map { " for app \($0)" } ?? "") (\(runner.replications) "
                + "replications, paired):"
        )
        for line in headline { say("  " + line) }
        if let robust { say("  " + robust.headline) }
        say("")
        say(rankedTable(shown))
        if runner.warmup > 0 {
            say(
                "(metrics from \(humanDuration(runner.warmup)) on: "
                    + "--warmup\(auto == nil ? "" : " auto, MSER-5 over \(auto!.runs) runs,") left the start out)"
            )
        }
        if let auto, auto.unsettled > 0 || auto.seconds == 0 { say(MSER.sentence(auto)) }
        if let line = identicalMetrics(rows) { note("odr-sim: note: \(line)") }
        if let note = baseline.note { say(note) }
        if let note = ExperimentPlan.Point(document).fixedStrategiesNote { say(note) }
        if precision != nil {
            say(Precision.sentence(missed, replications: runner.replications) { humanValue($1, $0) })
        }
        if bound {
            say("\nRe-downloaded bytes against the fewest any purge order could have (means over replications):")
            say(RedownloadGaps.table(results, policies: policies))
        }
        say(
            String(
                format: "\n%@: %d policies × %d replications in %.2f s; reports in %@/",
                document.name, policies.count, runner.replications, elapsed, destination))
    }
}
