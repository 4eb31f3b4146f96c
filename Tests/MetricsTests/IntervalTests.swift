import Metrics
import Testing

@Suite("Confidence intervals")
struct IntervalTests {
    @Test("mean, sd and Student-t 95 % interval of 2, 4, 6")
    func simple() {
        // mean 4; sd = √((4 + 0 + 4) / 2) = 2; t(0.975, 2 dof) = 4.302653;
        // half width = 4.302653 · 2 / √3 = 4.968275.
        let i = Interval([2, 4, 6])
        #expect(i.mean == 4)
        #expect(abs(i.standardDeviation - 2) < 1e-12)
        #expect(abs(i.low - (4 - 4.968275)) < 1e-5)
        #expect(abs(i.high - (4 + 4.968275)) < 1e-5)
    }

    @Test("paired differences to apple, replication by replication")
    func paired() {
        // apple 10, 12, 14; lru 11, 14, 15 → differences 1, 2, 1: mean 4/3,
        // sd = √((1/9 + 4/9 + 1/9) / 2) = √(1/3); half = 4.302653 · √(1/3) / √3 = 1.434218.
        func row(_ policy: String, _ r: Int, _ v: Double) -> SummaryRow {
            SummaryRow(policy: policy, replication: r, seed: UInt64(r), values: SummaryRow.metricColumns.map { _ in v })
        }
        let rows = [
            row("apple", 1, 10), row("apple", 2, 12), row("apple", 3, 14),
            row("lru", 1, 11), row("lru", 2, 14), row("lru", 3, 15),
        ]
        let comparison = Comparison(rows: rows)
        // Re-downloaded bytes: a Student-t interval (a count's is widened where rare: `counts`).
        let d = comparison.statistics(of: "lru")!.differences![Metric.redownloadBytes.position]
        #expect(abs(d.mean - 4.0 / 3) < 1e-12)
        #expect(abs(d.low - (4.0 / 3 - 1.434218)) < 1e-5)
        #expect(abs(d.high - (4.0 / 3 + 1.434218)) < 1e-5)
        #expect(comparison.statistics(of: "apple")!.differences == nil)
        #expect(comparison.csv.split(separator: "\n").count == 3)
    }

    @Test("one replication gives a zero-width interval at the value")
    func single() {
        let i = Interval([7])
        #expect(i.low == 7 && i.high == 7 && i.standardDeviation == 0)
    }

    @Test("a count's interval (issue 51): the rule of three with no spread; widened to Garwood's exact interval")
    func counts() {
        // Ten runs of one failed request: mean 1, no spread: 1 ± 3/10.
        let same = Interval.ofCounts([Double](repeating: 1, count: 10))
        #expect(same.low == 0.7 && same.high == 1.3 && same.standardDeviation == 0)
        // Nine 1s and a 2: t gives 1.1 ± 2.262157 × 0.316228 / √10 = [0.87378, 1.32622]. The excess
        // over the least (1) is one event in 10 runs: Garwood's χ²(0.975, 4) / 20 = 11.143287 / 20,
        // so 1 + 0.557164 = 1.557164 above (scipy.stats.chi2.ppf), and 1 + 0.050636 / 20 below,
        // which the t interval already passes.
        let rare = Interval.ofCounts([Double](repeating: 1, count: 9) + [2])
        #expect(abs(rare.low - 0.873784) < 1e-5 && abs(rare.high - 1.557164) < 1e-5, "\(rare)")
        #expect(rare.mean == 1.1)
        // A common count: the t interval is wider than the Poisson one and stands.
        let common = Interval.ofCounts([80, 100, 120, 90, 110])
        #expect(
            common.low == Interval([80, 100, 120, 90, 110]).low
                && common.high == Interval([80, 100, 120, 90, 110]).high)
    }

    @Test("bytes or seconds the same in every replication have no interval (issue 51); with spread, Student-t")
    func measures() {
        // Eight runs of 300 MB: no bound either way, yet a mean and a count.
        let same = Interval.ofMeasures([Double](repeating: 300e6, count: 8))
        #expect(!same.isBounded && same.low == -.infinity && same.high == .infinity && same.mean == 300e6)
        #expect(same.nonNegativeLow == -.infinity && same.count == 8)
        // The sign test still judges a change the same in all of 6 or more (2 · 0.5⁶ < 0.05), not in 5.
        #expect(Interval.ofMeasures([Double](repeating: -45, count: 6)).excludesZero)
        #expect(!Interval.ofMeasures([Double](repeating: -45, count: 5)).excludesZero)
        #expect(!Interval.ofMeasures([Double](repeating: 0, count: 20)).excludesZero)
        // One value keeps its point (no spread can be estimated), and a spread keeps the t interval:
        // [2, 4, 6] gives 4 ± 4.302653 × 2 / √3 = [−0.968275, 8.968275], clipped at 0 below as a mean.
        #expect(Interval.ofMeasures([7]).isBounded && Interval.ofMeasures([7]).low == 7)
        let spread = Interval.ofMeasures([2, 4, 6])
        #expect(abs(spread.low + 0.968275) < 1e-5 && spread.nonNegativeLow == 0 && abs(spread.high - 8.968275) < 1e-5)
        // The unit decides: a count the same in every run gets the rule of three's interval instead.
        #expect(Interval.of([1, 1, 1, 1, 1], unit: .count).isBounded)
        #expect(!Interval.of([1, 1, 1, 1, 1], unit: .seconds).isBounded)
    }
}
