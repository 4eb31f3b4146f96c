import Metrics
import Testing

/// Issue 50: a pull request that replaced the scenario's policy passed the gate, which re-ran
/// the baseline's. A change is a policy of the baseline gone and one gained, one for one.
@Suite("A policy change since the baseline")
struct PolicyChangeTests {
    @Test("one policy replaced by another is a change; the baseline's order keeps the replacement in its place")
    func replaced() throws {
        let change = try #require(try PolicyChange.between(baseline: ["largest-first"], scenario: ["lru"]))
        #expect(change.lost == "largest-first" && change.replacement == "lru")
        #expect(change.policies(["apple", "largest-first"]) == ["apple", "lru"])
        // Each replication of the new policy meets the old one's on the same seed.
        let rows = RegressionGateTests.rows([1, 2], policy: "largest-first") + RegressionGateTests.rows([5])
        #expect(change.relabel(rows).map(\.policy) == ["lru", "lru", "lru"])
        #expect(change.relabel(rows).map(\.replication) == [1, 2, 1])
    }

    @Test(
        "no change: the same policies, one added (no baseline for it), one dropped (nothing to judge)",
        arguments: [
            (["lru"], ["lru"]), (["lru"], ["apple", "lru", "fifo"]), (["lru", "fifo"], ["lru"]), ([], ["lru"]),
        ])
    func unchanged(baseline: [String], scenario: [String]) throws {
        #expect(try PolicyChange.between(baseline: baseline, scenario: scenario) == nil)
    }

    @Test("two replaced at once cannot be paired: refused, naming both sides")
    func ambiguous() {
        #expect(throws: PolicyChange.Ambiguity.self) {
            try PolicyChange.between(baseline: ["lru", "fifo"], scenario: ["gdsf", "sieve"])
        }
        do {
            _ = try PolicyChange.between(baseline: ["lru", "fifo"], scenario: ["gdsf", "sieve"])
        } catch {
            #expect(
                error.description.hasPrefix(
                    "the scenario's policies changed since the baseline (lru, fifo → gdsf, sieve)"))
        }
    }
}
