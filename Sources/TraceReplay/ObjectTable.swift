import CPrefetch

/// Maps a trace's object IDs to dense indices 0, 1, … in order of first appearance.
///
/// Open addressing with linear probing over one flat array of (key, index) slots, a
/// multiplicative hash and a load factor of at most 1/2: usually one cache miss per lookup,
/// several times faster than `Dictionary` (whose per-process seeded hashing also costs more
/// than a trace replay can afford on every line).
struct ObjectTable {
    private struct Slot {
        var key: UInt64 = 0
        /// Dense index of the key, or -1 for an empty slot.
        var value: Int32 = -1
        /// A small tag stored with the key (the object's app), in what would be padding, so
        /// a lookup answers it without touching another table.
        var tag: Int32 = 0
    }
    private var slots: [Slot]
    private var shift: UInt64
    private(set) var count = 0

    init(minimumCapacity: Int = 1 << 16) {
        var bits = 4
        while (1 << bits) < minimumCapacity * 2 { bits += 1 }
        slots = Array(repeating: Slot(), count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    /// The table of `ids`, each distinct, at its index.
    init(ids: [UInt64]) {
        self.init(minimumCapacity: ids.count)
        for id in ids { _ = findOrInsert(id) }
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int { ObjectIDHash.slot(key, shift: shift) }

    /// Starts loading the slot where a lookup of `key` begins (a hint; changes nothing).
    @inline(__always)
    func prefetch(_ key: UInt64) { ObjectIDHash.prefetch(slots, slot(key)) }

    /// The index of `key`, or nil if it was never inserted.
    @inline(__always)
    func find(_ key: UInt64) -> Int32? {
        let mask = slots.count - 1
        var s = slot(key)
        return slots.withUnsafeBufferPointer { table in
            while true {
                let entry = table[s]
                if entry.value < 0 { return nil }
                if entry.key == key { return entry.value }
                s = (s + 1) & mask
            }
        }
    }

    /// The index of `key` and its tag, giving it the next index (`count`) and `tag` if it is new.
    @inline(__always)
    mutating func findOrInsert(_ key: UInt64, tag: Int32 = 0) -> (index: Int32, inserted: Bool, tag: Int32) {
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var s = slot(key)
        while true {
            let entry = slots[s]
            if entry.value < 0 {
                slots[s] = Slot(key: key, value: Int32(count), tag: tag)
                count += 1
                return (Int32(count - 1), true, tag)
            }
            if entry.key == key { return (entry.value, false, entry.tag) }
            s = (s + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for entry in old where entry.value >= 0 {
            var s = slot(entry.key)
            while slots[s].value >= 0 { s = (s + 1) & mask }
            slots[s] = entry
        }
    }
}

/// Where an object ID's search starts in ``ObjectTable`` and ``ObjectIDSet``: tables of 2^k
/// slots, open addressing with linear probing.
enum ObjectIDHash {
    /// The home slot of `key` in a table of 2^(64 − `shift`) slots: multiplicative (Fibonacci)
    /// hashing, whose top bits spread the sequential IDs traces are full of.
    @inline(__always)
    static func slot(_ key: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Starts loading slot `slot` of `slots` (a hint; changes nothing).
    @inline(__always)
    static func prefetch<Slot>(_ slots: [Slot], _ slot: Int) {
        slots.withUnsafeBufferPointer { odr_prefetch($0.baseAddress! + slot) }
    }
}
