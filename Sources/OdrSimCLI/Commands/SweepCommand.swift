import ArgumentParser
import Experiments
import Foundation
import Metrics
import ODRPolicies
import Quantities
import Reports
import SafeOutput
import ScenarioFile

/// `odr-sim sweep`: a study's grid of points × policies × replications, on this machine or
/// in shards on a cluster.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep", abstract: "Run a study: a scenario varied along axes, every point under every policy.",
        discussion: """
            A study file (.study, YAML) names a base scenario, axes (a place in the scenario and \
            its values) and the policies and replications; see the README, "Studies". \
            `sweep FILE.study` runs every point × policy × replication and writes results.csv \
            (a row per run, an axis per column, an axis of sizes, durations, bandwidths, rates \
            or percentages followed by its number: used, used_bytes), comparison.csv (a row per \
            point and policy: mean, sd, 95 % interval, paired difference to the baseline) and \
            comparison-long.csv (the same, a number per row), per app apps.csv and \
            comparison-apps.csv, to DIR (default Reports/<study>-sweep/). Axes with the same `zip:` group move \
            together instead of \
            multiplying. Results do not depend on --jobs or on sharding.

            On a cluster, each task runs `sweep FILE.study --shard K/N --out DIR` (a fixed, \
            cost-balanced share of the runs, written as DIR/shard-K-of-N.csv), and one last job \
            runs `sweep merge DIR`, which writes the same results.csv and comparison.csv, byte \
            for byte, as one machine would. See scripts/cluster/.

            Examples:
              odr-sim sweep Scenarios/studies/tag-size.study
              odr-sim sweep Scenarios/studies/content-split.study --format json
              odr-sim sweep Scenarios/studies/tag-size.study --shard 2/4 --out shards/
              odr-sim sweep merge shards/
            """,
        subcommands: [SweepRunCommand.self, SweepMergeCommand.self], defaultSubcommand: SweepRunCommand.self
    )
}

