import ODRCore
import Simulation
import Stochastic

/// Requests for tags with Zipf(α) popularity: arrivals are Poisson at `rate`, the tag of
/// rank k (in the listed order) is chosen with probability ∝ k^−α (an exact discrete
/// distribution), and each access is held for a lognormal time, then ended.
///
/// ```yaml
/// workload:
///   - {kind: popularity, app: filters, rate: 40/d, alpha: 0.9, hold: {median: 5m, sigma: 1}}
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

    public init(app: AppIndex, tags: [TagID], rate: Rate, alpha: Double, hold: Lognormal,
                cycle: DailyCycle? = nil, priority: LoadingPriority = .normal) {
        self.app = app
        self.tags = tags
        self.rate = rate
        self.alpha = alpha
        self.hold = hold
        self.cycle = cycle
        self.priority = priority
    }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(self, seed: seed, firstKey: firstKey)
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

        init(_ spec: PopularityGenerator, seed: UInt64, firstKey: RequestKey) {
            self.spec = spec
            arrivals = PoissonArrivals(rate: spec.rate, cycle: spec.cycle,
                                       stream: RandomStream(seed: seed, purpose: "popularity/\(spec.app)/arrivals"), start: 0)
            choices = RandomStream(seed: seed, purpose: "popularity/\(spec.app)/choices")
            holds = RandomStream(seed: seed, purpose: "popularity/\(spec.app)/holds")
            popularity = DiscreteDistribution.zipf(count: max(spec.tags.count, 1), alpha: spec.alpha)
            nextKey = firstKey
            nextArrival = spec.tags.isEmpty ? .infinity : arrivals.next()
        }

        func next() -> ScenarioEvent? {
            if pending.nextTime <= nextArrival, let end = pending.pop() {
                return ScenarioEvent(time: end.time, action: .end(spec.app, key: end.payload))
            }
            guard nextArrival.isFinite else { return nil }
            let time = nextArrival
            nextArrival = arrivals.next()
            let tags = RequestTags(single: spec.tags[popularity.sample(from: choices)])
            let key = nextKey
            nextKey += 1
            pending.add(key, at: time + ModelLimits.drawnSeconds(holds.lognormal(mu: spec.hold.mu, sigma: spec.hold.sigma)))
            return ScenarioEvent(time: time, action: .request(spec.app, tags: tags, key: key, priority: spec.priority, optional: false))
        }
    }
}
