/// Where a pack's bytes live, on the server and in the folder: one scheme shared by
/// `odr-sim serve` and `odr-sim live`, so that neither guesses the other's names.
///
/// - URL path: `/packs/APP/PACK/vVERSION`, each name percent-encoded (RFC 3986's unreserved
///   characters kept), so any pack name of a catalog makes one path segment.
/// - File in the folder: `APP/PACK` (complete) or `APP/PACK.part` (downloading or partial),
///   with the same encoding, so a name can neither climb out of the folder nor collide.
public enum PackPath {
    /// The path of version `version` of `pack` of app `app` on the server.
    public static func url(app: String, pack: String, version: Int) -> String {
        "/packs/\(encode(app))/\(encode(pack))/v\(version)"
    }

    /// The app, pack and version a server path names; nil if it names none.
    public static func parse(_ path: String) -> (app: String, pack: String, version: Int)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "packs", parts[4].hasPrefix("v"),
            let version = Int(parts[4].dropFirst()), version >= 1,
            let app = decode(parts[2]), let pack = decode(parts[3]), !app.isEmpty, !pack.isEmpty
        else { return nil }
        return (app, pack, version)
    }

    /// The file of a complete pack, relative to the folder.
    public static func file(app: String, pack: String) -> String { "\(encode(app))/\(encode(pack))" }

    /// The file of a pack still downloading or partial, relative to the folder.
    public static func partFile(app: String, pack: String) -> String { file(app: app, pack: pack) + ".part" }

    /// Percent-encodes every byte but RFC 3986's unreserved characters; "." and ".." are
    /// encoded too, so that no segment means the folder or its parent.
    public static func encode(_ name: String) -> String {
        if name == "." || name == ".." { return name.utf8.map { _ in "%2E" }.joined() }
        var out = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    /// The name `encode` made `text` from; nil if `text` is not percent-encoded UTF-8.
    public static func decode<S: StringProtocol>(_ text: S) -> String? {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i != utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: i)
                guard first != utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex,
                    let value = UInt8(String(decoding: [utf8[first], utf8[second]], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                i = utf8.index(after: second)
            } else {
                bytes.append(byte)
                i = utf8.index(after: i)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
