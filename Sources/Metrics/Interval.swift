import Stochastic

/// Mean, standard deviation and a two-sided Student-t confidence interval of a sample.
public struct Interval: Sendable, Hashable {
    public let count: Int
    public let mean: Double
    /// Sample standard deviation (n − 1 in the denominator); 0 for one value.
    public let standardDeviation: Double
    public let low: Double
    public let high: Double

    /// `level` is the confidence level, 0.95 by default. With one value the interval is the
    /// value itself (no spread can be estimated).
    public init(_ values: [Double], level: Double = 0.95) {
        count = values.count
        let n = Double(values.count)
        mean = values.isEmpty ? 0 : values.reduce(0, +) / n
        guard values.count > 1 else {
            standardDeviation = 0
            low = mean
            high = mean
            return
        }
        let m = mean
        standardDeviation = (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / (n - 1)).squareRoot()
        let half = StudentT.quantile(1 - (1 - level) / 2, degreesOfFreedom: n - 1) * standardDeviation / n.squareRoot()
        low = mean - half
        high = mean + half
    }

    /// For a count (whole in every run) that came out the same, `mean`, in all `count`
    /// replications: no spread, yet no certainty either. At 95 % only a change in more than 3
    /// runs in `count` is ruled out (the rule of three), and a count changes by at least
    /// `step` (1), so the mean is within `mean` ± 3 · step / count: [0.7, 1.3] for ten runs of
    /// one failed request, never [1, 1] (issue 51).
    public init(noSpread mean: Double, count: Int, step: Double = 1) {
        self.count = count
        self.mean = mean
        standardDeviation = 0
        let half = count > 0 ? 3 * step / Double(count) : 0
        low = mean - half
        high = mean + half
    }

    /// A count's interval: with no spread among several values, ``init(noSpread:count:step:)``;
    /// otherwise the Student-t interval widened, where it is narrower, to Garwood's exact
    /// Poisson interval of the values' excess over their least, shifted back by it. A rare
    /// count (one failed request in most runs, two in a few) has a skewed mean that a t
    /// interval undercovers (0.86 after `--precision` in the calibration suite); its excesses
    /// are rare events, and the exact interval of their rate holds.
    public static func ofCounts(_ values: [Double]) -> Interval {
        let interval = Interval(values)
        guard interval.count > 1 else { return interval }
        guard interval.standardDeviation > 0 else { return Interval(noSpread: interval.mean, count: interval.count) }
        let least = values.min()!
        let excess = values.reduce(0) { $0 + ($1 - least) }
        let n = Double(values.count)
        let low = least + ChiSquared.quantile(0.025, degreesOfFreedom: 2 * excess) / (2 * n)
        let high = least + ChiSquared.quantile(0.975, degreesOfFreedom: 2 * excess + 2) / (2 * n)
        // A bound GSL cannot give (NaN, for counts past its range) leaves the t interval's.
        return Interval(
            count: interval.count, mean: interval.mean, standardDeviation: interval.standardDeviation,
            low: low.isNaN ? interval.low : Swift.min(interval.low, low),
            high: high.isNaN ? interval.high : Swift.max(interval.high, high))
    }

    /// A byte or time measure's interval: with no spread among several values, none (both
    /// bounds infinite, ``isBounded`` false); otherwise the Student-t interval. The same value
    /// in every replication rules out, at 95 %, only another outcome in more than 3 runs in
    /// `count` (the rule of three), and unlike a count's, a measure's other outcome may lie
    /// anywhere: on `game-background-assets.scn` lru re-downloads 300 MB in eight runs of
    /// ten, and a point interval there held the truth in 0.86 of fresh-seed comparisons; a
    /// p95 wait's paired difference, zero in 95 % of runs, in 0.02 to 0.42 (issue 51,
    /// docs/statistics.md). With no bound, no certainty is printed.
    public static func ofMeasures(_ values: [Double]) -> Interval {
        let interval = Interval(values)
        guard interval.count > 1, interval.standardDeviation == 0 else { return interval }
        return Interval(
            count: interval.count, mean: interval.mean, standardDeviation: 0, low: -.infinity, high: .infinity)
    }

    /// The interval a metric of `unit` gets: ``ofCounts(_:)`` or ``ofMeasures(_:)``.
    public static func of(_ values: [Double], unit: Metric.Unit) -> Interval {
        unit == .count ? ofCounts(values) : ofMeasures(values)
    }

    private init(count: Int, mean: Double, standardDeviation: Double, low: Double, high: Double) {
        (self.count, self.mean, self.standardDeviation, self.low, self.high) = (
            count, mean, standardDeviation, low, high
        )
    }

    public var halfWidth: Double { (high - low) / 2 }

    /// Whether the interval has bounds (``ofMeasures(_:)`` gives none to a sample with no
    /// spread); files write an unbounded interval's bounds empty, JSON null.
    public var isBounded: Bool { low.isFinite && high.isFinite }

    /// The low bound of a quantity that is never negative (every metric's mean): clipped at
    /// 0, where a Student-t interval of a skewed sample can reach below; an absent bound
    /// stays absent.
    public var nonNegativeLow: Double { low.isFinite ? Swift.max(0, low) : low }

    /// Whether every value was 0: a paired difference that never differed (its interval may
    /// still be wider than a point, ``init(noSpread:count:step:)``).
    public var isAllZero: Bool { count > 0 && mean == 0 && standardDeviation == 0 }

    /// Whether the interval lies wholly above or below 0: a difference that is more than
    /// noise. Never for one value, whose interval is a point only because no spread can be
    /// estimated from it; for a sample with no spread (the same nonzero value every time) only
    /// from ``signTestMinimum`` values on, where the exact sign test's 2 · 0.5ⁿ is below 0.05.
    public var excludesZero: Bool {
        guard count > 1 else { return false }
        guard standardDeviation > 0 else { return mean != 0 && count >= Self.signTestMinimum }
        return low > 0 || high < 0
    }

    /// The fewest values, all of one sign, that the sign test finds significant at 0.05
    /// (2 · 0.5⁶ = 0.031; five give 0.0625).
    public static let signTestMinimum = 6

    public func contains(_ value: Double) -> Bool { value >= low && value <= high }
}
