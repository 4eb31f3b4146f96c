import Foundation
import Testing

@testable import TextInput

/// Issue 42: every text input is read by one reader, which treats CRLF, byte-order marks, NUL
/// bytes, bytes that are not UTF-8 and things that are not files alike, wherever they come from.
@Suite("The one reader of text inputs")
struct InputTextTests {
    static func text(_ bytes: [UInt8]) throws(InputText.Failure) -> String { try InputText.text(Data(bytes)) }
    static func failure(_ bytes: [UInt8]) -> InputText.Failure? {
        do {
            _ = try text(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("CRLF line ends and a byte-order mark read as the plain LF file")
    func windowsFiles() throws {
        let plain = "a: 1\nb: [x, y]\n"
        #expect(try Self.text(Array("a: 1\r\nb: [x, y]\r\n".utf8)) == plain)
        #expect(try Self.text([0xEF, 0xBB, 0xBF] + Array("a: 1\r\nb: [x, y]\r\n".utf8)) == plain)
        // A lone CR is not a line end: kept, for the parser to judge.
        #expect(try Self.text(Array("a\rb\n".utf8)) == "a\rb\n")
    }

    @Test("a NUL byte is refused at its line and column (columns in Unicode scalars, as YAML counts them)")
    func nul() {
        #expect(
            Self.failure(Array("ab\ncd".utf8) + [0] + Array("e\n".utf8))
                == InputText.Failure(line: 2, column: 3, message: "a NUL byte: the file is not text"))
        #expect(
            Self.failure(Array("é".utf8) + [0])
                == InputText.Failure(line: 1, column: 2, message: "a NUL byte: the file is not text"))
    }

    @Test("bytes that are not UTF-8 are refused at the first of them")
    func notUTF8() {
        #expect(
            Self.failure(Array("ok\nx".utf8) + [0xFF, 0x41])
                == InputText.Failure(line: 2, column: 2, message: "the file is not UTF-8 text"))
    }

    @Test("a folder, a named pipe and a device are named as what they are, and nothing is opened (a pipe would wait)")
    func notFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "odr-sim-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        func message(_ path: String) -> String {
            do {
                _ = try InputText.read(path)
                return "read"
            } catch {
                return error.message
            }
        }
        #expect(message(directory.path) == "is a directory, not a file")
        #expect(message(fifo).hasPrefix("is a named pipe (FIFO), not a file"))
        #expect(message("/dev/zero") == "is a device, not a file")
        #expect(message(directory.appendingPathComponent("none").path) == "no such file")
        let file = directory.appendingPathComponent("f.scn")
        try Data("x: 1\r\n".utf8).write(to: file)
        #expect(try InputText.read(file.path) == "x: 1\n")
        // An empty file is empty text (FuzzTelemetry found Foundation's reader leaking on it).
        let empty = directory.appendingPathComponent("empty.csv")
        try Data().write(to: empty)
        #expect(try InputText.read(empty.path) == "")
        // Larger than one read: every byte, in order.
        let large = String(repeating: "0123456789abcdef\n", count: 20_000)
        try Data(large.utf8).write(to: file)
        #expect(try InputText.read(file.path) == large)
    }

    @Test("a name from a file or a path becomes one line: no newline can start a YAML key in a comment")
    func oneLine() {
        #expect(InputText.oneLine("game.scn") == "game.scn")
        #expect(InputText.oneLine("a\nb: 1.scn") == "a\\nb: 1.scn")
        #expect(InputText.oneLine("x\r\ty\u{7}\u{2028}") == "x\\r\\ty\\u{7}\\u{2028}")
        #expect(!InputText.oneLine("\n\n\u{85}").contains { $0.isNewline })
    }

    @Test("the digest reads CRLF as LF, and any edit changes it")
    func digest() {
        #expect(TextDigest.of("a\r\nb\r\n") == TextDigest.of("a\nb\n"))
        #expect(TextDigest.of("a,1\n") != TextDigest.of("a,2\n"))
        #expect(TextDigest.of("a,1\n").count == 16)
        // FNV-1a 64 of the empty text is its offset basis.
        #expect(TextDigest.of("") == "cbf29ce484222325")
    }

    @Test("a digest added a piece at a time is the whole text's, wherever it is cut, a CRLF cut in two included")
    func digestInPieces() {
        let text = "run,a\r\n1,\"é, ü\"\r\r\n\n2,x\r\n"
        let characters = Array(text)
        for cut in 0...characters.count {
            for second in cut...characters.count {
                var digest = TextDigest()
                digest.add(String(characters[..<cut]))
                digest.add(String(characters[cut..<second]))
                digest.add(String(characters[second...]))
                #expect(digest.value == TextDigest.of(text), "cut at \(cut) and \(second)")
            }
        }
        // A CR ending one piece and an LF starting the next are one line end, as in one text.
        var split = TextDigest()
        split.add("a\r")
        split.add("\nb")
        #expect(split.value == TextDigest.of("a\nb") && split.value != TextDigest.of("a\n\nb"))
    }

    @Test("a part of a text added as it is (a Substring, no copy) has the digest of the same part as a string")
    func digestOfSubstring() {
        let text = "# first\r\nrun,a\r\n1,\"é, ü\"\r\r\n"
        for start in text.indices {
            var part = TextDigest()
            part.add(text[start...])
            #expect(
                part.value == TextDigest.of(String(text[start...])),
                "from \(text.distance(from: text.startIndex, to: start))")
        }
        var rows = TextDigest()
        rows.add(text[text.index(after: text.firstIndex(of: "\r\n")!)...])
        #expect(rows.value == TextDigest.of("run,a\n1,\"é, ü\"\n\n") && rows.value != TextDigest.of(text))
    }
}