struct SweepRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run a study, or one shard of it (the default subcommand).")

    @Argument(help: "The study file (.study).")
    var file: String

    @OptionGroup var jobs: JobOptions

    @Option(
        help:
            """
            Run only shard K of N (1 ≤ K ≤ N), written as DIR/shard-K-of-N.csv; merge with `sweep merge DIR` (needs \
            --out DIR).
            """
    )
    var shard: String?

    @Option(
        help: ArgumentHelp(
            """
            Run nothing: print the shards K of N (one number a line) whose DIR/shard-K-of-N.csv is missing or does \
            not check out for this study (with --out DIR); what `scripts/cluster/submit --resume` resubmits.
            """,
            valueName: "n"))
    var missing: Int?

    @OptionGroup var output: OutputOptions

    @OptionGroup var limits: RunLimits

    @OptionGroup var warmup: WarmupOption

    @Option(
        help: ArgumentHelp(
            """
            The policy paired differences are taken against. Default: the study's `baseline`, else apple when it \
            runs, else the first policy.
            """,
            valueName: "policy"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Give this app's own verdict (its apps.csv rows) on the terminal; the files keep every app.",
            valueName: "id"))
    var app: String?

    @Option(
        help: ArgumentHelp(
            """
            Double the replications of every point, on the same seeds, until every main metric's 95 % half-width is \
            within P at every point: 5% of its mean, or METRIC=VALUE (repeatable). Not with --shard.
            """,
            valueName: "p"))
    var precision: [String] = []

    @Option(help: "With --precision: the most replications to run.")
    var maxReplications = 1000

    @OptionGroup var printing: FormatOption

    @OptionGroup var objective: ObjectiveOptions

    @Flag(
        help:
            """
            Also rerun every point, on the same seeds, under each alternative of each undocumented assumption that \
            applies (odr-sim assumptions): where the verdict holds and where it flips; writes \
            DIR/robustness.csv. Not with --shard.
            """
    )
    var robustness = false

    var out: String? { output.folder }

    func validate() throws {
        if let shard {
            guard ShardPosition(shard) != nil else {
                throw ValidationError("--shard must be \(ShardPosition.syntax), not '\(shard)'")
            }
            guard out != nil else {
                throw ValidationError("--shard needs --out DIR, the directory every shard writes into")
            }
        }
        if let missing {
            guard out != nil, shard == nil, missing >= 1 else {
                throw ValidationError("--missing N needs N ≥ 1, --out DIR (the shards' folder) and no --shard")
            }
        }
    }

    func run() throws {
        if warmup.isAuto {
            throw CommandFailure.usage(
                "--warmup auto: compare chooses a warm-up (MSER-5); give this command a duration such as 1d")
        }
        let study: Study
        do { study = try studyParser().parseFile(atPath: file) } catch {
            throw CommandFailure("\(error)", located: true)
        }
        // --baseline over the study's own (which is apple or the first policy when it names none).
        let baseline =
            try self.baseline.map { try resolveBaseline($0, policies: study.policies).name } ?? study.baseline
        if let app { _ = try appIndex(app, in: study.points[0].document) }
        let objective = try self.objective.parsed(study)
        // The study's policies, resolved once here (its parser accepted only registered names).
        func makeRunner(_ replications: Int) throws -> ExperimentRunner {
            var runner = ExperimentRunner(
                plan: ExperimentPlan(
                    points: study.points.map { ExperimentPlan.Point($0.document) },
                    policies: study.policies.compactMap(PolicyRegistry.descriptor(named:)), replications: replications),
                jobs: jobs.count)
            runner.maxEvents = limits.maxEvents
            runner.warmup = try warmup.seconds(shortestRun: study.points.map(\.scenario.duration).min() ?? 0)
            return runner
        }
        var runner = try makeRunner(study.replications)
        var plan = runner.plan
        let precision: Precision?
        do {
            precision =
                try self.precision.isEmpty
                ? nil
                : Precision.parse(
                    self.precision)
        } catch { throw CommandFailure.usage("--precision: \(error)") }
        if precision != nil || robustness, shard != nil || missing != nil {
            throw CommandFailure.usage(
                "--\(robustness ? "robustness" : "precision"): a sharded study runs a fixed plan; run it whole")
        }
        let shardPosition = try checkedShard(
            shard ?? missing.map { "1/\($0)" }, runs: plan.runs.count, what: "runs in the study")
        if let missing, let out {  // a census of the shards, run nothing
            let shards = ShardCensus.missing(count: missing, in: out, studyDigest: study.digest) {
                plan.shard($0, of: missing)
            }
            for shard in shards { say("\(shard.shard)\t\(shard.why)") }
            return
        }
        let pointLabels = study.points.map {
            zip(study.axes, $0.values).filter { !$1.isEmpty }.map { "\($0.name)=\($1)" }.joined(separator: ", ")
        }
        // The largest point's workload speaks for the study: refused beyond --max-events, a
        // warning (once) when large.
        if let largest = study.points.indices.max(by: {
            study.points[$0].scenario.expectedEvents < study.points[$1].scenario.expectedEvents
        }) {
            try checkWorkload(
                study.points[largest].scenario, file: file, maxEvents: limits.maxEvents, point: pointLabels[largest])
        }
        // Outputs are claimed before any work: a shard file may replace only an earlier one.
        var report: ReportDirectory?
        if let position = shardPosition {
            let target = URL(fileURLWithPath: out!).appendingPathComponent(
                ShardFile.fileName(shard: position.index, of: position.count)
            ).path
            try OutputSafety.checkFile(target, label: "--out \(out!)", inputs: [file]) {
                $0.hasPrefix("# odr-sim shard ")
            }
        } else {
            report = try output.claim(
                default: OutputSafety.defaultReport(study.name, suffix: "-sweep"), inputs: [file, study.baseFile])
        }
        var indices = shardPosition.map { plan.shard($0.index, of: $0.count) } ?? Array(plan.runs.indices)
        let started = Date()
        var results = try runWithProgress(
            runner, locations: study.points[0].document.eventLocations, indices: indices, points: pointLabels)
        let platformMetrics = study.points.contains { Metric.hasPlatformMetrics($0.scenario) }
        func misses() -> [Precision.Miss] {
            precision?.misses(results, plan: plan, reference: baseline, platformMetrics: platformMetrics, app: app)
                ?? []
        }
        while !misses().isEmpty && plan.replications < maxReplications {  // --precision: more on the same seeds
            runner = try makeRunner(Precision.next(after: plan.replications, maximum: maxReplications))
            (plan, indices) = (runner.plan, Array(runner.plan.runs.indices))
            results = try runWithProgress(
                runner, locations: study.points[0].document.eventLocations, indices: indices, points: pointLabels)
        }
        let elapsed = Date().timeIntervalSince(started)
        let (lines, appLines) = SweepResults.lines(
            results, indices: indices, plan: plan, values: study.points.map(\.values), platformMetrics: platformMetrics)
        let axisNames = study.axes.map(\.name)
        let what =
            """
            \(study.points.count) points × \(study.policies.count) policies × \(plan.replications) \
            replications
            """
        if let position = shardPosition {
            let (k, n) = (position.index, position.count)
            var file = ShardFile(
                shard: k, count: n, studyDigest: study.digest, totalRuns: plan.runs.count,
                baseline: baseline, name: study.name, axisNames: axisNames,
                runs: Array(zip(indices, lines)).map { (index: $0, line: $1) })
            file.platformMetrics = platformMetrics
            file.baselinePoint = study.baselinePoint
            file.appRuns = appLines.map { (index: $0.0, line: $0.1) }
            let target = URL(fileURLWithPath: out!).appendingPathComponent(ShardFile.fileName(shard: k, of: n))
            try writeAtomically(file.text, to: target.path)
            say(
                String(
                    format: "%@: shard %d/%d, %d of %d runs (%@) in %.2f s; %@",
                    study.name, k, n, indices.count, plan.runs.count, what, elapsed, target.path))
            return
        }
        let sweepResults = SweepResults(
            axisNames: axisNames, baseline: baseline, lines: lines, platformMetrics: platformMetrics,
            baselinePoint: study.baselinePoint, appLines: appLines.map(\.1))
        let robust =
            try robustness
            ? StudyRobustness.check(like: runner, results: results, baseline: baseline, labels: pointLabels) : nil
        let written = try write(
            sweepResults, name: study.name, to: report!, report: !output.noReport,
            extra: robust.map { [("robustness.csv", $0.csv)] } ?? [])
        let comparisons: [Comparison] =
            ((try? app.map(sweepResults.comparisons(app:)) ?? sweepResults.comparisons()) ?? []).map(\.comparison)
        let overall = objective?.recommendOverStudy(
            results, plan: plan, app: app, baseline: baseline, baselinePoint: study.baselinePoint ?? 0,
            labels: pointLabels, offline: offlinePolicies)
        let effects = AxisEffects.effects(
            (try? app.map(sweepResults.comparisons(app:)) ?? sweepResults.comparisons()) ?? [], axisNames: axisNames,
            policy: baseline, metrics: Verdict.headlineMetrics)
        let verdict =
            studyVerdict(comparisons, app: app)
            + (try sweepResults.baselinePairs(app: app)?.verdict(axisNames: axisNames, offline: offlinePolicies) {
                humanValue($1, $0)
            } ?? [])
            + (objective.map {
                Recommendation.study(
                    $0.recommendEachPoint(results, plan: plan, app: app, baseline: baseline, offline: offlinePolicies),
                    points: pointLabels)
            } ?? [])
            + (overall?.lines(humanValue, leftOut: false).enumerated().map {
                $0.offset == 0 ? "Over the study: " + $0.element : $0.element
            } ?? [])
            + (robust.map { [$0.headline] } ?? []) + effects.compactMap { $0.sentence { humanValue($0, $1) } }
        if printing.json {
            say(
                JSONSummary.object([
                    ("command", JSONSummary.string("sweep")), ("study", JSONSummary.string(study.name)),
                    ("file", JSONSummary.string(file)),
                    ("out", JSONSummary.string(report!.path)), ("points", String(study.points.count)),
                    ("policies", JSONSummary.array(study.policies.map(JSONSummary.string))),
                    ("replications", String(plan.replications)),
                    ("precision_met", precision == nil ? "null" : misses().isEmpty ? "true" : "false"),
                    ("recommendation", overall?.json ?? "null"),
                    ("baseline", JSONSummary.string(baseline)), ("runs", String(plan.runs.count)),
                    ("warmup_s", JSONSummary.number(runner.warmup)),
                    ("axis_effects", JSONSummary.array(effects.map(\.json))),
                    ("verdict", JSONSummary.array(verdict.map(JSONSummary.string))),
                    (
                        "verdict_lines",
                        JSONSummary.array(
                            zip(pointLabels, comparisons).map {
                                JSONSummary.object([
                                    ("point", JSONSummary.string($0)), ("lines", OdrSimCLI.verdict($1, app: app).json),
                                ])
                            })
                    ),
                    ("comparison", JSONSummary.records(written.first { $0.0 == "comparison.csv" }?.1 ?? "")),
                ]))
            return
        }
        say(
            "Verdict over \(study.points.count) points against \(baseline)\(app.map { " for app \($0)" } ?? "") "
                + "(\(plan.replications) replications each, paired):"
        )
        for line in verdict { say("  " + line) }
        if precision != nil {
            say(Precision.sentence(misses(), replications: plan.replications) { humanValue($1, $0) })
        }
        say(
            String(
                format: "%@: %d runs (%@) in %.2f s; results in %@/", study.name, plan.runs.count, what, elapsed,
                report!.path))
    }
}

