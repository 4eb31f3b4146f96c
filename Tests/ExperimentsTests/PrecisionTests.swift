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

    @Test("misses: a half-width above its target, by hand")
    func misses() {
        // 100, 110, 120: mean 110, sd 10, half-width t(0.975, 2) × 10 / √3 = 24.84, which is
        // 22.6 % of the mean: within 25 %, not within 20 %. The other metrics are 1 in every
        // replication (half-width 0): always within.
        let comparison = Comparison(rows: rows("lru", redownload: [100, 110, 120]), reference: "lru")
        #expect(Precision(relative: 0.25).misses(comparison).isEmpty)
        let missed = Precision(relative: 0.20).misses(comparison)
        #expect(
            missed.map(\.metric) == [.redownloadBytes] && abs(missed[0].halfWidth - 24.8414) < 1e-3
                && abs(missed[0].target - 22) < 1e-9)
        #expect(Precision(absolute: [.redownloadBytes: 25]).misses(comparison).isEmpty)
        // One replication cannot show its spread: a miss, whatever the target.
        #expect(
            !Precision(relative: 0.5).misses(Comparison(rows: rows("lru", redownload: [100]), reference: "lru")).isEmpty
        )
        #expect(Precision.next(after: 1, maximum: 1000) == 2 && Precision.next(after: 600, maximum: 1000) == 1000)
    }
}
