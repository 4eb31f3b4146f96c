import ODRCore

/// Values by non-negative integer key (the simulator's live requests by scenario key): an open-addressing hash table with
/// linear probing and backward-shift deletion.
///
/// Performance: `Dictionary` hashes with per-process seeded SipHash, which cost about a
/// tenth of a run's time here (two lookups and two updates per request). Keys are
/// non-negative integers, so a multiplicative hash spreads them well. The table holds only
/// live requests and shrinks back to them: memory follows live state.
struct KeyTable<Value> {
    private struct Slot {
        /// The key, or -1 for an empty slot.
        var key: RequestKey = -1
        var value: Value? = nil
    }
    private var slots = [Slot](repeating: Slot(), count: 16)
    private var shift = UInt64(64 - 4)
    private(set) var count = 0

    private func home(_ key: RequestKey) -> Int { Self.home(key, shift) }

    private static func home(_ key: RequestKey, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    subscript(key: RequestKey) -> Value? {
        get {
            let mask = slots.count - 1
            var s = home(key)
            while slots[s].key >= 0 {
                if slots[s].key == key { return slots[s].value }
                s = (s + 1) & mask
            }
            return nil
        }
        set {
            if let newValue { insert(key, newValue) } else { removeValue(forKey: key) }
        }
    }

    private mutating func insert(_ key: RequestKey, _ value: Value) {
        precondition(key >= 0, "request keys are non-negative")
        if (count + 1) * 2 > slots.count { resize(slots.count * 2) }
        let shift = self.shift
        // Performance: one copy-on-write check per call, not one per slot written.
        let added = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var s = Self.home(key, shift)
            while slots[s].key >= 0 {
                if slots[s].key == key {
                    slots[s].value = value
                    return false
                }
                s = (s + 1) & mask
            }
            slots[s] = Slot(key: key, value: value)
            return true
        }
        if added { count += 1 }
    }

    /// Removes the key's entry; returns its value, or nil if there was none.
    @discardableResult
    mutating func removeValue(forKey key: RequestKey) -> Value? {
        let shift = self.shift
        let removed: Value? = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var s = Self.home(key, shift)
            while slots[s].key != key {
                if slots[s].key < 0 { return nil }
                s = (s + 1) & mask
            }
            let removed = slots[s].value
            // Backward shift: move later entries of the cluster into the hole when their home
            // position allows, so lookups never need tombstones.
            var hole = s
            var next = (s + 1) & mask
            while slots[next].key >= 0 {
                let h = Self.home(slots[next].key, shift)
                // The entry may move to the hole if its home is not strictly between hole and next.
                if (next > hole && (h <= hole || h > next)) || (next < hole && h <= hole && h > next) {
                    slots[hole] = slots[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            slots[hole] = Slot()
            return removed
        }
        guard removed != nil else { return nil }
        count -= 1
        if slots.count > 64 && count * 8 < slots.count { resize(slots.count / 2) }
        return removed
    }

    private mutating func resize(_ capacity: Int) {
        let old = slots
        slots = [Slot](repeating: Slot(), count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for slot in old where slot.key >= 0 { insert(slot.key, slot.value!) }
    }
}
