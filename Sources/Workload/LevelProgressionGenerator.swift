import ODRCore
import Simulation
import Stochastic

/// A player advancing through levels: each level lasts an exponential time (mean `1/rate`).
/// At each advance the game ends its requests for the finished level, keeps the current
/// one (requested ahead), and requests the one `prefetchDepth` levels ahead with a low
/// priority, marked optional. The first level is requested urgently at `start`, with the
/// `prefetchDepth` after it. With a depth of 0 nothing is prefetched: each level is requested
/// urgently when the player reaches it.
///
/// ```yaml
/// workload:
///   - {kind: levels, app: game, tags: [level-1, level-2, level-3], rate: 2/d, prefetch_priority: 0.2}
///   - {kind: levels, app: game, rate: 2/d, prefetch_depth: 2}   # every tag of the app, in catalog order
/// ```
public struct LevelProgressionGenerator: WorkloadGenerator {
    public let kind = "levels"
    public var app: AppIndex
    public var levels: [TagID]
    public var rate: Rate
    public var start: Double
    public var prefetchPriority: LoadingPriority
    /// How many levels ahead are requested (optional, at `prefetchPriority`): 0 for none.
    public var prefetchDepth: Int

    public init(app: AppIndex, levels: [TagID], rate: Rate, start: Double = 0, prefetchPriority: LoadingPriority = LoadingPriority(0.2)!,
                prefetchDepth: Int = 1) {
        self.app = app
        self.levels = levels
        self.rate = rate
        self.start = start
        self.prefetchPriority = prefetchPriority
        self.prefetchDepth = prefetchDepth
    }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(self, seed: seed, firstKey: firstKey)
    }

    public var roles: (launches: [AppIndex], requests: [AppIndex]) { ([], [app]) }

    /// Per level reached, a request, a prefetch and an end; at most every level.
    public func expectedEvents(over duration: Double) -> Double {
        3 * min(Double(levels.count), 1 + rate * max(0, duration - start))
    }

    struct Stream: EventStream {
        let spec: LevelProgressionGenerator
        let durations: RandomStream
        let firstKey: RequestKey
        var level = 0
        var time: Double
        var queue: [ScenarioEvent] = []

        init(_ spec: LevelProgressionGenerator, seed: UInt64, firstKey: RequestKey) {
            self.spec = spec
            self.firstKey = firstKey
            durations = RandomStream(seed: seed, purpose: "levels/\(spec.app)/durations")
            time = spec.start
            let a = spec.app
            if !spec.levels.isEmpty {
                queue.append(ScenarioEvent(time: time, action: .request(a, tags: [spec.levels[0]], key: firstKey, priority: .urgent, optional: false)))
                // Level i's request has key firstKey + i, whenever it is made.
                for ahead in 1...max(1, spec.prefetchDepth) where spec.prefetchDepth > 0 && ahead < spec.levels.count {
                    queue.append(ScenarioEvent(time: time, action: .request(a, tags: [spec.levels[ahead]], key: firstKey + ahead,
                                                                            priority: spec.prefetchPriority, optional: true)))
                }
            }
        }

        mutating func next() -> ScenarioEvent? {
            if queue.isEmpty { advance() }
            return queue.isEmpty ? nil : queue.removeFirst()
        }

        /// Moves to the next level: end the finished one, request the one after the new current.
        private mutating func advance() {
            guard spec.rate > 0, level + 1 < spec.levels.count else { return }
            time += durations.exponential(mean: 1 / spec.rate)
            level += 1
            let a = spec.app
            queue.append(ScenarioEvent(time: time, action: .end(a, key: firstKey + level - 1)))
            if spec.prefetchDepth == 0 {
                queue.append(ScenarioEvent(time: time, action: .request(a, tags: [spec.levels[level]], key: firstKey + level,
                                                                        priority: .urgent, optional: false)))
            } else if level + spec.prefetchDepth < spec.levels.count {
                let ahead = level + spec.prefetchDepth
                queue.append(ScenarioEvent(time: time, action: .request(a, tags: [spec.levels[ahead]], key: firstKey + ahead,
                                                                        priority: spec.prefetchPriority, optional: true)))
            }
        }
    }
}
