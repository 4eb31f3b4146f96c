import CGSL
import Foundation

/// An exact discrete distribution over 0..<weights.count (GSL's Walker alias tables).
///
/// ```swift
/// let zipf = DiscreteDistribution.zipf(count: 100, alpha: 0.9)
/// let tag = zipf.sample(from: stream)
/// ```
public final class DiscreteDistribution {
    private let table: OpaquePointer
    public let probabilities: [Double]

    /// Weights need not sum to 1; they must not be negative and not all zero.
    public init(weights: [Double]) {
        precondition(
            !weights.isEmpty && weights.allSatisfy { $0 >= 0 } && weights.contains { $0 > 0 },
            "a discrete distribution needs non-negative weights, not all zero")
        let total = weights.reduce(0, +)
        probabilities = weights.map { $0 / total }
        table = weights.withUnsafeBufferPointer { OpaquePointer(gsl_ran_discrete_preproc($0.count, $0.baseAddress!)) }
    }

    deinit { gsl_ran_discrete_free(UnsafeMutablePointer(table)) }

    /// Zipf(α) over ranks 1…count: P(rank k) ∝ k^-α.
    public static func zipf(count: Int, alpha: Double) -> DiscreteDistribution {
        DiscreteDistribution(weights: (1...count).map { 1 / pow(Double($0), alpha) })
    }

    public func sample(from stream: RandomStream) -> Int {
        stream.withGSL { Int(gsl_ran_discrete($0, UnsafePointer(table))) }
    }
}

extension RandomStream {
    func withGSL<T>(_ body: (UnsafePointer<gsl_rng>) -> T) -> T { body(gslPointer) }
}
