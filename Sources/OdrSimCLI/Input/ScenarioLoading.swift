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
import TextInput

/// Options shared by the commands that run a scenario.
struct ScenarioRunOptions: ParsableArguments {
    @Argument(help: "The scenario file (.scn).")
    var file: String

    @Option(
        name: .customLong("policy"),
        help:
            """
            A purge policy to run (repeatable). Default: the scenario's `policies` (for compare: every registered \
            policy). See `odr-sim policies`.
            """
    )
    var policies: [String] = []

    @Option(help: "Replications: independent seeded workloads per policy. Default: the scenario's `replications`.")
    var replications: Int?

    @Option(
        help: ArgumentHelp(
            """
            The policy paired differences are taken against (comparison.csv, the report). Default: apple when it \
            runs, else the first policy.
            """,
            valueName: "policy"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            """
            Show this app's own numbers (its rows of apps.csv) in the table, the verdict and the report's headline; \
            the files keep every app.
            """,
            valueName: "id"))
    var app: String?

    @Option(
        help: ArgumentHelp(
            """
            Add replications, doubling on the same seeds, until every main metric's 95 % half-width is within P for \
            every policy: 5% of its mean, or METRIC=VALUE such as redownload_bytes=20MB (repeatable).
            """,
            valueName: "p"))
    var precision: [String] = []

    @Option(help: "With --precision: the most replications to run.")
    var maxReplications = 1000

    @OptionGroup var jobs: JobOptions

    @OptionGroup var limits: RunLimits

    func validate() throws {
        try validateReplications(replications)
        try validateReplications(maxReplications, flag: "--max-replications")
    }

    /// `--precision`, read; nil without it.
    func targetPrecision() throws -> Precision? { try parsePrecision(precision) }

    var jobCount: Int { jobs.count }
}

/// `--precision` (repeatable) of run, compare and sweep; nil without it.
func parsePrecision(_ texts: [String]) throws -> Precision? {
    guard !texts.isEmpty else { return nil }
    do {
        return try Precision.parse(texts)
    } catch { throw CommandFailure.usage("--precision: \(error)") }
}

/// The bounds of --replications (or another count of replications, `flag`), for every command.
func validateReplications(_ replications: Int?, flag: String = "--replications") throws {
    if let replications, !(1...ModelLimits.replications).contains(replications) {
        throw ValidationError("\(flag) must be between 1 and \(ModelLimits.replications)")
    }
}

/// Loads a scenario file or exits with the parser's one-line `FILE:LINE:COLUMN: reason`.
package func loadScenario(_ path: String) throws -> ScenarioDocument {
    let document: ScenarioDocument
    do {
        document = try scenarioParser().parseFile(atPath: path)
    } catch {
        // Exactly `FILE:LINE:COLUMN: reason`, so editors and CI annotations can jump to it.
        throw CommandFailure("\(error)", located: true)
    }
    return document
}

/// The scenario parser with the policy registry's names, options and offline policies: the
/// one set of rules for a scenario, whichever command or study point it comes from.
func scenarioParser() -> ScenarioParser {
    ScenarioParser(
        knownPolicies: PolicyRegistry.names, policyOptions: PolicyRegistry.options,
        offlinePolicies: PolicyRegistry.offline)
}

/// Loads a study file or exits with the parser's one-line `FILE:LINE:COLUMN: reason`.
func readStudy(_ path: String) throws -> Study {
    do { return try studyParser().parseFile(atPath: path) } catch { throw CommandFailure("\(error)", located: true) }
}

/// The study parser with the same rules as ``scenarioParser()`` at every point.
func studyParser() -> StudyParser {
    StudyParser(
        knownPolicies: PolicyRegistry.names, policyOptions: PolicyRegistry.options,
        offlinePolicies: PolicyRegistry.offline)
}

/// Resolves policy names given on the command line (`--policy`), or the scenario's; an
/// unknown one is a misuse of the command line.
package func resolvePolicies(_ requested: [String], scenario: ScenarioDocument) throws -> [PolicyDescriptor] {
    try resolvePolicyFlags(requested.isEmpty ? scenario.policies : requested, option: "--policy")
}

/// The experiment a command runs on a scenario file, built once from its options: the
/// policies (resolved), `--replications` or the file's, `--sample` or the file's `sample`
/// (0 takes none; nil lets the runner choose).
func experimentRunner(
    _ document: ScenarioDocument, policies: [PolicyDescriptor], replications: Int?,
    sampleInterval: Double?, recordsEvents: Bool, jobs: Int
) -> ExperimentRunner {
    let plan = ExperimentPlan(
        points: [ExperimentPlan.Point(document)], policies: policies,
        replications: max(1, replications ?? document.replications))
    return ExperimentRunner(
        plan: plan, sampleInterval: sampleInterval ?? document.sampleInterval, recordsEvents: recordsEvents, jobs: jobs)
}

extension ExperimentPlan.Point {
    /// A scenario file as a point of a plan: its scenario (its apps' strategies and system
    /// policy in it, resolved by the registry at each run), policy options and digest.
    package init(_ document: ScenarioDocument) {
        self.init(document.scenario, policyOptions: document.policyOptions, sourceDigest: document.sourceDigest)
    }
}

