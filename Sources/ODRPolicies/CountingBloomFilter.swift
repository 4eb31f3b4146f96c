import Foundation

/// The frequency sketch of libCacheSim 0.3.5's W-TinyLFU (`minimalIncrementCBF.c`), bit for
/// bit: a counting Bloom filter sized for `entries` at a 0.1 % error, keyed by XXH64 of the
/// object's 8-byte ID under two seeds (double hashing, 32-bit arithmetic).
///
/// Its quirks are libCacheSim's and kept, since the estimates decide W-TinyLFU's admissions:
/// `entries` is a C `int` (a cache of 2 GiB or more wraps), an "add" increments every hashed
/// counter (not only the smallest), and a filter too small for its hashes gets twice as many
/// counters as hashes. Counters are a flat array up to 16 M of them; beyond, only the touched
/// ones are kept (``SparseCounters``; libCacheSim callocs up to 2^31 - 1 of them, 8 GiB).
struct CountingBloomFilter {
    let hashes: Int
    let counterCount: UInt32
    private var dense: [UInt32]
    private var sparse = SparseCounters()
    private let isDense: Bool

    private static let seed0: UInt64 = 0x1234_5678
    private static let seed1: UInt64 = 0x1234_4321

    init(entries: Int64, error: Double = 0.001) {
        let entries = Int32(truncatingIfNeeded: entries)
        let bitsPerEntry = -log(error) / 0.480453013918201
        hashes = Int((0.693147180559945 * bitsPerEntry).rounded(.up))
        let wanted = min((bitsPerEntry * Double(entries)).rounded(.up), Double(Int32.max))
        // C's (int) of a negative double out of range is INT_MIN: too few either way.
        let counters = wanted < Double(hashes) ? hashes * 2 : Int(wanted)
        counterCount = UInt32(counters)
        isDense = counters <= 1 << 24
        dense = isDense ? [UInt32](repeating: 0, count: counters) : []
    }

    private func counter(_ x: UInt32) -> UInt32 { isDense ? dense[Int(x)] : sparse[x] }

    /// The positions of `key`'s counters, as `(a + i * b) % counters` in 32 bits.
    private func positions(_ key: UInt64) -> (a: UInt32, b: UInt32) {
        (
            UInt32(truncatingIfNeeded: Self.xxh64(key, seed: Self.seed0)),
            UInt32(truncatingIfNeeded: Self.xxh64(key, seed: Self.seed1))
        )
    }

    /// The smallest of `key`'s counters.
    func estimate(_ key: UInt64) -> UInt32 {
        let (a, b) = positions(key)
        var least = UInt32.max
        for i in 0..<UInt32(hashes) { least = min(least, counter((a &+ i &* b) % counterCount)) }
        return least
    }

    /// Counts `key` once: each of its counters (a counter hashed twice, twice).
    mutating func add(_ key: UInt64) {
        let (a, b) = positions(key)
        for i in 0..<UInt32(hashes) {
            let x = (a &+ i &* b) % counterCount
            if isDense { dense[Int(x)] &+= 1 } else { sparse.increment(x) }
        }
    }

    /// Halves every counter (`minimalIncrementCBF_decay`).
    mutating func decay() {
        if isDense {
            for i in dense.indices { dense[i] >>= 1 }
        } else {
            sparse.halve()
        }
    }

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    /// XXH64 (Yann Collet's xxHash, its specification) of the 8 little-endian bytes of `key`.
    static func xxh64(_ key: UInt64, seed: UInt64) -> UInt64 {
        var h = seed &+ prime5 &+ 8
        let lane = rotl(key &* prime2, 31) &* prime1
        h ^= lane
        h = rotl(h, 27) &* prime1 &+ prime4
        h ^= h >> 33
        h = h &* prime2
        h ^= h >> 29
        h = h &* prime3
        h ^= h >> 32
        return h
    }
}

/// The counters a large filter has touched, by position: open addressing with linear probing
/// (a Swift `Dictionary` took 5 times as long on a 2 M-request replay).
private struct SparseCounters {
    /// Position + 1 (0: empty), and its count.
    private var keys = [UInt32](repeating: 0, count: 1024)
    private var values = [UInt32](repeating: 0, count: 1024)
    private var count = 0

    private func slot(_ key: UInt32) -> Int {
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while keys[i] != 0 && keys[i] != key { i = (i + 1) & mask }
        return i
    }

    subscript(position: UInt32) -> UInt32 {
        let i = slot(position &+ 1)
        return keys[i] == 0 ? 0 : values[i]
    }

    mutating func increment(_ position: UInt32) {
        let key = position &+ 1
        var i = slot(key)
        if keys[i] == 0 {
            if 2 * (count + 1) > keys.count {
                grow()
                i = slot(key)
            }
            keys[i] = key
            count += 1
        }
        values[i] &+= 1
    }

    private mutating func grow() { rebuild(capacity: keys.count * 2) { $0 } }

    /// Every count halved; the zeros dropped.
    mutating func halve() { rebuild(capacity: keys.count) { $0 >> 1 } }

    private mutating func rebuild(capacity: Int, _ change: (UInt32) -> UInt32) {
        let (oldKeys, oldValues) = (keys, values)
        keys = [UInt32](repeating: 0, count: capacity)
        values = [UInt32](repeating: 0, count: capacity)
        count = 0
        for k in oldKeys.indices where oldKeys[k] != 0 {
            let value = change(oldValues[k])
            guard value > 0 else { continue }
            let i = slot(oldKeys[k])
            keys[i] = oldKeys[k]
            values[i] = value
            count += 1
        }
    }
}
