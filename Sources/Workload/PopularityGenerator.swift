import ODRCore
import Quantities
import Simulation
import Stochastic

/// Requests for tags with Zipf(α) popularity: arrivals are Poisson at `rate`, the tag of
/// rank k (in the listed order) is chosen with probability ∝ k^−α (an exact discrete
/// distribution), and each access is held for a lognormal time, then ended.
///
/// `withinSessions`: only while the app runs (a session of its `sessions` generator). The
/// arrivals outside sessions are left out, so `rate` is per hour of use: a Poisson process
/// restricted to the sessions is Poisson at the same rate there.
///
/// ```yaml
/// workload:
///   - {kind: popularity, app: filters, rate: 40/d, alpha: 0.9, hold: {median: 5m, sigma: 1}}
///   - {kind: popularity, app: game, rate: 6/h, alpha: 0.8, hold: {median: 5m, sigma: 1}, within: sessions}
/// ```
public struct PopularityGenerator: WorkloadGenerator {
    public let kind = "popularity"
    public var app: AppIndex
    /// Tags by popularity rank (most popular first).
    public var tags: [TagID]
    public var rate: Rate
    public var alpha: Double
    public var hold: Lognormal
    public var cycle: DailyCycle?
    public var priority: LoadingPriority
    /// Requests only while a session of the app's `sessions` generator runs.
    public var withinSessions = false

    public init(
        app: AppIndex, tags: [TagID], rate: Rate, alpha: Double, hold: Lognormal,
        cycle: DailyCycle? = nil, priority: LoadingPriority = .normal
    ) {
        self.app = app
        self.tags = tags
        self.rate = rate
        self.alpha = alpha
        self.hold = hold
        self.cycle = cycle
        self.priority = priority
    }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        let sessions =
            withinSessions
            ? scenario.generators.lazy.compactMap { $0 as? SessionsGenerator }.first { $0.app == app }
            : nil
        return Stream(
            self, seed: seed, firstKey: firstKey,
            windows: sessions.map { SessionWindows($0, scenario: scenario, seed: seed) })
    }

    public var roles: (launches: [AppIndex], requests: [AppIndex]) { ([], [app]) }

    /// A request and its end per arrival.
    public func expectedEvents(over duration: Double) -> Double { 2 * rate * duration }

    /// A class: an existential holding it keeps the reference inline, so the merger's call
    /// to `next()` needs no check that a boxed copy is unique. Its state is touched only by
    /// `next()`, one call at a time, so dynamic exclusivity checks are off for it.
    final class Stream: EventStream {
        let spec: PopularityGenerator
        @exclusivity(unchecked) var arrivals: PoissonArrivals
        let choices: RandomStream
        let holds: RandomStream
        /// Not optional: binding an optional class reference retains and releases it on
        /// every request. (Without tags, the first arrival is never and nothing is drawn.)
        let popularity: DiscreteDistribution
        /// Ends of holds, by request key.
        @exclusivity(unchecked) var pending = PendingEvents<RequestKey>()
        @exclusivity(unchecked) var nextArrival: Double
        @exclusivity(unchecked) var nextKey: RequestKey
        /// With `withinSessions`, when the app runs.
        let windows: SessionWindows?

        init(_ spec: PopularityGenerator, seed: UInt64, firstKey: RequestKey, windows: SessionWindows? = nil) {
            self.windows = windows
            self.spec = spec
            arrivals = PoissonArrivals(
                rate: spec.rate, cycle: spec.cycle,
                stream: RandomStream(seed: seed, purpose: "popularity/\(spec.app)/arrivals"), start: 0)
            choices = RandomStream(seed: seed, purpose: "popularity/\(spec.app)/choices")
            holds = RandomStream(seed: seed, purpose: "popularity/\(spec.app)/holds")
            popularity = DiscreteDistribution.zipf(count: max(spec.tags.count, 1), alpha: spec.alpha)
            nextKey = firstKey
            nextArrival = .infinity
            if !spec.tags.isEmpty { nextArrival = nextOpenArrival() }
        }

        /// The next arrival, in a session when there are windows: one outside moves the
        /// process to the next session's start (memoryless, so the same process restricted).
        func nextOpenArrival() -> Double {
            var time = arrivals.next()
            guard let windows else { return time }
            while time.isFinite {
                let open = windows.firstOpen(atOrAfter: time)
                if open == time || !open.isFinite { return open }
                arrivals.restart(at: open)
                time = arrivals.next()
            }
            return time
        }

        func next() -> ScenarioEvent? {
            if pending.nextTime <= nextArrival, let end = pending.pop() {
                return ScenarioEvent(time: end.time, action: .end(spec.app, key: end.payload))
            }
            guard nextArrival.isFinite else { return nil }
            let time = nextArrival
            nextArrival = nextOpenArrival()
            let tags = RequestTags(single: spec.tags[popularity.sample(from: choices)])
            let key = nextKey
            nextKey += 1
            pending.add(
                key, at: time + ModelLimits.drawnSeconds(holds.lognormal(mu: spec.hold.mu, sigma: spec.hold.sigma)))
            return ScenarioEvent(
                time: time, action: .request(spec.app, tags: tags, key: key, priority: spec.priority, optional: false))
        }
    }
}
