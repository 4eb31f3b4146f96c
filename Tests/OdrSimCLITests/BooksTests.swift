import Experiments
import Foundation
import Metrics
import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

/// Issue 18: summary.csv's books balance, and installs are not requests.
@Suite("The books of summary.csv")
struct BooksTests {
    static let shipped = ["game", "photo-filters", "tvos-big-tags", "overpurge-stress"]

    /// requests = granted + failed + cancelled + conditional misses + pending at the end.
    static func balance(_ row: SummaryRow) -> (Double, Double) {
        (
            row[.requests],
            row[.granted] + row[.failedRequests] + row[.cancelled] + row[.conditionalMisses] + row[.pendingAtEnd]
        )
    }

    @Test("for every shipped scenario under every policy, each request is accounted for once", arguments: shipped)
    func shippedScenariosBalance(name: String) throws {
        let path = CLI.repository.appendingPathComponent("Scenarios/\(name).scn").path
        let scenario = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: path).scenario
        let rows = try ExperimentRunner(
            scenario: scenario, policies: PolicyRegistry.all, replications: 2,
            sampleInterval: 0, recordsEvents: false, jobs: 2
        ).run().map(\.summary)
        #expect(rows.count == 2 * PolicyRegistry.names.count)
        for row in rows {
            let (requests, outcomes) = Self.balance(row)
            #expect(
                requests == outcomes,
                "\(name) \(row.policy) replication \(row.replication): \(requests) requests, \(outcomes) outcomes")
            // The failure columns add up to failed_requests.
            let byError = [
                Metric.failedOutOfSpace, .failedNoNetwork, .failedCellular, .failedInUseLimit,
                .failedInvalidTag, .failedAppNotInstalled,
            ].reduce(0.0) { $0 + row[$1] }
            #expect(byError == row[.failedRequests])
        }
    }

    @Test(
        """
        for every shipped scenario, replication and policy, the re-download bound is at most what the run \
        re-downloaded
        """,
        arguments: shipped)
    func redownloadBound(name: String) throws {
        let path = CLI.repository.appendingPathComponent("Scenarios/\(name).scn").path
        let scenario = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: path).scenario
        var runner = ExperimentRunner(
            scenario: scenario, policies: PolicyRegistry.all, replications: 3,
            sampleInterval: 0, recordsEvents: false, jobs: 2)
        runner.computesRedownloadBound = true
        let results = try runner.run()
        #expect(results.count == 3 * PolicyRegistry.names.count)
        for r in results {
            let bound = try #require(r.redownloadBound)
            #expect(
                Double(bound) <= r.summary[.redownloadBytes],
                "\(name) \(r.summary.policy) replication \(r.summary.replication)")
        }
        // Not vacuous: these scenarios force re-downloads in every replication. (In game's
        // first three there is room to keep every granted pack; from its fifth, there is not.)
        if name != "game" {
            #expect(results.allSatisfy { ($0.redownloadBound ?? 0) > 0 }, "\(name)")
        }
    }

    @Test(
        """
        one app's re-download bound (issue 50, advise's): at most the app's re-downloads and the device's bound; the \
        device's own where the app is the only one
        """,
        arguments: shipped + ["shared-phone"])
    func appRedownloadBound(name: String) throws {
        let path = CLI.repository.appendingPathComponent("Scenarios/\(name).scn").path
        let scenario = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: path).scenario
        func results(app: String?) throws -> [ExperimentRunner.RunResult] {
            var runner = ExperimentRunner(
                scenario: scenario, policies: [LRUPolicy.descriptor], replications: 3, sampleInterval: 0,
                recordsEvents: false, jobs: 2)
            runner.computesRedownloadBound = true
            runner.boundApp = app
            return try runner.run()
        }
        let device = try results(app: nil)
        for app in scenario.apps.map(\.id) {
            for (whole, one) in zip(device, try results(app: app)) {
                let bound = try #require(one.redownloadBound)
                let row = try #require(one.apps.first { $0.app == app })
                #expect(Double(bound) <= row[.redownloadBytes], "\(name) \(app) replication \(row.replication)")
                if scenario.apps.count == 1 {
                    #expect(bound == whole.redownloadBound, "\(name): the only app's bound is the device's")
                } else {
                    #expect(bound <= whole.redownloadBound ?? 0, "\(name) \(app): within the device's bound")
                }
            }
        }
    }

    @Test(
        "the device's invariants hold after every kernel event of every shipped scenario, under every policy",
        arguments: shipped)
    func invariantsAfterEveryEvent(name: String) throws {
        let path = CLI.repository.appendingPathComponent("Scenarios/\(name).scn").path
        let scenario = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: path).scenario
        for descriptor in PolicyRegistry.names.compactMap(PolicyRegistry.descriptor(named:)) {
            let future =
                descriptor.needsFuture
                ? FutureRequests(requests: ScenarioStreams.requests(of: scenario, seed: scenario.seed)) : nil
            let simulator = Simulator(scenario: scenario, policy: descriptor.make(PolicyContext(future: future)))
            var violations: [String] = []
            while violations.count < 5, let time = simulator.peek() {
                simulator.step()
                violations += simulator.device.checkInvariants().map { "t=\(time): \($0)" }
            }
            simulator.finish()
            violations += simulator.device.checkInvariants().map { "at the end: \($0)" }
            #expect(simulator.processedEvents > 100, "\(name) \(descriptor.name)")
            #expect(violations.isEmpty, "\(name) \(descriptor.name): \(violations)")
        }
    }

    @Test("an install that cannot get its space is an install failure, not a failed request")
    func installFailure() throws {
        // 100 MB free; the initial-install tag needs 300 MB. No request is ever made.
        let text = """
            duration: 1h
            device: {capacity: 1000MB, used: 900MB}
            apps:
              - id: game
                resources:
                  - {name: core, size: 300MB, tags: [core]}
                tags:
                  core: {category: initial-install}
            events:
              - {at: 0, app: game, install: true}

            """
        let scenario = try ScenarioParser(knownPolicies: ["apple"]).parse(text, fileName: "install.scn").scenario
        let row = try ExperimentRunner(scenario: scenario, sampleInterval: 0, recordsEvents: false).run()[0].summary
        #expect(row[.installFailures] == 1)
        #expect(row[.requests] == 0)
        #expect(row[.failedRequests] == 0)
        #expect(row[.failedOutOfSpace] == 0)
    }

    @Test("cancelled, conditional-miss and still-waiting requests are counted (a hand-made run)")
    func everyOutcome() throws {
        // 8 Mbps = 1 MB/s. r1 (10 MB) would take 10 s: it is ended at 5 s, which cancels it;
        // the 5 MB received stay on the disk (partially downloaded). r2 is a conditional begin
        // of a tag not on the device: a miss. r5 gets b (1 MB) from 7 s to 8 s; r4 of b at
        // 10 s is a hit. r3 asks for a again at 20 s: the 5 MB left take until 25 s, after
        // the end (24 s), so it is still waiting.
        let text = """
            duration: 24s
            device: {capacity: 1000MB}
            network: [{at: 0, bandwidth: 8Mbps, kind: wifi}]
            apps:
              - id: game
                resources:
                  - {name: a, size: 10MB, tags: [a]}
                  - {name: b, size: 1MB, tags: [b]}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, request: [a], id: r1}
              - {at: 5s, app: game, end: r1}
              - {at: 6s, app: game, request-if-present: [a], id: r2}
              - {at: 7s, app: game, request: [b], id: r5}
              - {at: 10s, app: game, request: [b], id: r4}
              - {at: 20s, app: game, request: [a], id: r3}

            """
        let scenario = try ScenarioParser(knownPolicies: ["apple"]).parse(text, fileName: "books.scn").scenario
        let row = try ExperimentRunner(scenario: scenario, sampleInterval: 0, recordsEvents: false).run()[0].summary
        #expect(row[.requests] == 5)
        #expect(row[.cancelled] == 1)  // r1
        #expect(row[.conditionalMisses] == 1)  // r2
        #expect(row[.granted] == 2)  // r5 at 8 s (1 MB at 1 MB/s), r4 at once (a hit)
        #expect(row[.pendingAtEnd] == 1)  // r3: 4 of its 5 missing MB received
        #expect(row[.failedRequests] == 0)
    }
}

