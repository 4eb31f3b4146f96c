import ODRCore

/// Values by non-negative integer key (the simulator's live requests by scenario key): an
/// open-addressing hash table with linear probing and backward-shift deletion.
///
/// Performance: `Dictionary` hashes with per-process seeded SipHash, which cost about a
/// tenth of a run's time here (a lookup and an update per request and per end). Keys are
/// non-negative integers, so a multiplicative hash spreads them well. Keys and values live
/// in two plain buffers (an empty slot has key -1 and no value), written through pointers:
/// no optionals, no copy-on-write checks. The table holds only live requests and shrinks
/// back to them: memory follows live state.
final class KeyTable<Value: BitwiseCopyable> {
    private var keys: UnsafeMutablePointer<RequestKey>
    /// Initialized where the key is not -1.
    private var values: UnsafeMutablePointer<Value>
    private var capacity: Int
    private var shift: UInt64
    private(set) var count = 0

    init() {
        capacity = 16
        shift = UInt64(64 - 4)
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: -1, count: capacity)
        values = .allocate(capacity: capacity)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    @inline(__always)
    private func home(_ key: RequestKey) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    subscript(key: RequestKey) -> Value? {
        get {
            let mask = capacity - 1
            var s = home(key)
            while keys[s] >= 0 {
                if keys[s] == key { return values[s] }
                s = (s + 1) & mask
            }
            return nil
        }
        set {
            if let newValue { insert(key, newValue) } else { removeValue(forKey: key) }
        }
    }

    private func insert(_ key: RequestKey, _ value: Value) {
        precondition(key >= 0, "request keys are non-negative")
        if (count + 1) * 2 > capacity { resize(capacity * 2) }
        let mask = capacity - 1
        var s = home(key)
        while keys[s] >= 0 {
            if keys[s] == key {
                (values + s).initialize(to: value)
                return
            }
            s = (s + 1) & mask
        }
        keys[s] = key
        (values + s).initialize(to: value)
        count += 1
    }

    /// Removes the key's entry; returns its value, or nil if there was none.
    @discardableResult
    func removeValue(forKey key: RequestKey) -> Value? {
        let mask = capacity - 1
        var s = home(key)
        while keys[s] != key {
            if keys[s] < 0 { return nil }
            s = (s + 1) & mask
        }
        let removed = values[s]
        // Backward shift: move later entries of the cluster into the hole when their home
        // position allows, so lookups never need tombstones.
        var hole = s
        var next = (s + 1) & mask
        while keys[next] >= 0 {
            let h = home(keys[next])
            // The entry may move to the hole if its home is not strictly between hole and next.
            if (next > hole && (h <= hole || h > next)) || (next < hole && h <= hole && h > next) {
                keys[hole] = keys[next]
                (values + hole).initialize(to: values[next])
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = -1
        count -= 1
        if capacity > 64 && count * 8 < capacity { resize(capacity / 2) }
        return removed
    }

    private func resize(_ newCapacity: Int) {
        let (oldKeys, oldValues, oldCapacity) = (keys, values, capacity)
        capacity = newCapacity
        shift = UInt64(64 - newCapacity.trailingZeroBitCount)
        keys = .allocate(capacity: newCapacity)
        keys.initialize(repeating: -1, count: newCapacity)
        values = .allocate(capacity: newCapacity)
        count = 0
        for s in 0..<oldCapacity where oldKeys[s] >= 0 { insert(oldKeys[s], oldValues[s]) }
        oldKeys.deallocate()
        oldValues.deallocate()
    }
}
