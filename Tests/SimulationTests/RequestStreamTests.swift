import ODRCore
import Testing

@testable import Simulation

/// Emits requests for one tag at fixed times (several at the same instant as other streams).
private struct FixedRequests: WorkloadGenerator {
    let kind = "fixed"
    let tag: TagID
    let times: [Double]

    func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        ArrayEventStream(
            times.enumerated().map { i, t in
                ScenarioEvent(
                    time: t, action: .request(0, tags: [tag], key: firstKey + i, priority: .normal, optional: false))
            })
    }

    func expectedEvents(over duration: Double) -> Double { Double(times.count) }
}

/// Records which pack each request ordinal touched, as the device numbers them.
private final class OrdinalLog: PurgePolicy {
    let name = "ordinal-log"
    var readsPackHistory: Bool { true }
    var seen: [(ordinal: Int64, pack: PackID)] = []
    func packRequested(_ pack: PurgeCandidate) { seen.append((pack.lastRequestOrdinal, pack.pack)) }
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] { view.candidates.map(\.pack) }
}

@Suite("The offline pre-pass sees requests in run order")
struct RequestStreamTests {
    @Test("same-time events from the script and two generators get the ordinals the device gives them")
    func ordinalsMatch() {
        var s = makeScenario(tags: [("a", 1 * MB), ("b", 1 * MB), ("c", 1 * MB)], duration: 100) { tag in
            [request(10, [tag("a")], key: 0), request(10, [tag("a")], key: 1), request(20, [tag("a")], key: 2)]
        }
        s.generators = [
            FixedRequests(tag: TagID(rawValue: 1), times: [10, 10, 20, 20]),
            FixedRequests(tag: TagID(rawValue: 2), times: [10, 20, 20]),
        ]
        let predicted = ScenarioStreams.requests(of: s, seed: s.seed)
        #expect(predicted.count == 10)
        let log = OrdinalLog()
        let simulator = Simulator(scenario: s, policy: log)
        simulator.run()
        #expect(simulator.device.requestOrdinal == 10)
        // 1 MB takes 26.7 ms at 300 Mbps: the five requests at 10 s all find their pack still
        // downloading; the five at 20 s all find it on the device (pack-level hits).
        #expect(log.seen.count == 5)
        for (ordinal, pack) in log.seen {
            #expect(predicted[Int(ordinal) - 1] == [pack], "ordinal \(ordinal)")
        }
    }
}
