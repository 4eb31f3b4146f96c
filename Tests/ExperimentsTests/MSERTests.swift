import Testing

@testable import Experiments

/// Issue 40: warm-up detection by MSER-5.
@Suite("MSER-5")
struct MSERTests {
    @Test("a transient of 50 observations, then a constant: the truncation is 50, by hand")
    func transient() {
        // Batch means: 10 of 100, then 100 of 1. MSER(10) = 0 (every remaining batch is 1);
        // every d < 10 leaves some 100s in, so MSER(d) > 0: d* = 10, 10 × 5 = 50 observations.
        let series = [Double](repeating: 100, count: 50) + [Double](repeating: 1, count: 500)
        #expect(MSER.truncation(series) == 50)
        // Already settled (a pattern whose every batch of 5 averages 2): nothing to leave out.
        let settled = (0..<500).map { Double($0 % 5) }
        #expect(MSER.truncation(settled) == 0)
    }

    @Test("a run that never settles (a steady climb): no truncation; too short a series: none either")
    func neverSettles() {
        // Batch means rising: the fewer batches left, the smaller their spread, so MSER(d)
        // keeps falling past the middle: never settled.
        #expect(MSER.truncation((0..<500).map(Double.init)) == nil)
        #expect(MSER.truncation([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) == nil)
    }

    @Test("from timeseries rows: each run's re-downloads per interval, the latest cut over the runs")
    func fromSamples() {
        // Two runs sampled every 10 s: run 1 re-downloads 100 bytes per interval for its first
        // 50 intervals and 1 after; run 2 is flat from the start. The cut is after 50
        // increments: the 51st sample, at 500 s.
        func rows(_ increments: [Double]) -> String {
            var total = 0.0
            var text = "lru,1,0.000000,0,0,0,0,0,0,0\n"
            for (i, x) in increments.enumerated() {
                total += x
                text += "lru,1,\(Double(i + 1) * 10),0,0,0,0,0,0,\(Int(total))\n"
            }
            return text
        }
        let one = rows([Double](repeating: 100, count: 50) + [Double](repeating: 1, count: 500))
        let two = rows([Double](repeating: 1, count: 550))
        let result = MSER.warmup(sampleRows: [one, two])
        #expect(result.seconds == 500 && result.runs == 2 && result.unsettled == 0)
        let climbing = rows((0..<500).map(Double.init))
        #expect(MSER.warmup(sampleRows: [climbing]).unsettled == 1)
    }
}
