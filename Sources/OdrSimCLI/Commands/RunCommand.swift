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
              packs.csv        what is on disk, pack by pack: phase, bytes, from, to
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

    @OptionGroup var bounds: BoundOption

    func run() throws {
        try warmup.refuseAuto()
        let document = try loadScenario(options.file)
        let descriptors = try resolvePolicies(options.policies, scenario: document)
        let baseline = try resolveBaseline(
            options.baseline, policies: descriptors.map(\.name),
            strategies: ExperimentPlan.Point(document).policiesAreStrategies)
        let interval = try sample.map { try sampleInterval($0, duration: document.scenario.duration) }
        var runs = try ScenarioRuns(document, options, policies: descriptors, warmup: warmup)
        let missed = try precisionPass(&runs, baseline: baseline.name)
        var runner = try runs.runner(bound: bounds.bound, sampleInterval: interval, recordsEvents: !noEvents)
        if !noEvents,
            let refusal = RunFiles.eventRowsRefusal(runs.source, runs: runner.plan.runs.count, limit: maxEventRows)
        {
            throw CommandFailure(refusal)
        }
        let report = try output.claim(default: OutputSafety.defaultReport(document.name), inputs: [options.file])
        // events.csv can outgrow memory on long runs: each run streams its rows into a part
        // file in the report's temporary directory, joined in plan order at the end.
        if !noEvents { runner.eventsDirectory = try report.prepared() }
        let started = Date()
        let results = try runs.run(runner, cleanUp: report.abandon)
        let elapsed = Date().timeIntervalSince(started)
        let files = RunFiles(
            runs.source, results: results, policies: descriptors.map(\.name), baseline: baseline.name,
            app: options.app, replications: runner.replications, warmup: runner.warmup, bound: bounds.bound,
            report: !output.noReport, events: !noEvents)
        try report.commit(
            files.files, joining: noEvents ? nil : results.compactMap(\.eventsPart), into: "events.csv",
            header: RunRecorder.eventsHeader, problem: results.lazy.compactMap(\.writeError).first)
        say(
            printing.json
                ? files.json(out: report.path, precisionMet: missed.map(\.isEmpty))
                : files.text(missed: missed, elapsed: elapsed, out: report.path))
    }

    /// `--precision`: replications doubled on the same seeds, without events, until the
    /// intervals are tight; the run itself is then made at that count. Nil without it.
    private func precisionPass(_ runs: inout ScenarioRuns, baseline: String) throws -> [Precision.Miss]? {
        guard try options.targetPrecision() != nil else { return nil }
        var pass = try runs.runner()
        var passResults = try runs.run(pass)
        let missed = try runs.replicate(&pass, &passResults, reference: baseline)
        runs.options.replications = pass.replications
        return missed
    }

    /// `--sample`, read against the scenario's duration.
    private func sampleInterval(_ text: String, duration: Double) throws -> Double {
        do throws(SampleInterval.Problem) {
            return try SampleInterval.parse(text, duration: duration)
        } catch .notPositive {
            throw CommandFailure.usage("--sample: '\(text)' is not a positive duration (try 30s, 1m, 1h)")
        } catch .tooMany(let samples) {
            throw CommandFailure.usage(
                "--sample: '\(text)' takes \(SampleInterval.describe(samples)) samples over "
                    + "\(humanDuration(duration)); at most \(ModelLimits.samples) per run")
        }
    }
}
