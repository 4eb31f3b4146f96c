import Metrics
import Testing

/// Issue 18: waits are reported exactly where they can be.
@Suite("Wait statistics")
struct WaitStatisticsTests {
    @Test("a wait of exactly 2 s is 2 s at every percentile (HdrHistogram's bucket gave p50 = 2.000895)")
    func exactTwoSeconds() {
        var waits = WaitStatistics()
        waits.record(seconds: 2)
        #expect(waits.percentile(50) == 2)
        #expect(waits.percentile(95) == 2)
        #expect(waits.percentile(99) == 2)
        #expect(waits.isExact)
    }

    @Test("percentiles are nearest-rank order statistics: 1…100 s gives p50 = 50, p95 = 95, p99 = 99")
    func nearestRank() {
        var waits = WaitStatistics()
        // Recorded out of order: 100, 99, …, 1.
        for s in (1...100).reversed() { waits.record(seconds: Double(s)) }
        #expect(waits.percentile(50) == 50)  // rank ⌈0.50 × 100⌉ = 50
        #expect(waits.percentile(95) == 95)
        #expect(waits.percentile(99) == 99)
        #expect(waits.percentile(100) == 100)
        #expect(waits.mean == 50.5)
        // Three waits: p50 is rank ⌈1.5⌉ = 2, p95 and p99 rank 3.
        var three = WaitStatistics()
        for s in [0.5, 0.1, 7.25] { three.record(seconds: s) }
        #expect(three.percentile(50) == 0.5)
        #expect(three.percentile(95) == 7.25)
    }
}
