import Quantities
import Simulation
import Stochastic

/// Other data on the disk growing as a compound Poisson process (photos, videos, other
/// apps): growth events at `rate`, each of a lognormal size; and occasional cleanups at
/// `cleanupRate` that remove a fraction of what the generator has added so far.
///
/// The amounts depend only on the generator's own draws, never on the device's state, so
/// every policy sees the same pressure.
///
/// ```yaml
/// workload:
///   - {kind: disk, rate: 4/d, size: {median: 150MB, sigma: 1.2}, cleanup_rate: 1/w, cleanup_fraction: 0.6}
/// ```
public struct DiskPressureGenerator: WorkloadGenerator {
    public let kind = "disk"
    public var rate: Rate
    public var size: Lognormal
    public var cleanupRate: Rate
    public var cleanupFraction: Double

    public init(rate: Rate, size: Lognormal, cleanupRate: Rate = 0, cleanupFraction: Double = 0.5) {
        self.rate = rate
        self.size = size
        self.cleanupRate = cleanupRate
        self.cleanupFraction = cleanupFraction
    }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(self, seed: seed)
    }

    /// A growth per arrival and a cleanup per cleanup arrival.
    public func expectedEvents(over duration: Double) -> Double { (rate + cleanupRate) * duration }

    struct Stream: EventStream {
        let spec: DiskPressureGenerator
        var growth: PoissonArrivals
        var cleanups: PoissonArrivals
        let sizes: RandomStream
        var nextGrowth: Double
        var nextCleanup: Double
        var added: Int64 = 0

        init(_ spec: DiskPressureGenerator, seed: UInt64) {
            self.spec = spec
            growth = PoissonArrivals(
                rate: spec.rate, cycle: nil, stream: RandomStream(seed: seed, purpose: "disk/arrivals"), start: 0)
            cleanups = PoissonArrivals(
                rate: spec.cleanupRate, cycle: nil, stream: RandomStream(seed: seed, purpose: "disk/cleanups"), start: 0
            )
            sizes = RandomStream(seed: seed, purpose: "disk/sizes")
            nextGrowth = growth.next()
            nextCleanup = cleanups.next()
        }

        mutating func next() -> ScenarioEvent? {
            if nextGrowth <= nextCleanup, nextGrowth.isFinite {
                let time = nextGrowth
                nextGrowth = growth.next()
                let bytes = ModelLimits.drawnBytes(sizes.lognormal(mu: spec.size.mu, sigma: spec.size.sigma))
                added += bytes
                return ScenarioEvent(time: time, action: .disk(bytes))
            }
            guard nextCleanup.isFinite else { return nil }
            let time = nextCleanup
            nextCleanup = cleanups.next()
            let freed = Int64((Double(added) * spec.cleanupFraction).rounded())
            added -= freed
            return ScenarioEvent(time: time, action: .disk(-freed))
        }
    }
}
