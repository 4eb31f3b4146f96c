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
        let d = comparison.statistics(of: "lru")!.differences![0]
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
}
