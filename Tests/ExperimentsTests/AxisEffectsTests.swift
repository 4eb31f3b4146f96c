import Experiments
import Foundation
import Metrics
import Testing

/// Issue 40: a study's verdict says what each axis does, not only which policy ranks first.
@Suite("What each axis does")
struct AxisEffectsTests {
    /// A point's comparison: `apple`, 3 replications whose re-downloads are `redownload` ±
    /// `spread` (r = 1, 2, 3 → −spread, 0, +spread) and whose failures are always 1.
    static func point(_ values: [String], redownload: Double, spread: Double = 0) -> (
        values: [String], comparison: Comparison
    ) {
        let rows = (1...3).map { r -> SummaryRow in
            var v = [Double](repeating: 0, count: Metric.classic.count)
            v[Metric.redownloadBytes.position] = redownload + Double(r - 2) * spread
            v[Metric.failedRequests.position] = 1
            return SummaryRow(policy: "apple", replication: r, seed: UInt64(r), values: v)
        }
        return (values, Comparison(rows: rows, reference: "apple"))
    }

    static func say(_ value: Double, _ metric: Metric) -> String {
        metric == .redownloadBytes ? "\(Int(value)) B" : "\(value)"
    }

    @Test("one axis: budget 1 → 3 moves re-downloads 0 → 100, and nothing from 2 on; failures the same everywhere")
    func plateau() {
        // No spread: every interval is its mean alone, so any two different means are apart.
        let points = [
            Self.point(["1"], redownload: 0), Self.point(["2"], redownload: 100), Self.point(["3"], redownload: 100),
        ]
        let lines = AxisEffects.sentences(
            points, axisNames: ["budget"], policy: "apple", metrics: [.redownloadBytes, .failedRequests],
            format: Self.say)
        #expect(
            lines == [
                """
                budget 1 → 3 moves re-downloaded 0 B → 100 B (nothing beyond the noise from 2 on) under apple; \
                failed within the noise
                """
            ])
    }

    @Test("within the noise: means 0 and 10 whose 95 % intervals (half-width 12.706 × spread / √3) overlap")
    func noise() {
        // Spread 5: sd 5, half-width t(0.975, 2) × 5 / √3 = 4.303 × 2.887 = 12.42 each; |10 − 0| < 24.8.
        let points = [Self.point(["a"], redownload: 0, spread: 5), Self.point(["b"], redownload: 10, spread: 5)]
        let lines = AxisEffects.sentences(
            points, axisNames: ["axis"], policy: "apple", metrics: [.redownloadBytes], format: Self.say)
        #expect(lines == ["axis a → b changes nothing beyond the noise under apple (re-downloaded)"])
        // Spread 1: half-width 2.48 each; |10 − 0| > 4.97: a move.
        let tight = [Self.point(["a"], redownload: 0, spread: 1), Self.point(["b"], redownload: 10, spread: 1)]
        #expect(
            AxisEffects.sentences(
                tight, axisNames: ["axis"], policy: "apple", metrics: [.redownloadBytes], format: Self.say)
                == ["axis a → b moves re-downloaded 0 B → 10 B under apple"])
    }

    @Test("two axes: each read along the other's slices, the largest change shown with its slice")
    func slices() {
        // size moves re-downloads at free=1 (0 → 50) and at free=2 (0 → 80); free moves them
        // only at size=big (50 → 80).
        let points = [
            Self.point(["small", "1"], redownload: 0), Self.point(["small", "2"], redownload: 0),
            Self.point(["big", "1"], redownload: 50), Self.point(["big", "2"], redownload: 80),
        ]
        let lines = AxisEffects.sentences(
            points, axisNames: ["size", "free"], policy: "apple", metrics: [.redownloadBytes], format: Self.say)
        #expect(
            lines == [
                "size small → big moves re-downloaded at 2 of 2 slices (at free=2: 0 B → 80 B) under apple",
                "free 1 → 2 moves re-downloaded at 1 of 2 slices (at size=big: 50 B → 80 B) under apple",
            ])
    }

    @Test(
        """
        the same as data: per axis and metric, slices moved of slices, the largest move's slice and means, and the \
        plateau
        """
    )
    func structured() throws {
        let points = [
            Self.point(["small", "1"], redownload: 0), Self.point(["small", "2"], redownload: 0),
            Self.point(["big", "1"], redownload: 50), Self.point(["big", "2"], redownload: 80),
        ]
        let effects = AxisEffects.effects(
            points, axisNames: ["size", "free"], policy: "apple", metrics: [.redownloadBytes, .failedRequests])
        #expect(effects.map(\.axis) == ["size", "free"])
        let size = try #require(effects.first?.metrics.first)
        #expect(size.metric == .redownloadBytes && size.slicesMoved == 2 && size.slices == 2)
        #expect(size.example?.map { "\($0.axis)=\($0.value)" } == ["free=2"] && size.fromMean == 0 && size.toMean == 80)
        // Failures are 1 everywhere: read at both slices, moved at none, no example.
        let failures = try #require(effects.first?.metrics.last)
        #expect(
            failures.metric == .failedRequests && !failures.moved && failures.slices == 2 && failures.example == nil)
        // The JSON names the same, with null where nothing moved.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(effects[1].json.utf8)) as? [String: Any])
        #expect(json["axis"] as? String == "free" && json["from"] as? String == "1" && json["to"] as? String == "2")
        let metrics = try #require(json["metrics"] as? [[String: Any]])
        #expect(metrics[0]["metric"] as? String == "redownload_bytes" && metrics[0]["slices_moved"] as? Int == 1)
        #expect((metrics[0]["at"] as? [String: String]) == ["size": "big"] && metrics[0]["to_mean"] as? Double == 80)
        #expect(metrics[1]["moved"] as? Bool == false && metrics[1]["at"] is NSNull)
        // One axis: the plateau value is data too.
        let one = AxisEffects.effects(
            [Self.point(["1"], redownload: 0), Self.point(["2"], redownload: 100), Self.point(["3"], redownload: 100)],
            axisNames: ["budget"], policy: "apple", metrics: [.redownloadBytes])
        #expect(one.first?.metrics.first?.plateauFrom == "2")
    }
}
