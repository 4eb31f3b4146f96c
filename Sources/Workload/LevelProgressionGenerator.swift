import ODRCore
import Simulation
import Stochastic

/// A player advancing through levels: each level lasts an exponential time (mean `1/rate`).
/// At each advance the game ends its requests for the finished level, keeps the current
/// one (requested ahead), and requests the next with a low priority, marked optional.
/// The first level is requested urgently at `start`.
///
/// ```yaml
/// workload:
///   - {kind: levels, app: game, tags: [level-1, level-2, level-3], rate: 2/d, prefetch_priority: 0.2}
/// ```
public struct LevelProgressionGenerator: WorkloadGenerator {
    public let kind = "levels"
    public var app: AppIndex
    public var levels: [TagID]
    public var rate: Rate
    public var start: Double
    public var prefetchPriority: LoadingPriority

    public init(app: AppIndex, levels: [TagID], rate: Rate, start: Double = 0, prefetchPriority: LoadingPriority = LoadingPriority(0.2)!) {
        self.app = app
        self.levels = levels
        self.rate = rate
        self.start = start
        self.prefetchPriority = prefetchPriority
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
                if spec.levels.count > 1 {
                    queue.append(ScenarioEvent(time: time, action: .request(a, tags: [spec.levels[1]], key: firstKey + 1,
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
            if level + 1 < spec.levels.count {
                queue.append(ScenarioEvent(time: time, action: .request(a, tags: [spec.levels[level + 1]], key: firstKey + level + 1,
                                                                        priority: spec.prefetchPriority, optional: true)))
            }
        }
    }
}
