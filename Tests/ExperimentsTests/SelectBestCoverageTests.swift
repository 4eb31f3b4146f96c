import Foundation
import Testing

@testable import Experiments

/// Issue 40, done when: KN picks the true best at least 95 % of the time at its indifference
/// zone, on 100 macro-replications whose true means are known by construction.
@Suite("KN's probability of correct selection")
struct SelectBestCoverageTests {
    /// A seeded normal stream (SplitMix64 and Box–Muller): the test's own, so that the
    /// procedure is judged against numbers it did not make.
    struct Normals {
        var state: UInt64
        mutating func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return (Double(z >> 11) + 0.5) / Double(1 << 53)
        }
        mutating func next() -> Double { sqrt(-2 * log(uniform())) * cos(2 * .pi * uniform()) }
    }

    @Test(
        """
        four policies in the slippage configuration (true means 0, δ, δ, δ; σ = 1; δ = 0.5): the best chosen in \
        ≥ 95 of 100 macro-replications
        """
    )
    func probabilityOfCorrectSelection() throws {
        // The hardest configuration for an indifference-zone procedure: every other policy
        // exactly δ worse than the best. KN guarantees P(correct) ≥ 0.95 there; each
        // macro-replication starts its own stream (base seed 1…100), observations independent.
        let means = ["best": 0.0, "b": 0.5, "c": 0.5, "d": 0.5]
        var correct = 0
        var replications = 0
        for macro in 1...100 {
            var normals = Normals(state: UInt64(macro) &* 1_000_003)
            let result = try SelectBest.run(
                policies: ["b", "best", "c", "d"], lowerIsBetter: true, indifference: 0.5, confidence: 0.95,
                maximum: 10_000
            ) { _, names in
                Dictionary(uniqueKeysWithValues: names.map { ($0, means[$0]! + normals.next()) })
            }
            if result.best == "best" { correct += 1 }
            replications += result.replications
        }
        #expect(correct >= 95, "correct in \(correct) of 100")
        // It stopped each time before the cap (a decision, not a timeout).
        #expect(replications < 100 * 10_000)
    }
}