/// Issue 18: what `--help` says a default is, the command does.
@Suite("Documented defaults", .serialized)
struct DocumentedDefaultsTests {
    func policies(in summary: URL) throws -> [String] {
        let rows = try CSVReader.records(String(contentsOf: summary, encoding: .utf8)).dropFirst()
        var seen: [String] = []
        for row in rows where !seen.contains(row.fields[0]) { seen.append(row.fields[0]) }
        return seen
    }

    @Test("--policy: run defaults to the scenario's policies, compare to every registered one, as --help says")
    func policyDefaults() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let help = try CLI.run(["compare", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("(for compare: every registered policy)"))
        let compare = try CLI.run(["compare", "s.scn", "--replications", "2", "--out", "c"], in: dir)
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(try policies(in: dir.appendingPathComponent("c/summary.csv")) == PolicyRegistry.names)
        let run = try CLI.run(["run", "s.scn", "--out", "r"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        // small.scn: policies: [apple]
        #expect(try policies(in: dir.appendingPathComponent("r/summary.csv")) == ["apple"])
    }
}

/// Issue 18: one unit per column, and no interval of a non-negative quantity below zero.
@Suite("Tables and intervals")
struct TableTruthTests {
    @Test("compare's wait column has one unit; byte intervals and comparison.csv's ci_low stay at or above 0")
    func unitsAndIntervals() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "compare", "Scenarios/game.scn", "--replications", "3", "--out", dir.appendingPathComponent("c").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // The table follows the verdict: its header, a rule, then one row per policy.
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let tableHeader = try #require(lines.firstIndex { $0.hasPrefix("rank") })
        let rows = lines[(tableHeader + 2)...].prefix { !$0.isEmpty && $0.first!.isNumber }
        #expect(rows.count == PolicyRegistry.names.count)
        let units = Set(rows.map { $0.split(separator: " ").last.map(String.init) ?? "" })
        #expect(units.count == 1, "\(units)")
        #expect(!result.stdout.contains("(-"))
        let csv = try CSVReader.records(
            String(contentsOf: dir.appendingPathComponent("c/comparison.csv"), encoding: .utf8))
        let header = csv[0].fields
        for row in csv.dropFirst() {
            for (i, name) in header.enumerated() where name.hasSuffix("_ci_low") && !name.contains("_diff_") {
                // Empty only for an interval without bounds: a spread of 0 (the `_sd` two columns before).
                if row.fields[i].isEmpty {
                    #expect(Double(row.fields[i - 1]) == 0, "\(row.fields[0]) \(name) empty with a spread")
                    continue
                }
                #expect((Double(row.fields[i]) ?? -1) >= 0, "\(row.fields[0]) \(name) = \(row.fields[i])")
            }
        }
    }
}
