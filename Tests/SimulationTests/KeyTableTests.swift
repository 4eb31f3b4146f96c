import PropertyBased
import Testing

@testable import Simulation

/// The simulator's key table must behave exactly like a dictionary under any sequence of
/// inserts, overwrites and removals (removal with backward shift is the delicate part:
/// clusters that wrap around the end of the table, entries displaced from their home).
@Suite("Key table")
struct KeyTableTests {
    @Test("Agrees with Dictionary under random inserts and removals")
    func agreesWithDictionary() async {
        // Keys from a small range collide and form long clusters; a few huge keys (generator
        // key ranges start at multiples of 2^40) land anywhere.
        let key = Gen.oneOf(Gen.int(in: 0...40), Gen.int(in: 0...3).map { ($0 << 40) + 7 })
        let op = zip(Gen.bool, key, Gen.int(in: 0...1000))
        await propertyCheck(count: 300, input: op.array(of: 1...400)) { ops in
            let table = KeyTable<Int>()
            var model: [Int: Int] = [:]
            for (i, (insert, k, v)) in ops.enumerated() {
                if insert {
                    table[k] = v
                    model[k] = v
                } else {
                    table[k] = nil
                    model[k] = nil
                }
                for probe in Set(model.keys).union([k, k + 1]) where table[probe] != model[probe] {
                    Issue.record(
                        """
                        after op \(i): key \(probe) is \(String(describing: table[probe])), expected \
                        \(String(describing: model[probe]))
                        """
                    )
                    return
                }
                if table.count != model.count {
                    Issue.record("after op \(i): count \(table.count), expected \(model.count)")
                    return
                }
            }
        }
    }
}
