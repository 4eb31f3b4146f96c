import CGSL
import Foundation

/// A seeded stream of random numbers (GSL's MT19937), one per purpose.
///
/// Streams for different purposes (arrivals, choices, sizes, network…) are derived from one
/// run seed and a purpose label, so adding draws to one purpose never shifts another's
/// numbers: every policy sees the identical workload (common random numbers).
///
/// ```swift
/// let arrivals = RandomStream(seed: 42, purpose: "arrivals")
/// let gap = arrivals.exponential(mean: 3600)
/// ```
public final class RandomStream {
    private let rng: OpaquePointer

    /// A stream for `seed` and `purpose`; equal arguments give equal streams.
    public init(seed: UInt64, purpose: String = "") {
        cgsl_disable_abort_on_error()
        rng = OpaquePointer(gsl_rng_alloc(cgsl_rng_mt19937()))
        gsl_rng_set(UnsafePointer(rng), UInt(truncatingIfNeeded: RandomStream.mix(seed, purpose)))
    }

    deinit { gsl_rng_free(UnsafeMutablePointer(rng)) }

    var gslPointer: UnsafePointer<gsl_rng> { UnsafePointer(rng) }
    private var pointer: UnsafePointer<gsl_rng> { gslPointer }

    /// Uniform in [0, 1).
    public func uniform() -> Double { gsl_rng_uniform(pointer) }

    /// Uniform integer in 0..<n (n ≥ 1).
    public func uniformInt(below n: Int) -> Int {
        precondition(n >= 1, "uniformInt needs n ≥ 1")
        if n == 1 { return 0 }
        // gsl_rng_uniform_int takes n up to the generator's range (2^32 for MT19937).
        if n <= Int(UInt32.max) { return Int(gsl_rng_uniform_int(pointer, UInt(n))) }
        return Int(uniform() * Double(n)) % n
    }

    public func exponential(mean: Double) -> Double { gsl_ran_exponential(pointer, mean) }

    /// Lognormal with parameters of the underlying normal (`mu`, `sigma`).
    public func lognormal(mu: Double, sigma: Double) -> Double { gsl_ran_lognormal(pointer, mu, sigma) }

    /// Lognormal with the given mean and standard deviation of the variable itself.
    public func lognormal(mean: Double, sd: Double) -> Double {
        let (mu, sigma) = RandomStream.lognormalParameters(mean: mean, sd: sd)
        return lognormal(mu: mu, sigma: sigma)
    }

    /// Mu and sigma of the normal underlying a lognormal with this mean and standard deviation.
    public static func lognormalParameters(mean: Double, sd: Double) -> (mu: Double, sigma: Double) {
        precondition(mean > 0 && sd >= 0, "lognormal needs mean > 0 and sd ≥ 0")
        let variance = sd * sd
        let sigma2 = gsl_log1p(variance / (mean * mean))
        return (log(mean) - sigma2 / 2, sigma2.squareRoot())
    }

    /// SplitMix64 over the seed and an FNV-1a hash of the purpose: a cheap, well-mixed key.
    static func mix(_ seed: UInt64, _ purpose: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in purpose.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        var z = seed &+ hash &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
