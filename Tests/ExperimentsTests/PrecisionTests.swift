import Metrics
import Testing

@testable import Experiments

/// Issue 40: replications to a precision.
@Suite("Replications to a precision")
struct PrecisionTests {
    func rows(_ policy: String, redownload: [Double]) -> [SummaryRow] {
        redownload.enumerated().map { r, value in
            var values = [Double](repeating: 1, count: Metric.classic.count)
            values[Metric.redownloadBytes.position] = value
            return SummaryRow(policy: policy, replication: r + 1, seed: UInt64(r), values: values)
        }
    }

    @Test("parse: a percentage, METRIC=VALUE in the metric's unit; anything else a clear error")
    func parse() throws {
        let p = try Precision.parse(["5%", "redownload_bytes=20MB", "wait_p95_s=2m"])
        #expect(p.relative == 0.05 && p.absolute[.redownloadBytes] == 20_000_000 && p.absolute[.waitP95] == 120)
        #expect(throws: Precision.ParseError.self) { try Precision.parse(["5x"]) }
        #expect(throws: Precision.ParseError.self) {
            try Precision.parse(["requests=5"])
        }
        #expect(throws: Precision.ParseError.self) {
            try Precision.parse(["redownload_bytes=0MB"])
        }
    }

    @Test("misses: a half-width above its target, with Law's relative correction, by hand (issue 51)")
    func misses() {
        // 100 and 120 alternating, 10 replications: mean 110, sd √(10 × 10² / 9) = 10.541,
        // half-width t(0.975, 9) × 10.541 / √10 = 2.262157 × 3.33333 = 7.5405. Law's corrected
        // target for γ is γ/(1 + γ) × 110: 8.148 at 8 % (met), 7.196 at 7 % (missed, though 7 %
        // of the mean uncorrected, 7.7, would have been met).
        let comparison = Comparison(
            rows: rows("lru", redownload: (0..<10).map { $0 % 2 == 0 ? 100 : 120 }), reference: "lru")
        func redownloads(_ p: Precision) -> [Precision.Miss] {
            p.misses(comparison).filter { $0.metric == .redownloadBytes }
        }
        #expect(redownloads(Precision(relative: 0.08)).isEmpty)
        let missed = redownloads(Precision(relative: 0.07))
        #expect(missed.count == 1 && abs(missed[0].halfWidth - 7.5405) < 1e-3)
        #expect(abs(missed[0].target - 0.07 / 1.07 * 110) < 1e-9)
        #expect(redownloads(Precision(absolute: [.redownloadBytes: 7.6])).isEmpty)
        // Fewer than 10 replications are never judged: 3 runs within any target still miss.
        let three = Comparison(rows: rows("lru", redownload: [100, 101, 100]), reference: "lru")
        #expect(Precision(relative: 0.5).misses(three).contains { $0.metric == .redownloadBytes && $0.needs == 10 })
        #expect(Precision.next(after: 1, maximum: 1000) == 10 && Precision.next(after: 600, maximum: 1000) == 1000)
    }

    @Test("zero spread is no stop (issue 51): identical runs wait for the rule of three, 3/γ of them")
    func identical() {
        // The other metrics are 1 in every replication: at 7 %, 3/0.07 = 42.9, so 43 runs.
        let ten = Comparison(rows: rows("lru", redownload: (0..<10).map { Double(100 + $0 % 2) }), reference: "lru")
        let failed = Precision(relative: 0.07).misses(ten).filter { $0.metric == .failedRequests }
        #expect(failed.count == 1 && failed[0].identical && failed[0].needs == 43)
        // With no spread the runs' count decides, not the half-width (a count's is the rule of
        // three's 3/n): 42 runs miss, 43 meet it.
        let fortyTwo = Comparison(
            rows: rows("lru", redownload: (0..<42).map { Double(100 + $0 % 2) }), reference: "lru")
        #expect(Precision(relative: 0.07).misses(fortyTwo).map(\.metric).contains(.failedRequests))
        let fortyThree = Comparison(
            rows: rows("lru", redownload: (0..<43).map { Double(100 + $0 % 2) }), reference: "lru")
        #expect(Precision(relative: 0.07).misses(fortyThree).isEmpty)
        // An absolute target: a one-in-ten outcome ruled out, 30 runs.
        #expect(Precision(absolute: [.failedRequests: 0.5]).identicalReplications(.failedRequests) == 30)
        let sentence = Precision.sentence(failed, replications: 10) { _, v in String(v) }
        #expect(sentence.contains("the same in all 10 replications"), "\(sentence)")
    }
}
