import PropertyBased
import Testing
@testable import Simulation

/// The stream merger's heap must hand out streams exactly in (time, scheduling order), the
/// order that makes runs reproducible; it is checked against a list searched by brute force.
@Suite("Stream heap")
struct StreamHeapTests {
    @Test("Agrees with a brute-force minimum under inserts, top replacements and removals")
    func agreesWithBruteForce() async {
        // Times from a small set, so that ties (broken by scheduling order) are common.
        let op = zip(Gen.int(in: 0...2), Gen.int(in: 0...6))
        await propertyCheck(count: 300, input: op.array(of: 1...300)) { ops in
            var heap = StreamHeap()
            var model: [(time: Double, sequence: Int, stream: Int)] = []
            var sequence = 0
            var nextStream = 0
            for (i, (kind, t)) in ops.enumerated() {
                let time = Double(t)
                if kind == 0 || model.isEmpty {
                    heap.insert(stream: nextStream, at: time)
                    model.append((time, sequence, nextStream))
                    nextStream += 1
                } else {
                    let top = model.indices.min { (model[$0].time, model[$0].sequence) < (model[$1].time, model[$1].sequence) }!
                    if kind == 1 {
                        // A stream's next event is never earlier than the one just taken.
                        let later = model[top].time + time
                        heap.replaceTop(at: later)
                        model[top] = (later, sequence, model[top].stream)
                    } else {
                        heap.removeTop()
                        model.remove(at: top)
                    }
                }
                sequence += 1
                let expected = model.min { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
                if heap.top?.stream != expected?.stream || heap.top?.time != expected?.time {
                    Issue.record("after op \(i): top \(String(describing: heap.top)), expected \(String(describing: expected))")
                    return
                }
            }
        }
    }
}
