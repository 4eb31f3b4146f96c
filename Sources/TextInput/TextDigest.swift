/// A text's content digest: 64-bit FNV-1a over its bytes, with CRLF line ends read as LF (so
/// a checkout or a copy that converts line ends keeps the digest), as 16 hex digits.
///
/// It identifies what a file was made from (a scenario's `scenario_hash`) and what a file
/// held when it was written (the rows of a sweep shard or an advise exchange file), so that a
/// file edited or cut short since is refused. It is not a cryptographic hash: it guards
/// against mistakes, not against forgery.
public struct TextDigest {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    private var previous: UInt8 = 0

    /// The digest of no text yet.
    public init() {}

    /// Adds `text` as if it followed what was added before: the digest of a text added a piece
    /// at a time is the digest of the whole (a CRLF split between two pieces is one line end).
    public mutating func add(_ text: String) { add(bytes: text.utf8) }

    /// Adds a part of a text, with no copy of it made (a shard's rows are most of its file).
    public mutating func add(_ text: Substring) { add(bytes: text.utf8) }

    private mutating func add(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            defer { previous = byte }
            if byte == 10 && previous == 13 { continue }  // the LF of a CRLF: CR already counted as the line end
            hash = (hash ^ UInt64(byte == 13 ? 10 : byte)) &* 0x0000_0100_0000_01b3
        }
    }

    /// The digest of everything added, as 16 hex digits.
    public var value: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The digest of `text`.
    public static func of(_ text: String) -> String {
        var digest = TextDigest()
        digest.add(text)
        return digest.value
    }
}
