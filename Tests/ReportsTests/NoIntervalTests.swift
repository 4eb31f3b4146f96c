import Metrics
import Testing

@testable import Reports

/// Issue 51: bytes or seconds that came out the same in every replication have no interval;
/// every output says so in its own way, and none prints a point as certainty.
@Suite("An interval without bounds, in every output")
struct NoIntervalTests {
    /// Ten replications: `same` re-downloads 300 bytes every time, `spread` 100 to 1,000, `shifted`
    /// 345 every time (so its difference to `same` is +45 in all ten).
    static let comparison: Comparison = {
        var rows: [SummaryRow] = []
        for r in 1...10 {
            for (policy, bytes) in [("same", 300.0), ("spread", Double(r) * 100), ("shifted", 345)] {
                var values = [Double](repeating: 0, count: Metric.classic.count)
                values[Metric.redownloadBytes.position] = bytes
                rows.append(SummaryRow(policy: policy, replication: r, seed: UInt64(r), values: values))
            }
        }
        return Comparison(rows: rows, reference: "same")
    }()

    @Test("comparison.csv leaves the bounds empty, comparison-long.csv leaves their rows out")
    func files() throws {
        let lines = Self.comparison.csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let header = lines[0].map(String.init)
        func field(_ row: Int, _ column: String) -> String { String(lines[row][header.firstIndex(of: column)!]) }
        #expect(field(1, "redownload_bytes_mean") == "300.000000" && field(1, "redownload_bytes_ci_low").isEmpty)
        #expect(field(1, "redownload_bytes_ci_high").isEmpty)
        // A spread keeps its interval: 550 ± 2.262157 × 302.765 / √10 = [333.4, 766.6].
        #expect(abs(Double(field(2, "redownload_bytes_ci_low"))! - 333.41) < 0.01)
        #expect(
            field(3, "redownload_bytes_diff_vs_same") == "45.000000" && field(3, "redownload_bytes_diff_ci_low").isEmpty
        )
        // A count the same in every run keeps the rule of three's interval (0 ± 3/10).
        #expect(field(1, "failed_requests_ci_high") == "0.300000")
        let long = Self.comparison.longCSV
        #expect(long.contains("same,same,redownload_bytes,bytes,mean,300.000000\n"))
        #expect(!long.contains("same,same,redownload_bytes,bytes,ci_low,"))
        #expect(!long.contains("shifted,same,redownload_bytes,bytes,diff_ci_high,"))
        #expect(long.contains("spread,same,redownload_bytes,bytes,ci_low,"))
    }

    @Test("the terminal's table says the same in all 10; the chart's whisker is dashed to the edge")
    func pictures() {
        let table = rankedTable(Self.comparison)
        #expect(table.contains("300 B (the same in all 10)") && table.contains("+45 B in all 10"), "\(table)")
        #expect(!table.contains("300 B (300 B–300 B)"))
        var chart = Chart(title: "t", x: .init(label: "policy", unit: .plain), y: .init(label: "b", unit: .bytes))
        chart.bars = [
            .init(name: "same", colour: "#000", value: 300, low: -.infinity, high: .infinity),
            .init(name: "spread", colour: "#000", value: 550, low: 333, high: 767),
        ]
        let svg = chart.svg
        #expect(svg.contains("same: 300 (300 B); no interval (the same in every replication)"))
        #expect(svg.contains("spread: 550 (550 B); 95 % interval 333 (333 B) to 767 (767 B)"))
        #expect(svg.components(separatedBy: "stroke-dasharray=\"3 3\"").count == 2)
        #expect(!svg.contains("inf") && !svg.contains("nan"))
    }
}
