import Simulation
import Stochastic

/// The link alternating among wifi, cellular and offline spells of exponential length.
///
/// After each spell the next state is drawn uniformly among the other states that have a
/// spell length (a state with mean 0 never occurs). The first spell starts at time 0 in
/// the first listed state.
///
/// ```yaml
/// workload:
///   - kind: network
///     wifi: {mean: 10h, bandwidth: 40Mbps}
///     cellular: {mean: 3h, bandwidth: 12Mbps}
///     offline: {mean: 40m}
/// ```
public struct NetworkSpellsGenerator: WorkloadGenerator {
    /// One state of the link.
    public struct Spell: Sendable, Hashable {
        /// Bits per second; 0 for offline.
        public var bandwidth: Double
        public var kind: LinkKind
        /// Mean spell length in seconds.
        public var mean: Double

        public init(bandwidth: Double, kind: LinkKind, mean: Double) {
            self.bandwidth = bandwidth
            self.kind = kind
            self.mean = mean
        }
    }

    public let kind = "network"
    public var spells: [Spell]

    public init(spells: [Spell]) {
        self.spells = spells.filter { $0.mean > 0 }
    }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(spells: spells, stream: RandomStream(seed: seed, purpose: "network"))
    }

    /// One link change per spell; spells take turns, so a cycle lasts the sum of their means.
    public func expectedEvents(over duration: Double) -> Double {
        let cycle = spells.reduce(0) { $0 + $1.mean }
        return cycle > 0 ? 1 + duration * Double(spells.count) / cycle : 0
    }

    struct Stream: EventStream {
        let spells: [Spell]
        let stream: RandomStream
        var state = 0
        var time: Double = 0
        var started = false

        init(spells: [Spell], stream: RandomStream) {
            self.spells = spells
            self.stream = stream
        }

        mutating func next() -> ScenarioEvent? {
            guard !spells.isEmpty else { return nil }
            if started {
                time += stream.exponential(mean: spells[state].mean)
                if spells.count > 1 {
                    let pick = stream.uniformInt(below: spells.count - 1)
                    state = pick >= state ? pick + 1 : pick
                }
            }
            started = true
            let spell = spells[state]
            return ScenarioEvent(time: time, action: .network(bandwidth: spell.bandwidth, kind: spell.kind))
        }
    }
}
