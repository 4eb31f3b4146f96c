import Testing

@testable import Live

/// The served bytes are deterministic, of the exact size, readable from any offset, and
/// their digest is the same however they are fed; the paths round-trip any name.
@Suite("Pack content, digest and paths")
struct PackContentTests {
    @Test("Any stretch read from its offset is the same stretch of the whole, and versions differ")
    func stretches() {
        let content = PackContent(app: "game", pack: "level-1+forest", version: 1, size: 10_007)
        let whole = content.bytes()
        #expect(whole.count == 10_007)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let from = Int.random(in: 0...10_007, using: &random)
            let count = Int.random(in: 0...200, using: &random)
            #expect(content.bytes(from: Int64(from), count: count) == Array(whole[from..<min(10_007, from + count)]))
        }
        let next = PackContent(app: "game", pack: "level-1+forest", version: 2, size: 10_007)
        #expect(next.bytes() != whole)
        #expect(PackContent(app: "game", pack: "level-1+forest", version: 1, size: 10_007).bytes() == whole)
        // Not a constant or a short cycle: every byte value turns up in 10 KB.
        #expect(Set(whole).count == 256)
    }

    @Test("The digest is the same fed whole, in random pieces, or from the generator's words; one byte changes it")
    func digest() {
        for size in [0, 1, 7, 8, 9, 4_096, 65_543] {
            let content = PackContent(app: "a", pack: "p", version: 3, size: Int64(size))
            var bytes = content.bytes()
            var whole = PackDigest()
            bytes.withUnsafeBytes { whole.add($0) }
            #expect(whole.value == content.digest, "size \(size)")
            var pieces = PackDigest()
            var random = SystemRandomNumberGenerator()
            var at = 0
            while at < size {
                let n = Int.random(in: 1...13, using: &random)
                let end = min(size, at + n)
                bytes[at..<end].withUnsafeBytes { pieces.add($0) }
                at = end
            }
            #expect(pieces.value == whole.value, "size \(size)")
            guard size > 0 else { continue }
            bytes[size / 2] ^= 1
            var changed = PackDigest()
            bytes.withUnsafeBytes { changed.add($0) }
            #expect(changed.value != whole.value)
            // A byte more (a zero, as padding would be) is another digest too.
            var longer = PackDigest()
            (content.bytes() + [0]).withUnsafeBytes { longer.add($0) }
            #expect(longer.value != whole.value)
        }
        #expect(PackDigest.digest(fromETag: PackDigest.etag(0x1F)) == 0x1F)
        #expect(PackDigest.etag(0x1F) == "\"odr64-000000000000001f\"")
        #expect(PackDigest.digest(fromETag: "\"5f3a-1c\"") == nil)
        #expect(PackDigest.digest(fromETag: "W/\"odr64-000000000000001f\"") == nil)
    }

    @Test("Paths round-trip any name, and no name climbs out of the folder")
    func paths() {
        for name in ["level-1", "level-1+level-2", "a b/c", "..", ".", "é%", "~x_y.z"] {
            let url = PackPath.url(app: name, pack: name, version: 4)
            let parsed = PackPath.parse(url)
            #expect(parsed?.app == name && parsed?.pack == name && parsed?.version == 4, "\(name)")
            let file = PackPath.file(app: name, pack: name)
            #expect(
                file.split(separator: "/").count == 2
                    && !file.split(separator: "/").contains { $0 == ".." || $0 == "." })
        }
        #expect(PackPath.encode("a b/c") == "a%20b%2Fc")
        #expect(PackPath.parse("/packs/game/level-1/v0") == nil)
        #expect(PackPath.parse("/packs/game/level-1") == nil)
        #expect(PackPath.parse("/packs/game/%ZZ/v1") == nil)
        #expect(PackPath.parse("/stats") == nil)
    }

    @Test("Range headers: A-B, A-, -N, and what is ignored or unsatisfiable")
    func ranges() {
        typealias R = PackRequestHandler.RangeAsked
        #expect(PackRequestHandler.range("bytes=0-99", size: 1000) == R.part(0, 100))
        #expect(PackRequestHandler.range("bytes=900-", size: 1000) == R.part(900, 1000))
        #expect(PackRequestHandler.range("bytes=-100", size: 1000) == R.part(900, 1000))
        #expect(PackRequestHandler.range("bytes=-5000", size: 1000) == R.part(0, 1000))
        #expect(PackRequestHandler.range("bytes=990-5000", size: 1000) == R.part(990, 1000))
        #expect(PackRequestHandler.range("bytes=1000-", size: 1000) == R.unsatisfiable)
        #expect(PackRequestHandler.range("bytes=0-1,5-9", size: 1000) == R.whole)
        #expect(PackRequestHandler.range("bytes=9-5", size: 1000) == R.whole)
        #expect(PackRequestHandler.range("items=0-5", size: 1000) == R.whole)
    }
}
