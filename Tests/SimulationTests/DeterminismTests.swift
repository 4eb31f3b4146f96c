import Experiments
import Metrics
import ODRCore
import ODRPolicies
import Testing
import Workload

@testable import Simulation

@Suite("Determinism")
struct DeterminismTests {
    /// A small stochastic scenario: Zipf requests, disk pressure and network spells.
    func stochastic() -> Scenario {
        let tags = (1...12).map { ("t\($0)", Int64($0) * 7 * MB) }
        var s = makeScenario(tags: tags, capacity: 600 * MB, used: 400 * MB, duration: 5 * 86_400) { _ in [] }
        let ids = (0..<12).map { TagID(rawValue: Int32($0)) }
        s.generators = [
            PopularityGenerator(
                app: 0, tags: ids, rate: 40.0 / 86_400, alpha: 0.8, hold: Lognormal(median: 600, sigma: 1)),
            DiskPressureGenerator(
                rate: 3.0 / 86_400, size: Lognormal(median: 30e6, sigma: 1), cleanupRate: 1.0 / 86_400),
            NetworkSpellsGenerator(spells: [
                .init(bandwidth: 20e6, kind: .wifi, mean: 20_000), .init(bandwidth: 0, kind: .wifi, mean: 3_000),
            ]),
        ]
        return s
    }

    func outputs(jobs: Int) throws -> [String] {
        let results = try ExperimentRunner(scenario: stochastic(), replications: 3, sampleInterval: 3600, jobs: jobs)
            .run()
        return results.flatMap { [$0.summary.csvLine, $0.eventRows, $0.sampleRows] }
    }

    @Test("the same scenario and seed give byte-identical reports, whatever the thread count")
    func identical() throws {
        let first = try outputs(jobs: 1)
        #expect(first == (try outputs(jobs: 1)))
        #expect(first == (try outputs(jobs: 2)))
        #expect(first.joined().contains("purge"))
    }

    @Test("replications differ from each other (their seeds differ)")
    func replicationsDiffer() throws {
        let results = try ExperimentRunner(scenario: stochastic(), replications: 3, sampleInterval: 3600).run()
        #expect(results.count == 3)
        #expect(results[0].eventRows != results[1].eventRows)
    }
}

/// Wraps a generator and logs every event its streams yield.
private final class EventLog: @unchecked Sendable { var events: [ScenarioEvent] = [] }

private struct Recording: WorkloadGenerator {
    let inner: any WorkloadGenerator
    let log: EventLog
    var kind: String { inner.kind }

    func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(
            inner: inner.makeStream(scenario: scenario, seed: seed, firstKey: firstKey, keySpace: keySpace), log: log)
    }

    func expectedEvents(over duration: Double) -> Double { inner.expectedEvents(over: duration) }

    struct Stream: EventStream {
        var inner: any EventStream
        let log: EventLog
        mutating func next() -> ScenarioEvent? {
            let event = inner.next()
            if let event { log.events.append(event) }
            return event
        }
    }
}

@Suite("Common random numbers")
struct CommonRandomNumbersTests {
    @Test("every policy sees the identical request stream for the same seed")
    func identicalWorkloads() throws {
        var logs: [String: EventLog] = [:]
        for policy in ["apple", "lru", "largest-first"] {
            let log = EventLog()
            var s = DeterminismTests().stochastic()
            s.generators = s.generators.map { Recording(inner: $0, log: log) }
            let descriptor = try #require(PolicyRegistry.descriptor(named: policy))
            Simulator(scenario: s, policy: descriptor.make(PolicyContext(seed: s.seed))).run()
            logs[policy] = log
        }
        let requests = logs["apple"]!.events.filter { if case .request = $0.action { true } else { false } }
        #expect(requests.count > 100)
        #expect(logs["apple"]!.events == logs["lru"]!.events)
        #expect(logs["apple"]!.events == logs["largest-first"]!.events)
    }
}