/// ``PolicyRegistry/resolve(_:)-([String])`` for `--policy` flags: one wording, exit 64.
/// `option` is the flag the names came from, which the error names (`--strategy lruu` is
/// an error of `--strategy`, not of `--policy`).
func resolvePolicyFlags(_ names: [String], option: String) throws -> [PolicyDescriptor] {
    do {
        return try PolicyRegistry.resolve(names)
    } catch { throw CommandFailure.usage("\(option): \(error)") }
}

/// The index of the app `--app` names; a usage error naming the apps there are.
func appIndex(_ app: String, in document: ScenarioDocument) throws -> Int {
    do { return try document.appIndex(of: app).get() } catch { throw CommandFailure.usage("--app: \(error)") }
}

/// The runs `run` and `compare` make of a scenario file, from their shared options: the plan
/// (policies × replications on common seeds), `--max-events`, `--bound` and `--warmup`, the
/// workload checked against the event limit before anything starts, and `--precision`.
struct ScenarioRuns {
    let document: ScenarioDocument
    var options: ScenarioRunOptions
    let policies: [PolicyDescriptor]
    let warmup: WarmupOption

    init(
        _ document: ScenarioDocument, _ options: ScenarioRunOptions, policies: [PolicyDescriptor], warmup: WarmupOption
    )
        throws
    {
        if let app = options.app { _ = try appIndex(app, in: document) }
        (self.document, self.options, self.policies, self.warmup) = (document, options, policies, warmup)
    }

    /// What the reports say of the scenario.
    var source: ScenarioSource {
        ScenarioSource(
            name: document.name, description: document.description, file: options.file, scenario: document.scenario)
    }

    /// The runner of `replications` (the options' by default).
    func runner(
        replications: Int? = nil, bound: Bool = false, sampleInterval: Double? = 0, recordsEvents: Bool = false
    ) throws -> ExperimentRunner {
        var runner = experimentRunner(
            document, policies: policies, replications: replications ?? options.replications,
            sampleInterval: sampleInterval, recordsEvents: recordsEvents, jobs: options.jobCount)
        runner.maxEvents = options.limits.maxEvents
        runner.computesRedownloadBound = bound
        runner.warmup = try warmup.seconds(shortestRun: document.scenario.duration, bound: bound)
        try checkWorkload(document.scenario, file: options.file, maxEvents: runner.maxEvents)
        return runner
    }

    /// Runs `runner`'s plan (all of it, or `indices`), with progress and notices.
    func run(_ runner: ExperimentRunner, indices: [Int]? = nil, cleanUp: () -> Void = {}) throws
        -> [ExperimentRunner.RunResult]
    {
        try runWithProgress(runner, locations: document.eventLocations, indices: indices, cleanUp: cleanUp)
    }

    /// `--precision`: the runs again with twice the replications (the same seeds first) until
    /// every main metric's interval is narrow enough for every policy, or `--max-replications`;
    /// what still misses it, nil without `--precision`.
    func replicate(
        _ runner: inout ExperimentRunner, _ results: inout [ExperimentRunner.RunResult], reference: String,
        bound: Bool = false
    ) throws -> [Precision.Miss]? {
        guard let precision = try options.targetPrecision() else { return nil }
        return try precision.replicate(
            &runner, &results, maximum: options.maxReplications, reference: reference,
            platformMetrics: Metric.hasPlatformMetrics(document.scenario), app: options.app
        ) { replications in
            let more = try self.runner(replications: replications, bound: bound)
            return (more, try run(more))
        }
    }
}

/// The policy paired differences are taken against: `--baseline` (one of `policies`), or the
/// usual one (``Metrics/BaselineChoice``), with a sentence saying which when it is not `apple`.
func resolveBaseline(_ requested: String?, policies: [String], strategies: Bool = false) throws -> (
    name: String, note: String?
) {
    do { return try BaselineChoice.resolve(requested, among: policies, strategies: strategies) } catch {
        throw CommandFailure.usage(error.description)
    }
}

/// `--objective` and `--limit`: what a team wants, so that compare's and sweep's verdict ends
/// in one recommendation (``Objective``).
struct ObjectiveOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            End the verdict in one recommendation: the policy with the lowest mean of this weighted sum (bytes), \
            among those within every --limit. Terms are METRIC or WEIGHT*METRIC, WEIGHT bytes per unit \
            (1MB*wait_p95_s). Default with a --limit: advise's, \(Objective.adviseDefault).
            """,
            valueName: "sum"))
    var objective: String?

    @Option(
        name: .customLong("limit"),
        help: ArgumentHelp(
            """
            A hard limit for the recommendation (repeatable): METRIC<=VALUE on its mean (wait_p95_s<=60s), or \
            METRIC<=baseline, not significantly more than the baseline (paired).
            """,
            valueName: "limit"))
    var limits: [String] = []

    /// The command line's objective, else the study's (`objective:`, `limits:`; a bad one named at its place).
    func parsed(_ study: Study) throws -> Objective? {
        guard objective == nil && limits.isEmpty, study.objective != nil || !study.limits.isEmpty else {
            return try parsed()
        }
        do {
            return try Objective.parse(
                written: study.objective.map { ($0.text, $0.location) },
                limits: study.limits.map { ($0.text, $0.location) })
        } catch { throw CommandFailure(error.description, located: true) }
    }

    /// The objective given, or nil without --objective and --limit.
    func parsed() throws -> Objective? {
        do {
            return try objective == nil && limits.isEmpty ? nil : Objective.parse(objective, limits: limits)
        } catch { throw CommandFailure.usage("\(error.inLimit ? "--limit" : "--objective"): \(error)") }
    }
}
