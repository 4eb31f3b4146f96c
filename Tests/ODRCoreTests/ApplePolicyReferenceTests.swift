import ODRPolicies
import PropertyBased
import Testing

@testable import ODRCore

/// `ApplePolicy` keeps recency lists, heaps with lazy deletion and lower-bound keys for
/// speed. Its choices must be those of the rule it implements, computed the slow way: among
/// the candidates, the app whose least recently noted candidate is oldest gives up its
/// candidate with the lowest (preservation, recency); repeat until enough is freed.
@Suite("apple policy equals its rule computed by brute force")
struct ApplePolicyReferenceTests {
    @Test("Same victims, same device, at every step of random sequences")
    func sameChoices() async {
        await propertyCheck(
            count: 200,
            input: Gen.int(in: 150...320), Gen.int(in: 60...200), Gen.bool, PropertyTests.steps.array(of: 20...100)
        ) { capacity, other, terminates, steps in
            Self.compare(steps, capacity: Int64(capacity) * MB, other: Int64(other) * MB, terminates: terminates)
        }
    }

    @Test(
        """
        an app's place in the order counts a pack that became a candidate with no note (the install's hold on it \
        ended)
        """
    )
    func candidateWithoutNote() {
        // Found by the test above (shrunk). The game's intro pack (tick 1) is held by its install
        // during the first purge, which takes the game's pack of tick 3 and so set the game's
        // key to 3. The install then lets go of the intro pack, which tells the policy nothing.
        // At the next purge the game's oldest candidate is the intro pack (tick 1), older than
        // the news app's pack (tick 2): the game goes first.
        func step(_ name: String, _ a: Int, _ b: Int) -> PropertyTests.Step {
            PropertyTests.Step(code: Harness.opNames.firstIndex(of: name)!, a: a, b: b)
        }
        let steps = [
            step("launch", 4, 0), step("deliverAll", 0, 0), step("conditional", 0, 0), step("begin", 353, 1),
            step("conditional", 0, 0), step("terminate", 4, 0), step("begin", 0, 0), step("begin", 0, 0),
        ]
        Self.compare(steps, capacity: 205 * MB, other: 60 * MB, terminates: false)
    }

    static func compare(_ steps: [PropertyTests.Step], capacity: Int64, other: Int64, terminates: Bool) {
        let fast = Recorder(ApplePolicy())
        let slow = Recorder(Reference())
        let a = Harness(capacity: capacity, other: other, terminateApp: terminates, policy: fast)
        let b = Harness(capacity: capacity, other: other, terminateApp: terminates, policy: slow)
        for (i, step) in steps.enumerated() {
            a.apply(step)
            b.apply(step)
            var problems: [String] = []
            if fast.answers != slow.answers { problems.append("victims \(fast.answers) vs \(slow.answers)") }
            if a.device.ledger != b.device.ledger { problems.append("ledger \(a.device.ledger) vs \(b.device.ledger)") }
            for p in 0..<a.device.packCount
            where a.device.state(of: PackID(rawValue: Int32(p))) != b.device.state(of: PackID(rawValue: Int32(p))) {
                problems.append(
                    """
                    pack \(p): \(a.device.state(of: PackID(rawValue: Int32(p)))) vs \
                    \(b.device.state(of: PackID(rawValue: Int32(p))))
                    """
                )
            }
            if !problems.isEmpty {
                Issue.record("step \(i) \(step): \(problems.joined(separator: "; "))")
                return
            }
        }
    }

    /// Passes notifications on and writes down every answer.
    final class Recorder: PurgePolicy {
        let inner: any PurgePolicy
        var answers: [[PackID]] = []
        var name: String { inner.name }
        init(_ inner: any PurgePolicy) { self.inner = inner }
        func packStored(_ pack: PurgeCandidate) { inner.packStored(pack) }
        func packRequested(_ pack: PurgeCandidate) { inner.packRequested(pack) }
        func packReleased(_ pack: PurgeCandidate) { inner.packReleased(pack) }
        func packRemoved(_ pack: PurgeCandidate) { inner.packRemoved(pack) }
        func packPreservationChanged(_ pack: PurgeCandidate) { inner.packPreservationChanged(pack) }
        func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
            let victims = inner.selectVictims(toFree: bytes, from: view)
            answers.append(victims)
            return victims
        }
    }

    /// The rule, by brute force: each pack's key is what it was at its latest notification.
    final class Reference: PurgePolicy {
        let name = "apple-reference"
        var keys: [PackID: (preservation: Double, tick: UInt64)] = [:]

        func note(_ c: PurgeCandidate) { keys[c.pack] = (c.preservation, c.lastUseTick) }
        func packStored(_ pack: PurgeCandidate) { note(pack) }
        func packRequested(_ pack: PurgeCandidate) { note(pack) }
        func packReleased(_ pack: PurgeCandidate) { note(pack) }
        func packPreservationChanged(_ pack: PurgeCandidate) { note(pack) }
        func packRemoved(_ pack: PurgeCandidate) { keys[pack.pack] = nil }

        func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
            var remaining = view.candidates.compactMap { c in
                keys[c.pack].map {
                    (pack: c.pack, app: c.app, size: c.size, preservation: $0.preservation, tick: $0.tick)
                }
            }
            var victims: [PackID] = []
            var freed: Int64 = 0
            while freed < bytes,
                let oldest = remaining.min(by: { ($0.tick, $0.pack.rawValue) < ($1.tick, $1.pack.rawValue) })
            {
                let victim = remaining.filter { $0.app == oldest.app }.min {
                    ($0.preservation, $0.tick, $0.pack.rawValue) < ($1.preservation, $1.tick, $1.pack.rawValue)
                }!
                victims.append(victim.pack)
                freed += victim.size
                remaining.removeAll { $0.pack == victim.pack }
            }
            return victims
        }
    }
}
