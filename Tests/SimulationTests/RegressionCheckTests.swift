import Metrics
import Testing

@Suite("Regression check against a baseline")
struct RegressionCheckTests {
    func row(_ policy: String, _ r: Int, redownload: Double, failures: Double = 0) -> SummaryRow {
        var values = SummaryRow.metricColumns.map { _ in 0.0 }
        values[SummaryRow.metricColumns.firstIndex(of: "redownload_bytes")!] = redownload
        values[SummaryRow.metricColumns.firstIndex(of: "failed_requests")!] = failures
        return SummaryRow(policy: policy, replication: r, seed: UInt64(r), values: values)
    }

    @Test("an unchanged run passes")
    func unchanged() {
        let base = [row("apple", 1, redownload: 1000), row("lru", 1, redownload: 2000)]
        #expect(RegressionCheck(baseline: base, current: base, tolerance: 0.02).failures.isEmpty)
    }

    @Test("a planted regression beyond 2 % fails and names metric, policy, old and new")
    func planted() {
        // 1000 → 1030 is 3 %, beyond 2 %; 2000 → 2030 is 1.5 %, within.
        let base = [row("apple", 1, redownload: 1000), row("lru", 1, redownload: 2000)]
        let now = [row("apple", 1, redownload: 1030), row("lru", 1, redownload: 2030)]
        let failures = RegressionCheck(baseline: base, current: now, tolerance: 0.02).failures
        #expect(failures.count == 1)
        #expect(failures.first?.description == "apple: redownload_bytes moved from 1000 to 1030 (allowed 980…1020)")
    }

    @Test("a metric that was 0 must stay 0 whatever the tolerance")
    func zero() {
        let failures = RegressionCheck(baseline: [row("apple", 1, redownload: 5)],
                                       current: [row("apple", 1, redownload: 5, failures: 1)], tolerance: 0.5).failures
        #expect(failures.map(\.metric) == ["failed_requests"])
    }

    @Test("replicated: the new mean must stay inside the baseline's interval")
    func replicated() {
        // Baseline 100, 110, 120: mean 110, sd 10, t(0.975, 2) = 4.302653 → 110 ± 24.84 = [85.16, 134.84].
        let base = [100.0, 110, 120].enumerated().map { row("apple", $0 + 1, redownload: $1) }
        let inside = [120.0, 125, 130].enumerated().map { row("apple", $0 + 1, redownload: $1) }   // mean 125
        let outside = [130.0, 140, 150].enumerated().map { row("apple", $0 + 1, redownload: $1) }  // mean 140
        #expect(RegressionCheck(baseline: base, current: inside, tolerance: 0).failures.isEmpty)
        #expect(RegressionCheck(baseline: base, current: outside, tolerance: 0).failures.count == 1)
    }

    @Test("a baseline reads back what summary.csv wrote")
    func roundTrip() throws {
        let rows = [row("apple", 1, redownload: 123_456_789), row("lru", 1, redownload: 42)]
        let text = SummaryRow.header + rows.map(\.csvLine).joined()
        let read = try BaselineFile.parse(text, name: "b.csv")
        #expect(read == rows)
        #expect(throws: BaselineFile.Error.self) { try BaselineFile.parse("a,b\n1,2\n", name: "b.csv") }
    }
}
