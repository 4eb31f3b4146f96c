import ArgumentParser
import Experiments
import Foundation
import Metrics
import ODRPolicies
import Quantities
import Reports
import SafeOutput
import ScenarioFile
import TextInput

/// `odr-sim sweep`: a study's grid of points × policies × replications, on this machine or
/// in shards on a cluster.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep", abstract: "Run a study: a scenario varied along axes, every point under every policy.",
        discussion: """
            A study file (.study, YAML) names a base scenario, axes (a place in the scenario and \
            its values) and the policies and replications; see docs/studies.md. \
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
            Run only shard K of N (1 ≤ K ≤ N), written as DIR/shard-K-of-N.csv; merge with `sweep merge DIR` \
            (needs --out DIR).
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
        try warmup.refuseAuto()
        let study = try readStudy(file)
        // --baseline over the study's own (which is apple or the first policy when it names none).
        let baseline =
            try self.baseline.map { try resolveBaseline($0, policies: study.policies).name } ?? study.baseline
        if let app { _ = try appIndex(app, in: study.points[0].document) }
        let runner = try makeRunner(study, replications: study.replications)
        let precision = try targetPrecision()
        let position = try ShardPosition.option(
            shard ?? missing.map(String.init), shard == nil && missing != nil ? "--missing" : "--shard",
            runs: runner.plan.runs.count, what: "runs in the study")
        if let missing, let out { return try census(missing, of: study, plan: runner.plan, in: out) }
        let labels = study.pointLabels
        try checkLargestWorkload(study, labels: labels)
        let report = try claimOutputs(study, shard: position)
        guard let position, let out else { return try fold(study, runner, baseline, report!, precision) }
        try writeShard(position, of: study, runner: runner, baseline, out)
    }

    /// The sweep's files, then its answer (``Reports/StudyAnswer``) on the terminal or as JSON.
    private func answer(
        _ study: Study, _ sweep: SweepResults, runner: ExperimentRunner, objective: Objective?,
        to report: ReportDirectory, missed: [Precision.Miss]?, elapsed: Double, runRows: [[SummaryRow]]
    ) throws {
        let labels = study.pointLabels
        let robust =
            try robustness
            ? StudyRobustness.check(
                like: runner, runRows: runRows, baseline: sweep.baseline, labels: labels, app: app, objective: objective
            )
            : nil
        let files = try SweepFiles.write(
            sweep, name: study.name, to: report, report: !output.noReport, app: app,
            extra: robust.map { [("robustness.csv", $0.csv)] } ?? [], staged: true)
        let answer = try StudyAnswer(
            StudyAnswer.Study(
                name: study.name, file: file, points: study.points.count, policies: study.policies, labels: labels,
                baselinePoint: study.baselinePoint),
            results: sweep, runRows: runRows, plan: runner.plan, warmup: runner.warmup, app: app, objective: objective,
            robustness: robust)
        say(
            printing.json
                ? answer.json(
                    out: report.path, precisionMet: missed.map(\.isEmpty), comparisonCSV: files["comparison.csv"] ?? "")
                : answer.text(missed: missed, elapsed: elapsed, out: report.path))
    }

    /// A whole sweep (`SweepFiles.fold`): each point folded as it finishes, results.csv and
    /// apps.csv written as they go, of each run only the rows an objective, `--precision` or
    /// `--robustness` read; under `--precision`, again with more replications (the same seeds
    /// first) until it is met; then its answer.
    private func fold(
        _ study: Study, _ runner: ExperimentRunner, _ baseline: String, _ report: ReportDirectory,
        _ precision: Precision?
    ) throws {
        let (started, objective) = (Date(), try self.objective.parsed(study))
        var runner = runner
        func folded(_ runner: ExperimentRunner) throws -> (SweepResults, [[SummaryRow]]) {
            try SweepFiles.fold(
                runner, axisNames: study.axes.map(\.name), baseline: baseline, baselinePoint: study.baselinePoint,
                app: app, keepsRows: runner.keepsRunNumbers, locations: study.points[0].document.eventLocations,
                labels: study.pointLabels, into: report)
        }
        var (sweep, runRows) = try folded(runner)
        let missed = try precision?.replicate(
            &runner, &runRows, maximum: maxReplications, reference: baseline, platformMetrics: sweep.platformMetrics
        ) { replications in
            let more = try makeRunner(study, replications: replications)
            let (results, rows) = try folded(more)
            sweep = results
            return (more, rows)
        }
        try answer(
            study, sweep, runner: runner, objective: objective, to: report, missed: missed,
            elapsed: Date().timeIntervalSince(started), runRows: runRows)
    }

    /// The study's plan at `replications` (its policies resolved once here: its parser
    /// accepted only registered names).
    private func makeRunner(_ study: Study, replications: Int) throws -> ExperimentRunner {
        var runner = ExperimentRunner.study(
            ExperimentPlan(
                points: study.points.map { ExperimentPlan.Point($0.document) },
                policies: study.policies.compactMap(PolicyRegistry.descriptor(named:)), replications: replications),
            values: study.points.map(\.values),
            platformMetrics: study.points.contains { Metric.hasPlatformMetrics($0.scenario) }, jobs: jobs.count,
            keepsRunNumbers: try objective.parsed(study) != nil || !precision.isEmpty || robustness)
        runner.maxEvents = limits.maxEvents
        runner.warmup = try warmup.seconds(shortestRun: study.points.map(\.scenario.duration).min() ?? 0)
        return runner
    }

    /// `--precision`, read; a sharded study runs a fixed plan, so neither it nor
    /// `--robustness` goes with `--shard` or `--missing`.
    private func targetPrecision() throws -> Precision? {
        let precision = try parsePrecision(self.precision)
        if precision != nil || robustness, shard != nil || missing != nil {
            throw CommandFailure.usage(
                "--\(robustness ? "robustness" : "precision"): a sharded study runs a fixed plan; run it whole")
        }
        return precision
    }

    /// `--missing N`: a census of the shards, one line each; nothing runs.
    private func census(_ count: Int, of study: Study, plan: ExperimentPlan, in out: String) throws {
        let shards = try ShardCensus.missing(count: count, in: out, studyDigest: study.digest) {
            plan.shard($0, of: count)
        }
        for shard in shards { say("\(shard.shard)\t\(shard.why)") }
    }

    /// The largest point's workload speaks for the study: refused beyond --max-events, a
    /// warning (once) when large.
    private func checkLargestWorkload(_ study: Study, labels: [String]) throws {
        guard let largest = study.largestPoint else { return }
        try checkWorkload(
            study.points[largest].scenario, file: file, maxEvents: limits.maxEvents, point: labels[largest])
    }

    /// Outputs are claimed before any work: a shard file may replace only an earlier one; the
    /// report folder, as every command's. Nil for a shard.
    private func claimOutputs(_ study: Study, shard position: ShardPosition?) throws -> ReportDirectory? {
        guard let position, let out else {
            return try output.claim(
                default: OutputSafety.defaultReport(study.name, suffix: "-sweep"), inputs: [file, study.baseFile])
        }
        let target = ShardFile.path(in: out, shard: position.index, of: position.count)
        try OutputSafety.checkFile(target, label: "--out \(out)", inputs: [file], isOurs: ShardFile.isOne)
        return nil
    }

    /// `--shard K/N`: this shard's runs, of which only their lines are kept (``ShardRuns``),
    /// as DIR/shard-K-of-N.csv, and a line saying so.
    private func writeShard(
        _ position: ShardPosition, of study: Study, runner: ExperimentRunner, _ baseline: String, _ out: String
    ) throws {
        let (started, plan, platformMetrics) = (Date(), runner.plan, runner.studyLines!.platformMetrics)
        let indices = plan.shard(position.index, of: position.count)
        let runs = ShardRuns(count: indices.count, values: study.points.map(\.values), platformMetrics: platformMetrics)
        // ShardRuns writes each run's lines on its thread: no rows are read back from them.
        var runner = runner
        runner.studyLines = nil
        do { try ProgressBar(unit: "runs").run(runner, indices: indices, keepingLinesIn: runs) } catch {
            throw CommandFailure("\(error)")
        }
        let (lines, notices) = runs.finish(
            locations: study.points[0].document.eventLocations, points: study.pointLabels)
        for line in notices { note(line) }
        let file = ShardFile(
            position, of: study.name, studyDigest: study.digest, lines: lines, indices: indices,
            totalRuns: plan.runs.count, axisNames: study.axes.map(\.name), baseline: baseline,
            baselinePoint: study.baselinePoint, platformMetrics: platformMetrics)
        let target = ShardFile.path(in: out, shard: file.shard, of: file.count)
        try writeAtomically(to: target) { (write) throws(PathFailure) in try file.pieces(write) }
        say(
            file.doneLine(
                plan: plan, points: study.points.count, elapsed: Date().timeIntervalSince(started), path: target))
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
        let merged: (name: String, paths: [String], results: SweepResults)
        do { merged = try ShardFile.merge(folder: directory) } catch {
            throw CommandFailure(error.description, located: error.located)
        }
        let destination = try output.claim(
            default: OutputSafety.defaultReport(merged.name, suffix: "-sweep"), inputs: merged.paths)
        try SweepFiles.write(merged.results, name: merged.name, to: destination, report: !output.noReport)
        say(
            """
            \(merged.name): \(merged.paths.count) shards, \(merged.results.lines.count) runs merged; results in \
            \(destination.path)/
            """
        )
    }
}
