import Foundation
import Metrics
import Testing

/// Issue 40: the best of several policies is judged after Holm's adjustment for all of them,
/// and a best that is significantly worse on a guard metric is named with that cost.
@Suite("Multiplicity and trade-offs")
struct HolmTests {
    /// A row whose metrics are all 0 but re-downloads and failures.
    func row(_ policy: String, _ replication: Int, redownload: Double, failed: Double = 0) -> SummaryRow {
        var values = [Double](repeating: 0, count: Metric.classic.count)
        values[Metric.redownloadBytes.position] = redownload
        values[Metric.failedRequests.position] = failed
        return SummaryRow(policy: policy, replication: replication, seed: UInt64(replication), values: values)
    }

    @Test("Holm by hand: p = 0.01, 0.04, 0.03 → 0.03, 0.06, 0.06")
    func adjusted() {
        // Sorted: 0.01 × 3 = 0.03; 0.03 × 2 = 0.06; 0.04 × 1 = 0.04, raised to 0.06 (monotone).
        let p = Holm.adjusted([0.01, 0.04, 0.03])
        #expect(zip(p, [0.03, 0.06, 0.06]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(Holm.adjusted([0.5, 0.9]) == [1, 1] || Holm.adjusted([0.5, 0.9]) == [1.0, 1.0])
        #expect(Holm.adjusted([0.2]) == [0.2])
    }

    @Test("a p-value from a paired interval: t = mean / (sd / √n), two-sided")
    func pValue() {
        // Differences −10, −20, −30: mean −20, sd 10, t = −20 / (10 / √3) = −3.4641, 2 dof:
        // two-sided p = 2 × (1 − F(3.4641)) = 0.07418 (Student's t table).
        let p = Holm.pValue(of: Interval([-10, -20, -30]))!
        #expect(abs(p - 0.07418) < 1e-4)
        #expect(Holm.pValue(of: Interval([0, 0, 0])) == 1)
        // The same change every time: no t statistic, the exact sign test's 2 · 0.5ⁿ (issue 51).
        #expect(Holm.pValue(of: Interval([-5, -5])) == 0.5)
        #expect(Holm.pValue(of: Interval([Double](repeating: -5, count: 6))) == 2 * pow(0.5, 6))
        #expect(Holm.pValue(of: Interval([-5])) == nil)
    }

    @Test("alone a policy's change is significant; picked as the best of three it is not, and the verdict says so")
    func bestOfSeveral() throws {
        // Differences of "a" against base over 4 replications: −10, −12, −8, −14 (mean −11,
        // sd 2.58, t = −8.52, p = 0.0034); of "b": −1, +1, −2, +2 (p = 1); of "c": −9, −1, −6,
        // +1 (mean −3.75, p = 0.21). Holm: 0.0034 × 3 = 0.0102 < 0.05: a stays significant.
        let base = [100.0, 100, 100, 100]
        func rows(_ name: String, _ diffs: [Double]) -> [SummaryRow] {
            zip(base, diffs).enumerated().map { row(name, $0 + 1, redownload: $1.0 + $1.1) }
        }
        let three =
            rows("base", [0, 0, 0, 0]) + rows("a", [-10, -12, -8, -14]) + rows("b", [-1, 1, -2, 2])
            + rows("c", [-9, -1, -6, 1])
        let line = Verdict(Comparison(rows: three, reference: "base"), offline: [], metrics: [.redownloadBytes]).lines[
            0]
        #expect(line.best == "a" && line.comparisons == 3)
        #expect(abs(line.adjustedP! - 3 * Holm.pValue(of: Interval([-10, -12, -8, -14]))!) < 1e-12 && line.significant)
        // A weaker best: −4, −6, −1, −5 (mean −4, sd 2.16, t = −3.70, p = 0.0343: its 95 %
        // interval excludes 0), beside two others: Holm gives 3 × 0.0343 = 0.103, not < 0.05.
        let weak =
            rows("base", [0, 0, 0, 0]) + rows("a", [-4, -6, -1, -5]) + rows("b", [-1, 1, -2, 2])
            + rows("c", [1, -2, 2, -1])
        let verdict = Verdict(Comparison(rows: weak, reference: "base"), offline: [], metrics: [.redownloadBytes])
        let w = verdict.lines[0]
        #expect(w.best == "a" && w.change!.excludesZero && !w.significant)
        let text = verdict.text { _, value in String(format: "%.2f", value) }[0]
        #expect(
            text.contains("within the noise")
                && text.contains("not significant after Holm's adjustment for 3 policies, p = 0.10"), "\(text)")
    }

    @Test("a best on re-downloads that fails significantly more requests is named with that cost")
    func tradeOff() throws {
        // "gdsf" re-downloads 50 less in every one of 7 replications but fails 3 requests more
        // (7.0 against 4.0, paired +3 every time: significant by the sign test, 2 · 0.5⁷).
        let rows = (1...7).flatMap { r in
            [
                row("lru", r, redownload: 100, failed: Double(r)),
                row("gdsf", r, redownload: 50, failed: Double(r) + 3),
            ]
        }
        let verdict = Verdict(
            Comparison(rows: rows, reference: "lru"), offline: [], metrics: [.redownloadBytes, .failedRequests])
        #expect(verdict.lines[0].costs.map(\.metric) == [.failedRequests])
        let text = verdict.text { _, value in String(format: "%.1f", value) }
        #expect(
            text[0].hasSuffix("; but gdsf is significantly worse on failed requests, 7.0 against lru's 4.0"),
            "\(text[0])")
        // And as data: the line's best, change, significance and cost.
        let json = try JSONSerialization.jsonObject(with: Data(verdict.json.utf8)) as! [[String: Any]]
        #expect(
            json[0]["best"] as? String == "gdsf" && json[0]["change"] as? Double == -50
                && json[0]["significant"] as? Bool == true)
        #expect((json[0]["costs"] as? [[String: Any]])?.first?["metric"] as? String == "failed_requests")
        // The failures' own line names lru best, with no cost of its own.
        #expect(verdict.lines[1].best == "lru" && verdict.lines[1].costs.isEmpty)
    }
}
