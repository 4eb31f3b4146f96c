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

    public var halfWidth: Double { (high - low) / 2 }

    /// Whether the interval lies wholly above or below 0: a difference that is more than
    /// noise. Never for one value, whose interval is a point only because no spread can be
    /// estimated from it.
    public var excludesZero: Bool { count > 1 && (low > 0 || high < 0) }

    public func contains(_ value: Double) -> Bool { value >= low && value <= high }
}
