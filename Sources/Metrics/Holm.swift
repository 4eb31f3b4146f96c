import Foundation
import Stochastic

/// Holm's step-down adjustment of p-values for multiple comparisons (Holm 1979, "A simple
/// sequentially rejective multiple test procedure", Scand. J. Statist. 6:65–70): it holds
/// the chance of any false "significant" among `k` comparisons at the level, without
/// Bonferroni's loss of power. A comparison of `k` policies with one baseline asks `k`
/// questions; the best of them, picked after the fact, must pass this, not a lone test.
public enum Holm {
    /// The adjusted p-values, in the order of `p`: the i-th smallest is multiplied by
    /// (k − i + 1), capped at 1, and made non-decreasing along the order.
    public static func adjusted(_ p: [Double]) -> [Double] {
        let k = p.count
        let order = p.indices.sorted { (p[$0], $0) < (p[$1], $1) }
        var adjusted = [Double](repeating: 1, count: k)
        var running = 0.0
        for (rank, i) in order.enumerated() {
            running = max(running, min(1, Double(k - rank) * p[i]))
            adjusted[i] = running
        }
        return adjusted
    }

    /// The two-sided p-value of a paired difference's Student-t test (its interval's sample):
    /// 1 for a difference of 0 in every replication, 0 for a constant non-zero one; nil with
    /// fewer than 2 values (no spread to test against).
    public static func pValue(of difference: Interval) -> Double? {
        guard difference.count > 1 else { return nil }
        // The same nonzero difference in all n replications: no spread for a t statistic, so
        // the exact sign test's two-sided 2 · 0.5ⁿ (below 0.05 from 6 on), never a certainty.
        guard difference.standardDeviation > 0 else {
            return difference.mean == 0 ? 1 : min(1, 2 * pow(0.5, Double(difference.count)))
        }
        let n = Double(difference.count)
        return StudentT.twoSidedP(
            difference.mean / (difference.standardDeviation / n.squareRoot()), degreesOfFreedom: n - 1)
    }
}
