import Foundation
import Metrics
import Testing

/// Issue 29: the headline names the best deployable policy per metric, its paired change
/// against the baseline and whether it is significant; offline policies are bounds only.
@Suite("Verdict")
struct VerdictTests {
    /// A row whose metrics are all 0 but the given ones.
    func row(_ policy: String, _ replication: Int, redownload: Double, wait: Double = 0) -> SummaryRow {
        var values = [Double](repeating: 0, count: Metric.classic.count)
        values[Metric.redownloadBytes.position] = redownload
        values[Metric.waitP95.position] = wait
        return SummaryRow(policy: policy, replication: replication, seed: UInt64(replication), values: values)
    }

    @Test("the best deployable policy, its paired change and its significance; the offline one a bound")
    func bestAndBound() {
        // Re-downloads per replication, 7 of them: base 100, 200, 100, 200, 100, 200, 150 (mean
        // 150); good 50 less every time (mean 100: a change with no spread, judged by the exact
        // sign test, 2 · 0.5⁷ = 0.0156, Holm-adjusted over 2 policies 0.031: significant);
        // noisy 0, 300, …, 150 (mean 150, change 0); oracle 10, 20, …, 15 (mean 15, offline:
        // a bound, not a candidate).
        let base: [Double] = [100, 200, 100, 200, 100, 200, 150]
        var rows: [SummaryRow] = []
        for (r, b) in base.enumerated() {
            rows += [
                row("base", r + 1, redownload: b), row("good", r + 1, redownload: b - 50),
                row("noisy", r + 1, redownload: b == 150 ? 150 : b == 100 ? 0 : 300),
                row("oracle", r + 1, redownload: b / 10),
            ]
        }
        let verdict = Verdict(
            Comparison(rows: rows, reference: "base"), offline: ["oracle"], metrics: [.redownloadBytes])
        let line = verdict.lines[0]
        #expect(line.best == "good")  // 100 mean; oracle's 15 is not a candidate
        // The same bytes every time: no interval (no bound either way), yet significant by the sign test.
        #expect(line.change?.mean == -50 && line.change?.isBounded == false && line.change?.excludesZero == true)
        #expect(line.significant && abs((line.adjustedP ?? 1) - 2 * 2 * pow(0.5, 7)) < 1e-12)
        #expect(line.bound?.policy == "oracle" && line.bound?.mean == 15)
        let text = verdict.text { _, value in String(Int(value)) }[0]
        #expect(
            text
                == """
                re-downloaded bytes: good improves on base, 100 against 150 (change −50 in every one of 7 \
                replications, a different outcome in fewer than 1 run in 2 cannot be ruled out; significant after \
                Holm's adjustment for 2 policies, p = 0.031); bound (oracle, offline): 15
                """
        )
    }

    @Test("the same change in only 2 replications is no certainty (issue 51): not significant, the sign test's 0.5")
    func constantChangeOfTwo() {
        let rows = [
            row("base", 1, redownload: 100), row("base", 2, redownload: 200),
            row("good", 1, redownload: 50), row("good", 2, redownload: 150),
        ]
        let verdict = Verdict(Comparison(rows: rows, reference: "base"), offline: [], metrics: [.redownloadBytes])
        #expect(verdict.lines[0].best == "good" && !verdict.lines[0].significant)
        #expect(Holm.pValue(of: verdict.lines[0].change!) == 0.5)
        let text = verdict.text { _, value in String(Int(value)) }[0]
        #expect(text.contains("within the noise") && text.contains("too few to rule out"), "\(text)")
    }

    @Test("one replication gives a change but no interval: never significant, and the headline says how to judge")
    func oneReplication() {
        // good − base = 50 − 150 = −100 in the only replication: its "interval" is the point
        // −100, which excludes 0 only because no spread can be estimated from one value.
        let rows = [row("base", 1, redownload: 150), row("good", 1, redownload: 50)]
        let verdict = Verdict(Comparison(rows: rows, reference: "base"), offline: [], metrics: [.redownloadBytes])
        #expect(verdict.lines[0].best == "good" && verdict.lines[0].change?.mean == -100)
        #expect(!verdict.lines[0].significant)
        let text = verdict.text { _, value in String(Int(value)) }[0]
        #expect(
            text
                == """
                re-downloaded bytes: good does better than base in the one replication, 50 against 150 (change \
                −100; one replication gives no interval: run 2 or more to judge significance)
                """
        )
        // Two replications with the same difference: an interval of width 0, but no spread to
        // judge by; the exact sign test's 2 · 0.5² = 0.5 is no significance (issue 51). Six
        // (2 · 0.5⁶ = 0.031) are; five (0.0625) are not.
        let two = rows + [row("base", 2, redownload: 250), row("good", 2, redownload: 150)]
        #expect(
            !Verdict(Comparison(rows: two, reference: "base"), offline: [], metrics: [.redownloadBytes]).lines[0]
                .significant)
        #expect(!Interval([-100]).excludesZero && !Interval([-100, -100]).excludesZero)
        #expect(Interval([Double](repeating: -100, count: 6)).excludesZero)
        #expect(!Interval([Double](repeating: -100, count: 5)).excludesZero && !Interval([-100, 100]).excludesZero)
    }

    @Test("a change whose interval spans 0 is not significant; a tie names the baseline")
    func notSignificant() {
        // noisy − base per replication: −100, +100: mean 0, a tie, which goes to the baseline
        // (equal means are ordered by name, and base comes first).
        let rows = [
            row("base", 1, redownload: 100, wait: 2), row("base", 2, redownload: 200, wait: 2),
            row("noisy", 1, redownload: 0, wait: 1), row("noisy", 2, redownload: 300, wait: 3),
        ]
        let verdict = Verdict(
            Comparison(rows: rows, reference: "base"), offline: [], metrics: [.redownloadBytes, .waitP95])
        #expect(!verdict.lines[0].significant)
        let text = verdict.text { _, value in String(Int(value)) }
        // Equal means: the baseline keeps the title, and the tie is said.
        #expect(text[0] == "re-downloaded bytes: base is best, tied by noisy, 150")
        // noisy − base for a skewed case: −60, +20 → mean −20, interval spans 0.
        let skewed = [
            row("base", 1, redownload: 100), row("base", 2, redownload: 100),
            row("noisy", 1, redownload: 40), row("noisy", 2, redownload: 120),
        ]
        let line = Verdict(Comparison(rows: skewed, reference: "base"), offline: [], metrics: [.redownloadBytes]).lines[
            0]
        #expect(line.best == "noisy" && line.change!.low < 0 && line.change!.high > 0 && !line.significant)
        // The headline claims nothing of it: within the noise, not "improves".
        let words = Verdict(Comparison(rows: skewed, reference: "base"), offline: [], metrics: [.redownloadBytes]).text
        { _, value in String(Int(value)) }
        let start = "re-downloaded bytes: noisy and base within the noise, 80 against 100"
        #expect(words[0].hasPrefix(start + " (change −20, 95 % interval −"))
        #expect(words[0].hasSuffix("; not significant)"))
    }

    @Test("a metric no policy moves is said to be the same under every policy, not won by the baseline")
    func identicalEverywhere() {
        // Failed requests 1 and 3 in both replications under all four deployable policies:
        // every paired difference is exactly 0, so no policy is "best". Re-downloads tie too
        // (mean 150 for base, p, q, r, s) but differ per replication: a tie, named in full.
        func failing(_ policy: String, _ replication: Int, redownload: Double) -> SummaryRow {
            var values = [Double](repeating: 0, count: Metric.classic.count)
            values[Metric.failedRequests.position] = replication == 1 ? 1 : 3
            values[Metric.redownloadBytes.position] = redownload
            return SummaryRow(policy: policy, replication: replication, seed: UInt64(replication), values: values)
        }
        var rows: [SummaryRow] = []
        for policy in ["base", "p", "q", "r", "s"] {
            let shift: Double = policy == "base" ? 0 : 50
            rows += [failing(policy, 1, redownload: 100 + shift), failing(policy, 2, redownload: 200 - shift)]
        }
        let verdict = Verdict(
            Comparison(rows: rows, reference: "base"), offline: [], metrics: [.failedRequests, .redownloadBytes])
        #expect(verdict.lines[0].identical && !verdict.lines[1].identical)
        #expect(verdict.lines[1].best == "base" && verdict.lines[1].tied == ["p", "q", "r", "s"])
        let text = verdict.text { _, value in String(Int(value)) }
        #expect(
            text[0]
                == "failed requests: the same under every policy in every replication, 2 (2 replications: too few to "
                + "rule out a different outcome in any share of runs)")
        #expect(text[1] == "re-downloaded bytes: base is best, tied by p, q, r and s, 150")
    }

    @Test(
        "a study's headline: who beats the baseline at how many points, significantly at how many, and where it holds")
    func study() {
        // Point 1: good is 50 below base in six replications (significant by the sign test,
        // 2 · 0.5⁶ = 0.031); oracle lower still but offline. Point 2: good 0 and 300 against
        // base's 100 and 200: −100, +100, a tie in the mean, so base holds. Point 3: noisy 60
        // below on average (−20, −100): the best there, its interval spanning 0.
        let one = (1...6).flatMap { r in
            let b: Double = r % 2 == 1 ? 100 : 200
            return [row("base", r, redownload: b), row("good", r, redownload: b - 50), row("oracle", r, redownload: 0)]
        }
        let two = [
            row("base", 1, redownload: 100), row("base", 2, redownload: 200),
            row("good", 1, redownload: 0), row("good", 2, redownload: 300),
        ]
        let three = [
            row("base", 1, redownload: 100), row("base", 2, redownload: 200),
            row("good", 1, redownload: 100), row("good", 2, redownload: 200),
            row("noisy", 1, redownload: 80), row("noisy", 2, redownload: 100),
        ]
        let lines = Verdict.study(
            [one, two, three].map { Comparison(rows: $0, reference: "base") }, offline: ["oracle"],
            metrics: [.redownloadBytes, .waitP95])
        #expect(
            lines[0]
                == """
                re-downloaded bytes: good is best at 1 of 3 points (significantly better than base at 1); noisy \
                at 1; base best or tied at 1
                """
        )
        #expect(lines[1] == "wait, 95th percentile: nothing does better than base at any of the 3 points")
    }
}
