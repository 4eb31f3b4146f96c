/// A scenario file's content digest: 64-bit FNV-1a over its bytes, with CRLF line ends read
/// as LF (so a checkout that converts line ends keeps the digest), as 16 hex digits.
///
/// It identifies the scenario a baseline was made from (`summary.csv`'s `scenario_hash`),
/// so that `odr-sim check` refuses to compare runs of two different files. It is not a
/// cryptographic hash: it guards against mistakes, not against forgery.
public enum SourceDigest {
    public static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var previous: UInt8 = 0
        for byte in text.utf8 {
            defer { previous = byte }
            if byte == 10 && previous == 13 { continue }  // the LF of a CRLF: CR already counted as the line end
            hash = (hash ^ UInt64(byte == 13 ? 10 : byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
