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

/// `odr-sim check`: a regression gate against a committed baseline.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Re-run a scenario and fail when a metric moved beyond tolerance from a baseline.",
        discussion: """
            The baseline is a summary.csv (as `run` writes it). The scenario is re-run with its \
            policies, replications and seeds, and each replication is compared with its own row: \
            a metric fails when it moved by more than the tolerance (--statistical: means against \
            the baseline's 95 % intervals). --max-increase makes it a CI gate instead: only a rise \
            beyond a limit fails, improvements pass, and the scenario may have changed.

            It fails, whatever the values, when not everything can be compared (a baseline \
            without rows, a policy, replication, seed or metric on one side only, a value that \
            is not a number, another scenario's baseline), and says what it compared on \
            success. Exit status 1 on any failure. --update rewrites the baseline instead.

            Examples:
              odr-sim check scenarios/game.scn --baseline Reports/baselines/game.csv
              odr-sim check scenarios/game.scn --baseline Reports/baselines/game.csv --max-increase redownload_bytes=5%
              odr-sim check scenarios/game.scn --baseline Reports/baselines/game.csv --junit check.xml
              odr-sim check scenarios/game.scn --baseline Reports/baselines/game.csv --update
            """)

    @Argument(help: "The scenario file (.scn).")
    var file: String

    @Option(help: "The baseline summary.csv.")
    var baseline: String

    @Option(help: "Allowed relative change, e.g. 2% or 0.02.")
    var tolerance: String = "2%"

    @Flag(help: "Compare means against the baseline's 95 % intervals instead of each replication against its own.")
    var statistical = false

    @Option(
        help: ArgumentHelp(
            "Also write the check's or the gate's result as a JUnit XML report (a test case per policy and metric).",
            valueName: "file"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            """
            A CI gate instead of the exact check (repeatable): fail only when METRIC's mean rises by more than LIMIT \
            (5% of the baseline, or 20MB, 2s, 1) on the baseline's seeds, one-sided on its 95 % interval; the \
            scenario may have changed.
            """,
            valueName: "metric=limit"))
    var maxIncrease: [String] = []

    @Flag(help: "With --max-increase: accept a policy that replaced the baseline's, gated against its rows.")
    var allowPolicyChange = false

    @Flag(help: "Rewrite the baseline with this run's results.")
    var update = false

    @Option(
        help: ArgumentHelp(
            """
            One app's own numbers (its apps.csv rows, the device's metrics nan): the baseline --update writes, the \
            check and the gate.
            """,
            valueName: "id"))
    var app: String?

    @OptionGroup var jobs: JobOptions

    @Option(name: .customLong("policy"), help: "With --update: policies for a new baseline (default: the scenario's).")
    var policies: [String] = []

    @Option(help: "With --update: replications for a new baseline (default: the scenario's).")
    var replications: Int?

    @OptionGroup var limits: RunLimits

    @OptionGroup var printing: FormatOption

    func validate() throws { try validateReplications(replications) }

    func run() throws {
        let document = try loadScenario(file)
        let strategy = try app.flatMap { document.scenario.apps[try appIndex($0, in: document)].eviction.strategy }
        guard let relative = RegressionCheck.tolerance(from: tolerance) else {
            throw CommandFailure.usage(
                "--tolerance: '\(tolerance)' is not a percentage like 2% or a fraction like 0.02")
        }
        let gateLimits = try maxIncrease.map { text in
            do { return try RegressionGate.Limit.parse(text) } catch {
                throw CommandFailure.usage("--max-increase: \(error)")
            }
        }
        try claimOutputs()
        if update { return try writeBaseline(document, strategy: strategy) }
        let old: BaselineFile
        do { old = try BaselineFile.read(baseline) } catch { throw CommandFailure("\(error)", located: true) }
        if !gateLimits.isEmpty { return try gate(document, against: old, limits: gateLimits, strategy: strategy) }
        let rows = try rerun(document, like: old)
        let check = RegressionCheck(
            baseline: old, current: rows, tolerance: relative, method: statistical ? .statistical : .pairwise)
        if let junit { try writeAtomically(JUnitReport.xml(check, name: document.name), to: junit) }
        try judge(CheckAnswer(check, file: file, baseline: baseline, tolerance: tolerance))
    }

    /// `--max-increase`: the baseline's runs again, with the scenario's policy or the app's own
    /// `strategy` where it changed (``Metrics/PolicyChange``: what ships is what is gated), judged.
    private func gate(
        _ document: ScenarioDocument, against old: BaselineFile, limits: [RegressionGate.Limit], strategy: String?
    ) throws {
        let plan = try refusedAsFailure { () throws(RegressionCheck.RerunRefusal) in
            try RegressionCheck.gatePlan(
                of: old, at: baseline, scenarioPolicies: document.policies, app: app.map { ($0, strategy) })
        }
        let rows = SummaryRow.labelled(
            plan.policies.isEmpty ? [] : try rerun(document, policies: plan.policies, replications: plan.replications),
            as: plan.label)
        let gate = RegressionGate(baseline: plan.baselineRows, current: rows, limits: limits)
        var answer = GateAnswer(gate: gate, change: plan.change, hashes: nil, acceptsChange: allowPolicyChange)
        answer.compare(baselineHash: old.scenarioHash, with: document.sourceDigest)
        try judge(answer, of: document)
    }

    /// The gate's lines (or JSON) and `--junit`; it fails with ``Reports/GateAnswer/failure(against:)``.
    private func judge(_ answer: GateAnswer, of document: ScenarioDocument) throws {
        let text = printing.json ? answer.json(file: file, baseline: baseline, app: app) : answer.text
        if let junit { try writeAtomically(answer.junit(name: document.name), to: junit) }
        if !text.isEmpty { say(text) }
        if let failure = answer.failure(against: baseline) { throw CommandFailure(failure) }
    }

    /// The check: ok, or the values that moved (or what keeps the baseline from being compared).
    private func judge(_ answer: CheckAnswer) throws {
        for warning in answer.warnings { note(warning) }
        for line in answer.lines(json: printing.json, app: app) { say(line) }
        if let failure = answer.failure { throw CommandFailure(failure) }
    }

    /// Outputs are claimed before any work: each may replace only a file odr-sim wrote.
    private func claimOutputs() throws {
        if update {
            try OutputSafety.checkFile(
                baseline, label: "--baseline \(baseline)", inputs: [file], isOurs: BaselineFile.isOne)
        }
        if let junit {
            try OutputSafety.checkFile(
                junit, label: "--junit \(junit)", inputs: [file, baseline], isOurs: JUnitReport.isOne)
        }
    }

    /// `--update`: the scenario's policies and replications (or the flags'), written as the baseline.
    private func writeBaseline(_ document: ScenarioDocument, strategy: String?) throws {
        let rows = try rerun(
            document, policies: try resolvePolicies(policies, scenario: document), replications: replications)
        let platform = Metric.hasPlatformMetrics(document.scenario)
        try writeAtomically(SummaryRow.csv(rows, platformMetrics: platform, strategy: strategy), to: baseline)
        say("\(baseline): baseline written (\(rows.count) rows)")
    }

    /// The baseline's policies and replications run again on its seeds.
    private func rerun(_ document: ScenarioDocument, like old: BaselineFile) throws -> [SummaryRow] {
        let plan = try refusedAsFailure { () throws(RegressionCheck.RerunRefusal) in
            try RegressionCheck.rerun(of: old, at: baseline)
        }
        return plan.policies.isEmpty
            ? [] : try rerun(document, policies: plan.policies, replications: plan.replications)
    }

    /// `make`'s plan, or its refusal as the command's failure (a line at the baseline's path).
    private func refusedAsFailure<Plan>(_ make: () throws(RegressionCheck.RerunRefusal) -> Plan) throws -> Plan {
        do { return try make() } catch { throw CommandFailure(error.description, located: true) }
    }

    private func rerun(_ document: ScenarioDocument, policies: [PolicyDescriptor], replications: Int?) throws
        -> [SummaryRow]
    {
        var runner = experimentRunner(
            document, policies: policies, replications: replications, sampleInterval: 0, recordsEvents: false,
            jobs: jobs.count)
        runner.maxEvents = limits.maxEvents
        return try runWithProgress(runner, locations: document.eventLocations).summaryRows(
            app: app, scenarioHash: document.sourceDigest, guarded: false)
    }
}
