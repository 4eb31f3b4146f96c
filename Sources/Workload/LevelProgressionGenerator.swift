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
/// `withinSessions`: the player advances only while playing (a session of the app's
/// `sessions` generator), so `rate` is per hour of play and a level's time is play time,
/// carried over from one session to the next. Each session requests the current level
/// (urgent) and the `prefetchDepth` after it ``sessionSettle`` after its launch, as a game
/// does once it has started, and ends them that long before the session ends; sessions too
/// short for both play nothing. The level durations are the same draws as without sessions:
/// only where in time they fall changes.
///
/// ```yaml
/// workload:
///   - {kind: levels, app: game, tags: [level-1, level-2, level-3], rate: 2/d, prefetch_priority: 0.2}
///   - {kind: levels, app: game, rate: 2/d, prefetch_depth: 2}   # every tag of the app, in catalog order
///   - {kind: levels, app: game, rate: 1/h, within: sessions}   # an hour of play a level, on average
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
    /// Levels advance only while a session of the app's `sessions` generator runs; its rate
    /// (for the estimate of events), or nil.
    public var withinSessions: Rate?

    /// How long after a session's launch its levels are requested, and before its end they
    /// are ended: the game's own start and quit, and an order at the session's edges that
    /// does not depend on which generator was listed first.
    public static let sessionSettle = 0.001

    public init(
        app: AppIndex, levels: [TagID], rate: Rate, start: Double = 0,
        prefetchPriority: LoadingPriority = LoadingPriority(0.2)!,
        prefetchDepth: Int = 1
    ) {
        self.app = app
        self.levels = levels
        self.rate = rate
        self.start = start
        self.prefetchPriority = prefetchPriority
        self.prefetchDepth = prefetchDepth
    }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        guard withinSessions != nil,
            let sessions = scenario.generators.lazy.compactMap({ $0 as? SessionsGenerator }).first(where: {
                $0.app == app
            })
        else {
            return Stream(self, seed: seed, firstKey: firstKey)
        }
        return PlayStream(
            self, windows: SessionWindows(sessions, scenario: scenario, seed: seed), seed: seed,
            firstKey: firstKey, keySpace: keySpace)
    }

    public var roles: (launches: [AppIndex], requests: [AppIndex]) { ([], [app]) }

    /// Per level reached, a request, a prefetch and an end; at most every level. Within
    /// sessions, also a request and an end of each level held, per session.
    public func expectedEvents(over duration: Double) -> Double {
        // Nothing is asked for before `start`: one past the run's end makes nothing.
        guard start <= duration, !levels.isEmpty else { return 0 }
        let levelEvents = 3 * min(Double(levels.count), 1 + rate * max(0, duration - start))
        guard let sessionRate = withinSessions else { return levelEvents }
        return levelEvents + 2 * Double(1 + prefetchDepth) * sessionRate * duration
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
                queue.append(
                    ScenarioEvent(
                        time: time,
                        action: .request(a, tags: [spec.levels[0]], key: firstKey, priority: .urgent, optional: false)))
                // Level i's request has key firstKey + i, whenever it is made.
                for ahead in 1...max(1, spec.prefetchDepth) where spec.prefetchDepth > 0 && ahead < spec.levels.count {
                    queue.append(
                        ScenarioEvent(
                            time: time,
                            action: .request(
                                a, tags: [spec.levels[ahead]], key: firstKey + ahead,
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
                queue.append(
                    ScenarioEvent(
                        time: time,
                        action: .request(
                            a, tags: [spec.levels[level]], key: firstKey + level,
                            priority: .urgent, optional: false)))
            } else if level + spec.prefetchDepth < spec.levels.count {
                let ahead = level + spec.prefetchDepth
                queue.append(
                    ScenarioEvent(
                        time: time,
                        action: .request(
                            a, tags: [spec.levels[ahead]], key: firstKey + ahead,
                            priority: spec.prefetchPriority, optional: true)))
            }
        }
    }

    /// Within sessions: the same levels and draws, on the clock of play.
    struct PlayStream: EventStream {
        let spec: LevelProgressionGenerator
        let windows: SessionWindows
        let durations: RandomStream
        /// Keys stay below this (a run has at most `keySpace` of this generator's requests).
        let keyLimit: RequestKey
        var nextKey: RequestKey
        var session = 0
        var level = 0
        /// Play time left in the current level (infinity on the last).
        var remaining: Double
        var queue: [ScenarioEvent] = []
        var head = 0

        init(
            _ spec: LevelProgressionGenerator, windows: SessionWindows, seed: UInt64, firstKey: RequestKey,
            keySpace: Int
        ) {
            self.spec = spec
            self.windows = windows
            durations = RandomStream(seed: seed, purpose: "levels/\(spec.app)/durations")
            nextKey = firstKey
            keyLimit = firstKey + keySpace
            remaining = .infinity
            remaining = draw()
        }

        /// The next level's play time, or infinity on the last level (or without a rate).
        mutating func draw() -> Double {
            spec.rate > 0 && level + 1 < spec.levels.count ? durations.exponential(mean: 1 / spec.rate) : .infinity
        }

        mutating func next() -> ScenarioEvent? {
            while head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
                guard !spec.levels.isEmpty, playSession() else { return nil }
            }
            head += 1
            return queue[head - 1]
        }

        /// The events of the next session that starts at or after `start` and is long enough
        /// to play; false when none is left.
        private mutating func playSession() -> Bool {
            let settle = LevelProgressionGenerator.sessionSettle
            while session < windows.starts.count {
                let (open, close) = (windows.starts[session] + settle, windows.ends[session] - settle)
                session += 1
                guard open >= spec.start, open < close else { continue }
                let a = spec.app
                var held: [(level: Int, key: RequestKey)] = []
                func request(_ l: Int, at time: Double, urgent: Bool) {
                    guard nextKey < keyLimit else { return }
                    queue.append(
                        ScenarioEvent(
                            time: time,
                            action: .request(
                                a, tags: [spec.levels[l]], key: nextKey,
                                priority: urgent ? .urgent : spec.prefetchPriority, optional: !urgent)))
                    held.append((l, nextKey))
                    nextKey += 1
                }
                func end(_ l: Int, at time: Double) {
                    guard let i = held.firstIndex(where: { $0.level == l }) else { return }
                    queue.append(ScenarioEvent(time: time, action: .end(a, key: held[i].key)))
                    held.remove(at: i)
                }
                request(level, at: open, urgent: true)
                for ahead in 1...max(1, spec.prefetchDepth)
                where spec.prefetchDepth > 0 && level + ahead < spec.levels.count {
                    request(level + ahead, at: open, urgent: false)
                }
                var time = open
                // Advances that fall within this session's play.
                while remaining < close - time {
                    time += remaining
                    end(level, at: time)
                    level += 1
                    remaining = draw()
                    if spec.prefetchDepth == 0 {
                        request(level, at: time, urgent: true)
                    } else if level + spec.prefetchDepth < spec.levels.count {
                        request(level + spec.prefetchDepth, at: time, urgent: false)
                    }
                }
                if close.isFinite {
                    remaining -= close - time
                    for entry in held { queue.append(ScenarioEvent(time: close, action: .end(a, key: entry.key))) }
                }
                return true
            }
            return false
        }
    }
}
