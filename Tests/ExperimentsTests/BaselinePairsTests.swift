import Metrics
import Testing

@testable import Experiments

/// Issue 39: every point × policy of a study paired against one baseline point and policy.
@Suite("Baseline point of a study")
struct BaselinePairsTests {
    /// A result line: axis value `point`, then a summary row whose re-downloaded bytes are
    /// `redownload` (every other metric 0).
    static func line(_ point: String, _ policy: String, _ replication: Int, redownload: Double) -> String {
        var values = [Double](repeating: 0, count: Metric.allCases.count)
        values[Metric.redownloadBytes.position] = redownload
        let row = SummaryRow(policy: policy, replication: replication, seed: UInt64(41 + replication), values: values)
        return SweepResults.line(values: [point], summary: row)
    }

    @Test("the pairs' means, differences and intervals are the paired ones, by hand")
    func byHand() throws {
        // Point "odr" (the baseline, under apple): 100, 200, 300 in replications 1–3.
        // Point "ba" under lru: 70, 150, 260 → differences −30, −50, −40: mean −40, sd 10,
        // half-width t(0.975, 2) × 10 / √3 = 4.302653 × 5.773503 = 24.841 → −64.841 … −15.159.
        // Under fifo: 100, 200, 300 → differences 0 in every replication.
        let lines = [
            Self.line("odr", "apple", 1, redownload: 100), Self.line("odr", "apple", 2, redownload: 200),
            Self.line("odr", "apple", 3, redownload: 300),
            Self.line("ba", "lru", 1, redownload: 70), Self.line("ba", "lru", 2, redownload: 150),
            Self.line("ba", "lru", 3, redownload: 260),
            Self.line("ba", "fifo", 1, redownload: 100), Self.line("ba", "fifo", 2, redownload: 200),
            Self.line("ba", "fifo", 3, redownload: 300),
        ]
        let results = SweepResults(axisNames: ["platform"], baseline: "apple", lines: lines, baselinePoint: 0)
        let pairs = try #require(try results.baselinePairs())
        #expect(pairs.baselineValues == ["odr"] && pairs.baselinePolicy == "apple")
        #expect(pairs.pairs.map(\.policy) == ["lru", "fifo"])
        let r = Metric.redownloadBytes.position
        let lru = pairs.pairs[0].differences[r]
        #expect(abs(lru.mean - -40) < 1e-9)
        #expect(abs(lru.low - -64.841) < 1e-3 && abs(lru.high - -15.159) < 1e-3)
        #expect(lru.excludesZero)
        #expect(pairs.pairs[0].means[r] == 160 && pairs.pairs[0].baselineMeans[r] == 200)
        #expect(pairs.pairs[1].differences[r].mean == 0 && !pairs.pairs[1].differences[r].excludesZero)
        // The best per point (fewest re-downloads, apple never: it is the baseline's) is lru.
        #expect(pairs.bestPerPoint(offline: []).map(\.policy) == ["lru"])
        let csv = results.baselinePairsCSV(pairs).split(separator: "\n")
        #expect(
            csv[0]
                == "platform,policy,replications,baseline_policy,metric,unit,mean,baseline_mean,diff,diff_ci_low,"
                + "diff_ci_high,significant"
        )
        #expect(
            csv.contains(
                "ba,lru,3,apple,redownload_bytes,bytes,160.000000,200.000000,-40.000000,-64.841377,-15.158623,true"))
        #expect(csv.count == 1 + 2 * Metric.classic.count)
        // Without a baseline point there are no pairs.
        #expect(try SweepResults(axisNames: ["platform"], baseline: "apple", lines: lines).baselinePairs() == nil)
    }
}