struct SweepMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge a study's shard files into results.csv and comparison.csv.",
        discussion: """
            Reads every shard-K-of-N.csv in DIR, checks that all N shards of one study are there, \
            once each and complete, and writes results.csv and comparison.csv, byte for byte those \
            of `sweep FILE.study` on one machine.
            """)

    @Argument(help: "The directory the shards wrote into.")
    var directory: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(directory): no such directory")
        }
        let names = ((try? fm.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("shard-") && $0.hasSuffix(".csv") }.sorted()
        var shards: [ShardFile] = []
        var paths: [String] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            let text = try readInput(path)
            do { shards.append(try ShardFile.parse(text, name: path)) } catch { throw CommandFailure("\(error)") }
            paths.append(path)
        }
        let merged: SweepResults
        do { merged = try ShardFile.merge(shards, names: paths) } catch {
            throw CommandFailure("\(directory): \(error)")
        }
        let destination = try output.claim(
            default: OutputSafety.defaultReport(shards[0].name, suffix: "-sweep"), inputs: paths)
        try write(merged, name: shards[0].name, to: destination, report: !output.noReport)
        say(
            """
            \(shards[0].name): \(shards.count) shards, \(merged.lines.count) runs merged; results in \
            \(destination.path)/
            """
        )
    }
}

