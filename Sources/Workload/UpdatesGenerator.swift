import Simulation
import Stochastic

/// Content updates: new versions of an app's packs published as a Poisson process, each of a
/// pack drawn uniformly from the app's catalog (Background Assets updates packs apart from
/// app builds). What an update does on the device is ``ODRCore/ODRDevice/updatePack(_:at:)``'s.
///
/// ```yaml
/// workload:
///   - {kind: updates, app: game, rate: 1/w}
/// ```
public struct UpdatesGenerator: WorkloadGenerator {
    public let kind = "updates"
    public var app: AppIndex
    public var rate: Rate

    public init(app: AppIndex, rate: Rate) {
        self.app = app
        self.rate = rate
    }

    // The packs are counted when a run starts, not when the scenario is read: a layout search
    // regroups the app's catalog and keeps its generators.
    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(self, packs: scenario.apps[app].catalog.packs.count, seed: seed)
    }

    public func expectedEvents(over duration: Double) -> Double { rate * duration }

    /// A class, as ``SessionsGenerator/Stream`` is, for the same reasons.
    final class Stream: EventStream {
        let spec: UpdatesGenerator
        let packs: Int
        @exclusivity(unchecked) var arrivals: PoissonArrivals
        let choices: RandomStream

        init(_ spec: UpdatesGenerator, packs: Int, seed: UInt64) {
            self.spec = spec
            self.packs = packs
            arrivals = PoissonArrivals(
                rate: spec.rate, cycle: nil,
                stream: RandomStream(seed: seed, purpose: "updates/\(spec.app)/arrivals"), start: 0)
            choices = RandomStream(seed: seed, purpose: "updates/\(spec.app)/packs")
        }

        func next() -> ScenarioEvent? {
            guard packs > 0 else { return nil }
            let time = arrivals.next()
            guard time.isFinite else { return nil }
            return ScenarioEvent(time: time, action: .update(spec.app, pack: Int32(choices.uniformInt(below: packs))))
        }
    }
}
