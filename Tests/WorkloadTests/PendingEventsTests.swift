import PropertyBased
import Testing

@testable import Workload

/// A generator's pending events must come out by time, and among equal times in the order
/// they were added: generated workloads (and so every run) depend on that order.
@Suite("Pending events")
struct PendingEventsTests {
    @Test("Pops in (time, order added), against a list searched by brute force")
    func agreesWithBruteForce() async {
        // Times from a small set, so ties are common; adds and pops interleaved.
        let op = zip(Gen.int(in: 0...2), Gen.int(in: 0...5))
        await propertyCheck(count: 300, input: op.array(of: 1...200)) { ops in
            var pending = PendingEvents<Int>()
            var model: [(time: Double, payload: Int)] = []
            for (i, (kind, t)) in ops.enumerated() {
                if kind > 0 {
                    pending.add(i, at: Double(t))
                    model.append((Double(t), i))
                } else {
                    // The model's list is in order added; the first of the earliest time wins.
                    let expected = model.indices.min { model[$0].time < model[$1].time }
                    let popped = pending.pop()
                    guard popped?.payload == expected.map({ model[$0].payload }),
                        popped?.time == expected.map({ model[$0].time })
                    else {
                        Issue.record(
                            """
                            op \(i): popped \(String(describing: popped)), expected \
                            \(String(describing: expected.map { model[$0] }))
                            """
                        )
                        return
                    }
                    if let expected { model.remove(at: expected) }
                }
                #expect(pending.nextTime == (model.map(\.time).min() ?? .infinity))
                #expect(pending.isEmpty == model.isEmpty)
            }
        }
    }
}
