/// The set of object IDs a linked scan has seen (``TraceObjects/scanLinked``), to check that
/// a request no earlier one named is a new object.
///
/// Open addressing with linear probing over one flat array of IDs and a multiplicative hash,
/// as ``ObjectTable`` but with no index beside each key (the scan numbers new objects in
/// order): 8 bytes a slot rather than 16. The load factor is at most 3/4, not 1/2: only a
/// first request looks an ID up (about 4 probes for a new one at that load, against 2.5),
/// and ten million objects take 134 MB rather than 268 at the scan's peak.
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
        if (count + 1) * 4 > slots.count * 3 { grow() }
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