/// `--shard K/N` (already checked to be K/N by the command's validate()), with N checked
/// against the `runs` there are to share: a usage error beyond them.
func checkedShard(_ text: String?, runs: Int, what: String) throws(CommandFailure) -> ShardPosition? {
    guard let text else { return nil }
    guard let position = ShardPosition(text) else {
        throw CommandFailure.usage("--shard must be \(ShardPosition.syntax), not '\(text)'")
    }
    switch position.checked(runs: runs, what: what) {
    case .success(let position): return position
    case .failure(let error): throw CommandFailure.usage(error.message)
    }
}

/// results.csv, comparison.csv and report.html, swapped in together. Everything comes from
/// the result lines, so a merge writes the same bytes as one machine.
@discardableResult
private func write(
    _ results: SweepResults, name: String, to destination: ReportDirectory, report: Bool, extra: [(String, String)] = []
) throws -> [(String, String)] {
    let files: [(String, String)]
    do {
        let comparisons = try results.comparisons()
        // Each axis's values in the order the points first show them.
        let axes = results.axisNames.indices.map { a in
            var values: [String] = []
            for point in comparisons where !values.contains(point.values[a]) { values.append(point.values[a]) }
            return SweepReport.Axis(name: results.axisNames[a], values: values)
        }
        // Beside each axis of quantities, its numbers (from the labels, so a merge writes the
        // same); an axis an explicit point leaves out ("") has none there.
        var results = results
        results.axisNumbers = axes.map { axis in
            AxisQuantity.numbers(of: axis.values.filter { !$0.isEmpty }).map { quantity in
                SweepResults.AxisNumbers(
                    column: axis.name + quantity.suffix,
                    values: Dictionary(
                        zip(axis.values.filter { !$0.isEmpty }, quantity.values), uniquingKeysWith: { a, _ in a }))
            }
        }
        var written = [
            ("results.csv", try results.resultsFile()), ("comparison.csv", results.comparisonCSV(comparisons)),
            ("comparison-long.csv", results.comparisonLongCSV(comparisons)),
        ]
        if let pairs = try results.baselinePairs() {
            written.append(("baseline-pairs.csv", results.baselinePairsCSV(pairs)))
        }
        if !results.appLines.isEmpty {
            written += [("apps.csv", try results.appsFile()), ("comparison-apps.csv", try results.comparisonAppsCSV())]
        }
        if report {
            let policies = comparisons.first?.comparison.policies ?? []
            let lede =
                """
                \(comparisons.count) points × \(policies.count) policies × \(policies.first?.replications ?? 0) \
                replications; paired differences against \(results.baseline).
                """
            var page = SweepReport(
                title: "\(name): study", lede: lede, axes: axes, points: comparisons, palette: reportPalette)
            page.headline = studyVerdict(comparisons.map(\.comparison))
            written.append(("report.html", page.html))
        }
        files = written + extra
    } catch { throw CommandFailure("cannot write reports to \(destination.path): \(error)") }
    try destination.commit(files)
    return files
}
