import Foundation
import Testing

@testable import Live

/// The folder's manifest and what a run finds there after any crash: what it adopts,
/// resumes and removes, and what it never touches.
@Suite("Pack folder and its manifest")
struct PackFolderTests {
    static let packs: [(app: String, pack: String, size: Int64)] = [
        ("game", "level-1", 4096), ("game", "level 2+x", 8192), ("maps", "eu", 100),
    ]

    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func write(_ content: PackContent, count: Int? = nil, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(content.bytes(count: count)).write(to: URL(fileURLWithPath: path))
    }

    @Test("The manifest reads back what it wrote, names with spaces, pluses and quotes included")
    func roundTrip() throws {
        var manifest = FolderManifest()
        manifest.addFolder("game")
        manifest.set(
            .init(app: "game", pack: "level 2+x", version: 3, size: 8192, isComplete: false, etag: "\"odr64-00ff\""))
        manifest.set(.init(app: "maps", pack: "eu", version: 1, size: 100, isComplete: true, etag: nil))
        let folder = try LiveHarness.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(manifest.text, folder + "/" + FolderManifest.name)
        let read = try FolderManifest.read(folder: folder)
        #expect(read.entries == manifest.entries && read.folders == ["game"])
        #expect(manifest.text.contains("pack part game level%202%2Bx 3 8192 %22odr64-00ff%22\n"))
    }

    @Test("A manifest line odr-sim does not write is refused with its place")
    func badManifest() throws {
        let folder = try LiveHarness.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "\(FolderManifest.header)\npack complete game level-1 one 4096 -\n", folder + "/" + FolderManifest.name)
        #expect {
            _ = try PackFolder(path: folder, packs: Self.packs)
        } throws: { error in
            "\(error)".contains("\(FolderManifest.name):2:1: not a line odr-sim writes")
        }
        // Nothing was touched: the manifest is as it was.
        #expect(try String(contentsOfFile: folder + "/" + FolderManifest.name, encoding: .utf8).contains(" one "))
    }

    @Test("After a crash: a renamed file adopted, a wrong one and a gone pack's removed, a foreign one kept")
    func reconcile() throws {
        let folder = try LiveHarness.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let one = PackContent(app: "game", pack: "level-1", version: 1, size: 4096)
        let two = PackContent(app: "game", pack: "level 2+x", version: 1, size: 8192)
        // level-1: renamed whole, then killed before the manifest said so (it still says part).
        try Self.write(one, folder + "/game/level-1")
        // level 2+x: complete by the manifest, but its bytes are another version's.
        try Self.write(
            PackContent(app: "game", pack: "level 2+x", version: 2, size: 8192), folder + "/game/level%202%2Bx")
        // eu: a part of 60 bytes, to resume. old: a pack the scenario no longer has.
        try Self.write(PackContent(app: "maps", pack: "eu", version: 1, size: 100), count: 60, folder + "/maps/eu.part")
        try Self.write("old", folder + "/maps/old")
        try Self.write("mine", folder + "/maps/notes.txt")
        var manifest = FolderManifest()
        manifest.set(
            .init(
                app: "game", pack: "level-1", version: 1, size: 4096, isComplete: false,
                etag: PackDigest.etag(one.digest)))
        manifest.set(
            .init(
                app: "game", pack: "level 2+x", version: 1, size: 8192, isComplete: true,
                etag: PackDigest.etag(two.digest)))
        manifest.set(.init(app: "maps", pack: "eu", version: 1, size: 100, isComplete: false, etag: nil))
        manifest.set(.init(app: "maps", pack: "old", version: 1, size: 3, isComplete: true, etag: nil))
        try Self.write(manifest.text, folder + "/" + FolderManifest.name)

        let packFolder = try PackFolder(path: folder, packs: Self.packs)
        #expect(
            packFolder.holding(app: "game", pack: "level-1") == .complete(version: 1, etag: PackDigest.etag(one.digest))
        )
        #expect(packFolder.holding(app: "game", pack: "level 2+x") == nil)
        #expect(packFolder.holding(app: "maps", pack: "eu") == .part(version: 1, length: 60, etag: nil))
        let files = FileManager.default
        #expect(!files.fileExists(atPath: folder + "/game/level%202%2Bx"))
        #expect(!files.fileExists(atPath: folder + "/maps/old"))
        #expect(try String(contentsOfFile: folder + "/maps/notes.txt", encoding: .utf8) == "mine")
        let saved = try FolderManifest.read(folder: folder)
        #expect(saved.entries.map(\.relativePath).sorted() == ["game/level-1", "maps/eu.part"])
    }

    @Test("A file at a pack's name that the manifest does not name stops the run before anything changes")
    func foreignAtAPacksName() throws {
        let folder = try LiveHarness.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("mine", folder + "/maps/eu.part")
        #expect {
            _ = try PackFolder(path: folder, packs: Self.packs)
        } throws: { error in
            "\(error)".contains("maps/eu.part is there and odr-sim did not write it")
        }
        #expect(try String(contentsOfFile: folder + "/maps/eu.part", encoding: .utf8) == "mine")
    }
}
