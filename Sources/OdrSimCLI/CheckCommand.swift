import ArgumentParser
import Foundation
import Metrics
import Simulation

/// `odr-sim check`: a regression gate against a committed baseline.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Re-run a scenario and fail when a metric moved beyond tolerance from a baseline.",
        discussion: """
        The baseline is a summary.csv (as `run` writes it). The scenario is re-run with the \
        baseline's policies and replications. With one replication a metric fails when it \
        differs from the baseline by more than the tolerance (relative, so a metric that was 0 \
        must stay 0); with several \
        it fails when the new mean leaves the baseline's 95 % interval widened by the \
        tolerance. Each failure names the metric, policy, old and new value; the exit status is \
        1 if any failed. --update rewrites the baseline instead.

        Examples:
          odr-sim check scenarios/game.scn --baseline Reports/baselines/game.csv
          odr-sim check scenarios/game.scn --baseline Reports/baselines/game.csv --tolerance 5%
          odr-sim check scenarios/game.scn --baseline Reports/baselines/game.csv --update
        """)

    @Argument(help: "The scenario file (.scn).")
    var file: String

    @Option(help: "The baseline summary.csv.")
    var baseline: String

    @Option(help: "Allowed relative change, e.g. 2% or 0.02.")
    var tolerance: String = "2%"

    @Flag(help: "Rewrite the baseline with this run's results.")
    var update = false

    @Option(help: "Runs in parallel. Default: all cores.")
    var jobs: Int?

    @Option(name: .customLong("policy"), help: "With --update: policies for a new baseline (default: the scenario's).")
    var policies: [String] = []

    @Option(help: "With --update: replications for a new baseline (default: the scenario's).")
    var replications: Int?

    func run() throws {
        let scenario = try loadScenario(file)
        guard let relative = Self.parseTolerance(tolerance) else {
            fail("--tolerance: '\(tolerance)' is not a percentage like 2% or a fraction like 0.02")
        }
        let jobCount = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        if update {
            let names = try resolvePolicies(policies, scenario: scenario)
            let rows = try ExperimentRunner(scenario: scenario, policies: names, replications: replications,
                                            sampleInterval: 0, recordsEvents: false, jobs: jobCount).run().map(\.summary)
            try writeAtomically(SummaryRow.header + rows.map(\.csvLine).joined(), to: baseline)
            print("\(baseline): baseline written (\(rows.count) rows)")
            return
        }
        let old: [SummaryRow]
        do {
            old = try BaselineFile.read(baseline)
        } catch {
            fail("\(error)")
        }
        var order: [String] = []
        for row in old where !order.contains(row.policy) { order.append(row.policy) }
        let reps = old.filter { $0.policy == order.first }.count
        let rows = try ExperimentRunner(scenario: scenario, policies: order, replications: reps,
                                        sampleInterval: 0, recordsEvents: false, jobs: jobCount).run().map(\.summary)
        let failures = RegressionCheck(baseline: old, current: rows, tolerance: relative).failures
        if failures.isEmpty {
            print("\(file): ok against \(baseline) (\(order.count) policies × \(reps) replication(s), tolerance \(tolerance))")
            return
        }
        for failure in failures { print(failure) }
        fail("\(failures.count) metric(s) moved beyond \(tolerance) from \(baseline)")
    }

    static func parseTolerance(_ text: String) -> Double? {
        if text.hasSuffix("%") { return Double(text.dropLast()).map { $0 / 100 }.flatMap { $0 >= 0 ? $0 : nil } }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// Writes a file via a temporary name and a rename, so a reader never sees half of it.
/// POSIX rename(2) replaces the old file atomically (Foundation's replaceItemAt does not
/// work on Linux).
func writeAtomically(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
    try Data(text.utf8).write(to: temporary)
    guard rename(temporary.path, url.path) == 0 else {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(at: temporary)
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot replace \(path): \(reason)"])
    }
}
