import Foundation

/// A lognormal distribution given by its median and the sigma of its logarithm — the
/// parameters people can reason about ("sessions of about 20 minutes, spread 1.0").
public struct Lognormal: Sendable, Hashable {
    public let median: Double
    public let sigma: Double
    /// mu of the underlying normal: log(median). Stored, as generators draw with it for
    /// every request.
    public let mu: Double

    public init(median: Double, sigma: Double) {
        precondition(median > 0 && sigma >= 0, "lognormal needs median > 0 and sigma ≥ 0")
        self.median = median
        self.sigma = sigma
        mu = log(median)
    }

    /// E[X] = exp(mu + sigma²/2).
    public var mean: Double { median * exp(sigma * sigma / 2) }
    /// Var[X] = (exp(sigma²) − 1) · exp(2mu + sigma²).
    public var variance: Double { (exp(sigma * sigma) - 1) * median * median * exp(sigma * sigma) }
}
