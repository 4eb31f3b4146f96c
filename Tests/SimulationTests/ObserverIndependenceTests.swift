import ODRCore
import ODRPolicies
import Testing
import Workload

@testable import Simulation

/// Without an observer the core records no events and the simulator keeps no request keys; a run
/// must still be the same run. The scenario makes the core end requests by itself (low-disk
/// releases, the app terminated mid-hold), so that later `end` events of the workload name
/// requests that are already gone, in both modes.
@Suite("Observers")
struct ObserverIndependenceTests {
    final class Counter: SimulationObserver {
        var endedByDevice = 0
        var labelled = 0
        func simulator(_ simulator: Simulator, emitted event: ODREvent) {
            if case .requestEnded(let id, _, let cause) = event.kind {
                if cause != .app { endedByDevice += 1 }
                if simulator.requestKey(of: id) != nil { labelled += 1 }
            }
        }
    }

    func scenario() -> Scenario {
        let tags = (1...12).map { ("t\($0)", Int64($0) * 9 * MB) }
        var s = makeScenario(
            tags: tags, capacity: 500 * MB, used: 380 * MB, onLowDisk: .releaseAll, duration: 4 * 86_400
        ) { _ in [] }
        let ids = (0..<12).map { TagID(rawValue: Int32($0)) }
        s.generators = [
            PopularityGenerator(
                app: 0, tags: ids, rate: 60.0 / 86_400, alpha: 0.7, hold: Lognormal(median: 1800, sigma: 1)),
            SessionsGenerator(app: 0, rate: 6.0 / 86_400, length: Lognormal(median: 1200, sigma: 0.5)),
            DiskPressureGenerator(
                rate: 8.0 / 86_400, size: Lognormal(median: 40e6, sigma: 1), cleanupRate: 2.0 / 86_400),
        ]
        return s
    }

    @Test("A run without an observer counts exactly what a run with one counts")
    func sameRun() {
        let watched = Simulator(scenario: scenario(), policy: ApplePolicy())
        let counter = Counter()
        watched.run(observer: counter, sampleInterval: 3600)
        let unwatched = Simulator(scenario: scenario(), policy: ApplePolicy())
        unwatched.run()

        // The scenario does exercise requests the device ended before the workload did.
        #expect(counter.endedByDevice > 0)
        #expect(counter.labelled > 0)
        #expect(watched.device.ledger.requests > 100)
        #expect(watched.device.ledger == unwatched.device.ledger)
        #expect(watched.device.usedBytes == unwatched.device.usedBytes)
        for p in 0..<watched.device.packCount {
            let pack = PackID(rawValue: Int32(p))
            #expect(watched.device.state(of: pack) == unwatched.device.state(of: pack))
        }
        #expect(unwatched.device.events.isEmpty)
    }

    @Test("Stepping one event at a time is the same run as run(), and peek() changes nothing")
    func stepping() {
        let whole = Simulator(scenario: scenario(), policy: ApplePolicy())
        let wholeCounter = Counter()
        whole.run(observer: wholeCounter, sampleInterval: 3600)

        let stepped = Simulator(scenario: scenario(), policy: ApplePolicy())
        let steppedCounter = Counter()
        stepped.start(observer: steppedCounter, sampleInterval: 3600)
        var lastTime = 0.0
        var steps = 0
        while let time = stepped.peek() {
            // Peeking twice looks at the same event and runs nothing.
            #expect(stepped.peek() == time)
            #expect(stepped.processedEvents == steps)
            #expect(time >= lastTime)
            #expect(stepped.step())
            steps += 1
            lastTime = time
            // The device is told of a time only when something happens to it (a sample is not).
            #expect(stepped.device.now <= time)
        }
        #expect(!stepped.step())
        stepped.finish()

        #expect(steps == whole.processedEvents)
        #expect(steps > 100)
        #expect(stepped.device.ledger == whole.device.ledger)
        #expect(stepped.device.usedBytes == whole.device.usedBytes)
        #expect(steppedCounter.endedByDevice == wholeCounter.endedByDevice)
        #expect(steppedCounter.labelled == wholeCounter.labelled)
    }
}
