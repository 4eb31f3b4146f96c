import Foundation
import SafeOutput
import Testing
import TextInput

/// A file written a piece at a time (a sweep shard's) through the one checked writer: all of
/// it or, when a piece fails, nothing new and the old file as it was.
@Suite("Atomic files in pieces")
struct AtomicFileTests {
    /// The file at `path` as text; empty when there is none.
    static func text(at path: String) -> String { String(decoding: PathBytes.contents(path) ?? Data(), as: UTF8.self) }

    @Test("the pieces arrive in order as one file, replacing the old one only once all are written")
    func piecesInOrder() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/shard.csv"
        try writeAtomically("old\n", to: path)
        try writeAtomically(to: path) { (write) throws(PathFailure) in
            for k in 0..<3 {
                // Until the last piece is written and the file renamed, the old file is there.
                #expect(Self.text(at: path) == "old\n")
                try write("piece \(k)\n")
            }
        }
        #expect(Self.text(at: path) == "piece 0\npiece 1\npiece 2\n")
        #expect(PathBytes.entries(of: folder.path) == ["shard.csv"])
    }

    @Test("a piece that fails leaves the old file as it was, no temporary file, and one line naming the file")
    func failedPiece() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/shard.csv"
        try writeAtomically("old\n", to: path)
        do {
            try writeAtomically(to: path) { (write) throws(PathFailure) in
                try write("piece 0\n")
                throw PathFailure(path: path, errno: ENOSPC)
            }
            Issue.record("a failed piece was not reported")
        } catch {
            #expect(error.message.hasPrefix("cannot write \(path): "), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
        #expect(Self.text(at: path) == "old\n")
        #expect(PathBytes.entries(of: folder.path) == ["shard.csv"])
    }
}
