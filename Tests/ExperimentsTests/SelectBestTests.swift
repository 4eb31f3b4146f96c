import Foundation
import Metrics
import Testing

@testable import Experiments

/// Issue 40: selection of the best by Kim and Nelson's KN.
@Suite("Select the best (KN)")
struct SelectBestTests {
    @Test("h² by hand, and a clear best found with the others eliminated")
    func clearBest() throws {
        // k = 3, α = 0.05, n₀ = 10: η = ½[(2 × 0.05 / 2)^(−2/9) − 1] = ½[0.05^(−0.2222) − 1]
        // = ½[1.94589 − 1] = 0.472944, h² = 2 × 0.472944 × 9 = 8.51299.
        let eta = 0.5 * (pow(0.05, -2.0 / 9) - 1)
        #expect(abs(2 * eta * 9 - 8.51299) < 1e-4)
        // a is 100 better than b and 200 better than c in every replication, with noise of
        // ±5 shared by all (common random numbers): the differences have no variance, W = 0,
        // and b and c go at the first screening, after n₀ = 10.
        var seen: [Int] = []
        let result = try SelectBest.run(
            policies: ["a", "b", "c"], lowerIsBetter: true, indifference: 10, confidence: 0.95, initial: 10,
            maximum: 100
        ) { r, names in
            seen.append(r)
            let noise = r % 2 == 0 ? 5.0 : -5.0
            let means = ["a": 1000.0, "b": 1100, "c": 1200]
            return Dictionary(uniqueKeysWithValues: names.map { ($0, means[$0]! + noise) })
        }
        #expect(result.best == "a" && result.replications == 10 && seen == Array(1...10))
        #expect(
            result.eliminated.map(\.policy).sorted() == ["b", "c"]
                && result.eliminated.allSatisfy { $0.replication == 10 })
        let sentence = result.sentence(metric: .redownloadBytes) { String(Int($0)) }
        #expect(
            sentence.hasPrefix("select-best redownload_bytes: a is the best within 10 with probability ≥ 0.95"),
            "\(sentence)")
    }

    @Test(
        """
        two policies the same in every replication (issue 51): identical, so not separable; the first stands for \
        both and KN stops at n₀, said so; more is better flips the order
        """
    )
    func undecided() throws {
        let same = try SelectBest.run(
            policies: ["a", "b"], lowerIsBetter: true, indifference: 1, confidence: 0.9, initial: 5, maximum: 20
        ) { _, names in
            Dictionary(uniqueKeysWithValues: names.map { ($0, 7.0) })
        }
        #expect(same.best == "a" && same.survivors == ["a"] && same.replications == 5)
        #expect(same.identical.map(\.policy) == ["b"] && same.identical.map(\.sameAs) == ["a"])
        #expect(same.sentence(metric: .hits) { "\($0)" }.contains("so not separable: b to a"))
        // Two that differ once in a while are not identical: KN runs on and separates them.
        let close = try SelectBest.run(
            policies: ["a", "b"], lowerIsBetter: true, indifference: 1, confidence: 0.9, initial: 5, maximum: 20
        ) { r, names in
            Dictionary(uniqueKeysWithValues: names.map { ($0, $0 == "b" && r % 4 == 0 ? 7.5 : 7.0) })
        }
        #expect(close.identical.isEmpty && close.best == "a", "\(close)")
        #expect(SelectBest.initialReplications == 20)
        let hits = try SelectBest.run(
            policies: ["a", "b"], lowerIsBetter: false, indifference: 1, confidence: 0.9, initial: 5, maximum: 20
        ) { r, names in
            Dictionary(
                uniqueKeysWithValues: names.map { ($0, $0 == "a" ? 10.0 + Double(r % 3) : 20.0 + Double(r % 3)) })
        }
        #expect(hits.best == "b")
        #expect(throws: SelectBest.Failure.self) {
            try SelectBest.run(policies: ["a"], lowerIsBetter: true, indifference: 1, confidence: 0.95, maximum: 20) {
                _, _ in [:]
            }
        }
    }
}
