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

    @OptionGroup var bounds: BoundOption

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
        if let problem = SelectBest.problem(confidence: confidence) { throw ValidationError("--confidence \(problem)") }
    }

    func run() throws {
        let document = try loadScenario(options.file)
        // Where the app evicts, the candidates are the scenario's own strategies (system purge
        // orders such as apple are no app's code); elsewhere every registered policy.
        let strategies = ExperimentPlan.Point(document).policiesAreStrategies
        let descriptors =
            options.policies.isEmpty && !strategies
            ? PolicyRegistry.all : try resolvePolicies(options.policies, scenario: document)
        var request = CompareFiles.Request(
            policies: descriptors.map(\.name),
            baseline: try resolveBaseline(options.baseline, policies: descriptors.map(\.name), strategies: strategies),
            app: options.app)
        _ = try options.targetPrecision()
        (request.objective, request.bound) = (try objective.parsed(), bounds.bound)
        let target = try selectBest.map { name in
            do { return try SelectBest.target(metric: name, indifference: indifference) } catch {
                throw CommandFailure.usage("\(error)")
            }
        }
        let runs = try ScenarioRuns(document, options, policies: descriptors, warmup: warmup)
        var runner = try runs.runner(bound: bounds.bound)
        let report = try output.claim(
            default: OutputSafety.defaultReport(document.name, suffix: "-compare"), inputs: [options.file])
        let started = Date()
        request.selection = try target.map { try (select($0, runs), $0.metric) }
        request.autoWarmup = try autoWarmup(runs)
        if let seconds = request.autoWarmup?.seconds, seconds > 0 { runner.warmup = seconds }
        var results = try runs.run(runner)
        request.missed = try runs.replicate(&runner, &results, reference: request.baseline.name, bound: bounds.bound)
        let elapsed = Date().timeIntervalSince(started)
        request.fixedStrategiesNote = ExperimentPlan.Point(document).fixedStrategiesNote
        let files = try CompareFiles(
            runs.source, results: results, request: request, replications: runner.replications,
            warmup: runner.warmup, report: !output.noReport,
            robustness: robustness ? runner : nil)
        try report.commit(files.files)
        if let line = files.identicalNote, !printing.json { note("odr-sim: note: \(line)") }
        say(printing.json ? files.json(out: report.path) : files.text(elapsed: elapsed, out: report.path))
    }

    /// `--warmup auto`: a first pass with samples, MSER-5 on it; nil without it.
    private func autoWarmup(_ runs: ScenarioRuns) throws -> MSER.Found? {
        guard warmup.isAuto else { return nil }
        let first = try runs.run(runs.runner(bound: bounds.bound, sampleInterval: nil))
        do { return try MSER.warmup(first, finiteStory: runs.document.scenario.generators.isEmpty) } catch {
            throw CommandFailure.usage("--warmup auto: \(error)")
        }
    }

    /// `--select-best`: KN over every replication index of one plan of `--max-replications`.
    private func select(_ target: (metric: Metric, delta: Double), _ runs: ScenarioRuns) throws -> SelectBest {
        let all = try runs.runner(replications: options.maxReplications)
        do {
            return try SelectBest.run(
                on: all, metric: target.metric, indifference: target.delta, confidence: confidence, app: options.app
            ) { indices in try runs.run(all, indices: indices) }
        } catch let failure as SelectBest.Failure { throw CommandFailure.usage("--select-best: \(failure)") }
    }
}
