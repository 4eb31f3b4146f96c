import Quantities
import Simulation
import Stochastic

/// App sessions: launches as a Poisson process (optionally with a daily cycle), each
/// session lasting a lognormal time, then the app terminates (ending its requests).
///
/// Sessions never overlap: arrivals during a session are dropped, which by the Poisson
/// process's memorylessness is the same as restarting it when the session ends.
///
/// ```yaml
/// workload:
///   - {kind: sessions, app: game, rate: 3/d, length: {median: 20m, sigma: 0.8},
///      daily_cycle: {amplitude: 0.8, peak: 20h}}
/// ```
public struct SessionsGenerator: WorkloadGenerator {
    public let kind = "sessions"
    public var app: AppIndex
    public var rate: Rate
    public var length: Lognormal
    public var cycle: DailyCycle?

    public init(app: AppIndex, rate: Rate, length: Lognormal, cycle: DailyCycle? = nil) {
        self.app = app
        self.rate = rate
        self.length = length
        self.cycle = cycle
    }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(self, seed: seed)
    }

    public var roles: (launches: [AppIndex], requests: [AppIndex]) { ([app], []) }

    /// A launch and a termination per arrival (an upper bound: arrivals inside a session are dropped).
    public func expectedEvents(over duration: Double) -> Double { 2 * rate * duration }

    /// A class: an existential holding it keeps the reference inline, so the merger's call
    /// to `next()` needs no check that a boxed copy is unique. Its state is touched only by
    /// `next()`, one call at a time, so dynamic exclusivity checks are off for it.
    final class Stream: EventStream {
        let spec: SessionsGenerator
        @exclusivity(unchecked) var arrivals: PoissonArrivals
        let lengths: RandomStream
        /// The current session's end.
        @exclusivity(unchecked) var pending = PendingEvents<Void>()

        init(_ spec: SessionsGenerator, seed: UInt64) {
            self.spec = spec
            arrivals = PoissonArrivals(
                rate: spec.rate, cycle: spec.cycle,
                stream: RandomStream(seed: seed, purpose: "sessions/\(spec.app)/arrivals"), start: 0)
            lengths = RandomStream(seed: seed, purpose: "sessions/\(spec.app)/lengths")
        }

        func next() -> ScenarioEvent? {
            if let end = pending.pop() { return ScenarioEvent(time: end.time, action: .terminate(spec.app)) }
            let start = arrivals.next()
            guard start.isFinite else { return nil }
            let end = start + ModelLimits.drawnSeconds(lengths.lognormal(mu: spec.length.mu, sigma: spec.length.sigma))
            pending.add((), at: end)
            arrivals.restart(at: end)
            return ScenarioEvent(time: start, action: .launch(spec.app))
        }
    }
}
