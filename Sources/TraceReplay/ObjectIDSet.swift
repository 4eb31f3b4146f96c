/// The set of object IDs a linked scan has seen (``TraceObjects/scanLinked``), to check that
/// a request no earlier one named is a new object.
///
/// Open addressing with linear probing over one flat array of IDs, a multiplicative hash and
/// a load factor of at most 1/2, as ``ObjectTable`` but with no index beside each key (the
/// scan numbers new objects in order): 8 bytes a slot rather than 16, which at ten million
/// objects is the difference between 270 and 540 MB at the scan's peak.
struct ObjectIDSet {
    /// Marks an empty slot; the ID equal to it is kept apart (``holdsEmptyKey``).
    private static let empty = UInt64.max
    private var slots: [UInt64]
    private var shift: UInt64
    private var holdsEmptyKey = false
    private(set) var count = 0

    init() {
        slots = Array(repeating: Self.empty, count: 1 << 16)
        shift = 64 - 16
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int { ObjectIDHash.slot(key, shift: shift) }

    /// Starts loading the slot where a lookup of `key` begins (a hint; changes nothing).
    @inline(__always)
    func prefetch(_ key: UInt64) { ObjectIDHash.prefetch(slots, slot(key)) }

    /// Adds `key`; false if it was there already.
    @inline(__always)
    mutating func insert(_ key: UInt64) -> Bool {
        if key == Self.empty {
            defer { holdsEmptyKey = true }
            if !holdsEmptyKey { count += 1 }
            return !holdsEmptyKey
        }
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var s = slot(key)
        while true {
            let entry = slots[s]
            if entry == Self.empty {
                slots[s] = key
                count += 1
                return true
            }
            if entry == key { return false }
            s = (s + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = []
        slots = Array(repeating: Self.empty, count: old.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for key in old where key != Self.empty {
            var s = slot(key)
            while slots[s] != Self.empty { s = (s + 1) & mask }
            slots[s] = key
        }
    }
}
