import Foundation
import Testing

@testable import TextInput

/// Issue 53: a path String carries the bytes of a name that is not UTF-8, and gives them back.
@Suite("Paths as bytes")
struct PathBytesTests {
    @Test("any bytes read back as the same bytes, unless their UTF-8 holds a carrying scalar (then refused)")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        // Mostly bytes above 0x7F, where the invalid sequences and the 4-byte scalars are.
        let alphabet: [UInt8] = [0x41, 0x2F, 0x80, 0xBF, 0xC3, 0xA9, 0xE2, 0x82, 0xF0, 0xF4, 0x8F, 0xBB, 0xBF, 0xFF]
        var refused = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let valid = String(validating: bytes, as: UTF8.self)
            let holdsCarrier = valid?.unicodeScalars.contains { PathBytes.carried($0) != nil } ?? false
            if let text = PathBytes.decode(bytes) {
                #expect(!holdsCarrier)
                #expect(PathBytes.bytes(text) == bytes, "\(bytes)")
                let cString = PathBytes.withCString(text) {
                    Array(UnsafeRawBufferPointer(start: $0, count: strlen($0)))
                }
                #expect(cString == bytes)
                if let valid { #expect(text == valid) }  // UTF-8 names are the same String as before
            } else {
                refused += 1
                // Refused only for a carrying scalar in valid UTF-8 (F4 8F BA/BB 80–BF), which
                // can also sit inside bytes that are not UTF-8 as a whole.
                #expect(bytes.count >= 4)
            }
        }
        #expect(refused < 20_000)
    }

    @Test("shown: each carried byte as \\xNN, nothing else changed")
    func shown() throws {
        let text = try #require(PathBytes.decode([0x6D, 0xFF, 0x2E, 0x80, 0x0A] + Array("é".utf8)))
        #expect(PathBytes.shown(text) == "m\\xff.\\x80\né")
        #expect(InputText.oneLine(text) == "m\\xff.\\x80\\né")
        #expect(PathBytes.decode(Array("a\u{10FE80}".utf8)) == nil)
        #expect(PathBytes.decode(Array("a\u{10FE7F}b\u{10FF00}".utf8)) == "a\u{10FE7F}b\u{10FF00}")
    }

    @Test("the file system helpers work on such a name: made, listed, read, renamed, removed")
    func fileSystem() throws {
        let folder = NSTemporaryDirectory() + "pathbytes-\(getpid())-" + PathBytes.decode([0xE9])!
        PathBytes.remove(folder)
        defer { PathBytes.remove(folder) }
        try PathBytes.makeFolders(folder + "/a/b")
        let file = folder + "/a/" + PathBytes.decode([0x66, 0xFF])!
        try PathBytes.create(file, Data("hi".utf8))
        #expect(throws: PathFailure.self) { try PathBytes.create(file, Data()) }  // never over a file
        #expect(PathBytes.contents(file) == Data("hi".utf8))
        #expect(Set(PathBytes.entries(of: folder + "/a") ?? []) == ["b", PathBytes.decode([0x66, 0xFF])!])
        // Only the names that begin with a dot, when asked: a hidden one of bytes no text carries too.
        let hidden = folder + "/a/" + PathBytes.decode([0x2E, 0xFF])!
        try PathBytes.create(hidden, Data())
        try PathBytes.create(folder + "/a/.t", Data())
        #expect(
            Set(PathBytes.entries(of: folder + "/a", hidden: true) ?? []) == [".t", PathBytes.decode([0x2E, 0xFF])!])
        #expect(PathBytes.entries(of: folder + "/a")?.count == 4)
        PathBytes.remove(hidden)
        try PathBytes.rename(file, folder + "/b")
        #expect(!PathBytes.exists(file) && PathBytes.exists(folder + "/b") && PathBytes.isFolder(folder + "/a"))
        #expect(PathBytes.resolved(folder + "/a/..")?.hasSuffix(PathBytes.decode([0xE9])!) == true)
        PathBytes.remove(folder)
        #expect(!PathBytes.exists(folder))
    }
}
