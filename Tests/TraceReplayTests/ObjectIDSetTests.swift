import TestSupport
import Testing

@testable import TraceReplay

@Suite("The set of object IDs a linked scan has seen")
struct ObjectIDSetTests {
    @Test("it answers as a Set does, through growth, the empty slot's own value and 0 included")
    func actsAsASet() {
        var random = SplitMix64(seed: 3)
        var set = ObjectIDSet()
        var reference = Set<UInt64>()
        let special: [UInt64] = [.max, 0, .max - 1, 1]
        for k in 0..<300_000 {
            // Few distinct keys early (repeats), then many (growth past 2^16 slots).
            let key = k % 50 == 0 ? special[k / 50 % 4] : random.next() % UInt64(k < 1_000 ? 500 : 1 << 40)
            #expect(set.insert(key) == reference.insert(key).inserted, "key \(key) at \(k)")
        }
        #expect(set.count == reference.count && reference.count > 100_000)
    }

    @Test("a table made from IDs finds each at its index")
    func tableFromIDs() {
        let ids: [UInt64] = [.max, 0, 42, 7, 1 << 63]
        let table = ObjectTable(ids: ids)
        for (i, id) in ids.enumerated() { #expect(table.find(id) == Int32(i)) }
        #expect(table.find(5) == nil)
    }
}
