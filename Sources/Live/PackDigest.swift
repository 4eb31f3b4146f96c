/// A 64-bit check digest of a pack's bytes, fed in pieces of any length: what `odr-sim serve`
/// puts in a pack's `ETag` and `odr-sim live` checks a finished file against.
///
/// It catches a truncated, shifted or mixed-up file (a resumed download joined at the wrong
/// offset, another version's bytes); it is not a cryptographic hash and proves nothing
/// against a hostile server. Each 8-byte word (little-endian; the last one zero-padded)
/// goes through an xxHash64-style round, and the length is mixed in at the end.
public struct PackDigest: Sendable {
    private var state: UInt64 = 0x2724_1B9A_6E0D_3F11
    private var pending: UInt64 = 0
    private var pendingBytes = 0
    private var length: UInt64 = 0

    public init() {}

    @inline(__always)
    private mutating func round(_ word: UInt64) {
        state ^= (word &* 0xC2B2_AE3D_27D4_EB4F)
        state = ((state << 31) | (state >> 33)) &* 0x9E37_79B1_85EB_CA87
    }

    /// Adds one whole 8-byte word (its bytes little-endian) after everything added so far,
    /// which must be a whole number of words.
    @inline(__always)
    mutating func addWord(_ word: UInt64) {
        precondition(pendingBytes == 0, "a word after a piece that was not whole words")
        length &+= 8
        round(word)
    }

    /// Adds `bytes` after everything added so far.
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var i = 0
        // Finish a word begun by the previous piece.
        while pendingBytes > 0 && i < bytes.count {
            pending |= UInt64(bytes[i]) << (8 * UInt64(pendingBytes))
            pendingBytes += 1
            i += 1
            if pendingBytes == 8 {
                round(pending)
                pending = 0
                pendingBytes = 0
            }
        }
        while i + 8 <= bytes.count {
            round(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        while i < bytes.count {
            pending |= UInt64(bytes[i]) << (8 * UInt64(pendingBytes))
            pendingBytes += 1
            i += 1
        }
    }

    /// The digest of everything added.
    public var value: UInt64 {
        var copy = self
        if copy.pendingBytes > 0 { copy.round(copy.pending) }
        var h = copy.state ^ copy.length
        h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 33)
    }

    /// The digest as the server's `ETag` carries it: `"odr64-` and 16 hex digits, quoted.
    public static func etag(_ digest: UInt64) -> String {
        let hex = String(digest, radix: 16)
        return "\"odr64-" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// The digest an odr-sim `ETag` names; nil for any other tag (another server's).
    public static func digest(fromETag tag: String) -> UInt64? {
        var text = Substring(tag)
        if text.hasPrefix("W/") { return nil }
        guard text.hasPrefix("\"odr64-"), text.hasSuffix("\""), text.count == 24 else { return nil }
        text = text.dropFirst(7).dropLast()
        return UInt64(text, radix: 16)
    }
}
