import Metrics
import Testing

/// Issue 39: a CI gate that fails only when a metric rises beyond its limit.
@Suite("The regression gate (check --max-increase)")
struct RegressionGateTests {
    static func rows(_ values: [Double], policy: String = "lru") -> [SummaryRow] {
        values.enumerated().map { r, value in
            var all = Array(repeating: 0.0, count: Metric.allCases.count)
            all[Metric.redownloadBytes.position] = value
            return SummaryRow(policy: policy, replication: r + 1, seed: UInt64(r), values: all)
        }
    }

    static let fivePercent = RegressionGate.Limit(metric: .redownloadBytes, value: 0.05, relative: true)

    @Test(
        """
        a rise whose interval's low end is above the allowed increase fails; within it passes; below 0 is an \
        improvement
        """
    )
    func verdicts() {
        let baseline = Self.rows([100, 100, 100])
        // Increases 10, 12, 8: mean 10, sd 2, 95 % half-width t(0.975, 2) × 2 / √3 = 4.303 × 1.1547
        // = 4.968, so the low end is 5.032 — above 5 % of 100 = 5: rose beyond.
        let worse = RegressionGate(baseline: baseline, current: Self.rows([110, 112, 108]), limits: [Self.fivePercent])
        #expect(worse.lines.count == 1 && worse.lines[0].verdict == "rose beyond the limit" && !worse.passed)
        #expect(abs(worse.lines[0].change.low - 5.032) < 0.001 && worse.lines[0].allowed == 5)
        // With 6 % allowed (6 bytes) the same rise is within the limit.
        let six = RegressionGate.Limit(metric: .redownloadBytes, value: 0.06, relative: true)
        #expect(RegressionGate(baseline: baseline, current: Self.rows([110, 112, 108]), limits: [six]).passed)
        // Decreases 10, 9, 11: mean −10, sd 1, half-width 4.303 / √3 = 2.484: high end −7.5 < 0.
        let better = RegressionGate(baseline: baseline, current: Self.rows([90, 91, 89]), limits: [Self.fivePercent])
        #expect(better.passed && better.lines[0].verdict == "improved")
        // An absolute limit: +20 allowed whatever the baseline.
        let absolute = RegressionGate.Limit(metric: .redownloadBytes, value: 20, relative: false)
        #expect(RegressionGate(baseline: baseline, current: Self.rows([110, 112, 108]), limits: [absolute]).passed)
        // Nothing to compare (another policy) is no pass.
        #expect(
            !RegressionGate(baseline: baseline, current: Self.rows([100], policy: "fifo"), limits: [Self.fivePercent])
                .passed)
    }

    @Test("METRIC=LIMIT is read with the scenario's units; an unknown metric or a bad count is an error")
    func parsing() throws {
        #expect(
            try RegressionGate.Limit.parse("redownload_bytes=5%") == Self.fivePercent)
        #expect(
            try RegressionGate.Limit.parse("redownload_bytes=20MB")
                == RegressionGate.Limit(metric: .redownloadBytes, value: 20_000_000, relative: false))
        #expect(try RegressionGate.Limit.parse("wait_p95_s=2s").value == 2)
        #expect(try RegressionGate.Limit.parse("failed_requests=1").value == 1)
        #expect(throws: GateError.self) {
            try RegressionGate.Limit.parse("redownload=5%")
        }
        #expect(throws: GateError.self) {
            try RegressionGate.Limit.parse("failed_requests=many")
        }
        #expect(throws: GateError.self) {
            try RegressionGate.Limit.parse("redownload_bytes")
        }
    }
}
