/// The bytes `odr-sim serve` serves for one version of one pack: deterministic, of the pack's
/// exact size, different for every app, pack and version, and computable from any offset (a
/// `Range` request needs no bytes before it). Its ``digest`` is what `odr-sim live` checks a
/// finished file against.
///
/// Byte `i` is byte `i % 8` (little-endian) of word `i / 8`, and word `k` is SplitMix64 of
/// the pack's seed plus `k`: a counter-based generator, so any stretch costs its own length.
public struct PackContent: Sendable, Hashable {
    public let app: String
    public let pack: String
    public let version: Int
    public let size: Int64
    private let seed: UInt64

    public init(app: String, pack: String, version: Int, size: Int64) {
        precondition(size >= 0 && version >= 1, "a pack has a size of 0 or more and versions from 1")
        self.app = app
        self.pack = pack
        self.version = version
        self.size = size
        // FNV-1a over the names and version: the stream's seed.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(app)\u{0}\(pack)\u{0}\(version)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        seed = hash
    }

    @inline(__always)
    private func word(_ k: Int64) -> UInt64 {
        var z = seed &+ UInt64(bitPattern: k) &* 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Fills `buffer` with the bytes from `offset` on (as many as fit before the end).
    /// Returns how many were written.
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, from offset: Int64) -> Int {
        precondition(offset >= 0 && offset <= size, "offset \(offset) outside a pack of \(size) bytes")
        let count = Int(min(Int64(buffer.count), size - offset))
        var i = 0
        // Bytes up to the next whole word one by one, then whole words, then the tail.
        while i < count && (offset + Int64(i)) & 7 != 0 {
            let at = offset + Int64(i)
            buffer[i] = UInt8(truncatingIfNeeded: word(at >> 3) >> (8 * UInt64(at & 7)))
            i += 1
        }
        while i + 8 <= count {
            buffer.storeBytes(of: word((offset + Int64(i)) >> 3).littleEndian, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            let at = offset + Int64(i)
            buffer[i] = UInt8(truncatingIfNeeded: word(at >> 3) >> (8 * UInt64(at & 7)))
            i += 1
        }
        return count
    }

    /// The bytes from `offset`, `count` of them at most (for tests and small packs).
    public func bytes(from offset: Int64 = 0, count: Int? = nil) -> [UInt8] {
        let n = Int(min(Int64(count ?? Int.max), size - offset))
        var out = [UInt8](repeating: 0, count: n)
        _ = out.withUnsafeMutableBytes { fill($0, from: offset) }
        return out
    }

    /// The check digest of the whole content (``PackDigest``): the digest's rounds taken
    /// over the generator's words directly (they are the content's 8-byte words), a few
    /// gigabytes a second, so a server can name every version's digest at once.
    public var digest: UInt64 {
        var digest = PackDigest()
        let words = size >> 3
        for k in 0..<words { digest.addWord(word(k)) }
        let tail = Int(size & 7)
        if tail > 0 {
            var last = word(words).littleEndian
            withUnsafeBytes(of: &last) { digest.add(UnsafeRawBufferPointer(rebasing: $0[0..<tail])) }
        }
        return digest.value
    }
}
