/// Maps a trace's object IDs to dense indices 0, 1, … in order of first appearance.
///
/// Open addressing with linear probing over two flat arrays, a multiplicative hash and a
/// load factor of at most 1/2: one or two cache misses per lookup and 12 bytes per slot,
/// several times faster than `Dictionary` (whose per-process seeded hashing also costs more
/// than a trace replay can afford on every line).
struct ObjectTable {
    private var keys: [UInt64]
    /// Dense index of the slot's key, or -1 for an empty slot.
    private var values: [Int32]
    private var shift: UInt64
    private(set) var count = 0

    init(minimumCapacity: Int = 1 << 16) {
        var bits = 4
        while (1 << bits) < minimumCapacity * 2 { bits += 1 }
        keys = Array(repeating: 0, count: 1 << bits)
        values = Array(repeating: -1, count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The index of `key`, or nil if it was never inserted.
    @inline(__always)
    func find(_ key: UInt64) -> Int32? {
        let mask = keys.count - 1
        var s = slot(key)
        return keys.withUnsafeBufferPointer { k in
            values.withUnsafeBufferPointer { v in
                while true {
                    let value = v[s]
                    if value < 0 { return nil }
                    if k[s] == key { return value }
                    s = (s + 1) & mask
                }
            }
        }
    }

    /// The index of `key`, giving it the next index (`count`) if it is new.
    @inline(__always)
    mutating func findOrInsert(_ key: UInt64) -> (index: Int32, inserted: Bool) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var s = slot(key)
        while true {
            let value = values[s]
            if value < 0 {
                keys[s] = key
                values[s] = Int32(count)
                count += 1
                return (Int32(count - 1), true)
            }
            if keys[s] == key { return (value, false) }
            s = (s + 1) & mask
        }
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: -1, count: oldKeys.count * 2)
        shift -= 1
        let mask = keys.count - 1
        for i in oldKeys.indices where oldValues[i] >= 0 {
            var s = slot(oldKeys[i])
            while values[s] >= 0 { s = (s + 1) & mask }
            keys[s] = oldKeys[i]
            values[s] = oldValues[i]
        }
    }
}
