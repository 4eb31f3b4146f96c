import TextInput

/// The list of files odr-sim wrote in a live run's folder (`odr-sim-live.manifest`): what
/// it may remove there, and what it may resume or adopt.
///
/// ```
/// # odr-sim live: the files odr-sim wrote in this folder; it removes only these (docs/live.md)
/// folder game
/// pack complete game level-1 1 4194304 %22odr64-1f2e3d4c5b6a7980%22
/// pack part game level-2 1 8388608 -
/// ```
///
/// Names and tags are percent-encoded (``PackPath/encode(_:)``), so fields never hold a
/// space; a missing tag is `-`.
struct FolderManifest {
    static let name = "odr-sim-live.manifest"
    static let header = "# odr-sim live: the files odr-sim wrote in this folder; it removes only these (docs/live.md)"

    struct Entry: Equatable {
        let app: String
        let pack: String
        var version: Int
        var size: Int64
        var isComplete: Bool
        var etag: String?

        var relativePath: String {
            isComplete ? PackPath.file(app: app, pack: pack) : PackPath.partFile(app: app, pack: pack)
        }
    }

    private var byPath: [String: Entry] = [:]
    /// Entries in the order they were added (the file's order).
    private var order: [String] = []
    private(set) var folders: [String] = []

    var entries: [Entry] { order.compactMap { byPath[$0] } }

    func entry(_ relativePath: String) -> Entry? { byPath[relativePath] }

    mutating func set(_ entry: Entry) {
        if byPath.updateValue(entry, forKey: entry.relativePath) == nil { order.append(entry.relativePath) }
    }

    mutating func remove(_ relativePath: String) {
        guard byPath.removeValue(forKey: relativePath) != nil else { return }
        order.removeAll { $0 == relativePath }
    }

    mutating func addFolder(_ folder: String) { if !folders.contains(folder) { folders.append(folder) } }
    mutating func removeFolder(_ folder: String) { folders.removeAll { $0 == folder } }

    var text: String {
        var lines = [Self.header]
        lines += folders.map { "folder \($0)" }
        for entry in entries {
            let tag = entry.etag.map(PackPath.encode) ?? "-"
            lines.append(
                "pack \(entry.isComplete ? "complete" : "part") \(PackPath.encode(entry.app)) "
                    + "\(PackPath.encode(entry.pack)) \(entry.version) \(entry.size) \(tag)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The manifest of `folder`, empty if it has none.
    /// - Throws: ``LiveError`` (`FILE:LINE: reason`) when it cannot be read as written.
    static func read(folder: String) throws(LiveError) -> FolderManifest {
        let path = folder + "/" + name
        guard PathBytes.exists(path) else { return FolderManifest() }
        let text: String
        do throws(InputText.Failure) { text = try InputText.read(path) } catch {
            throw LiveError("\(path):\(error.line):\(error.column): \(error.message)")
        }
        var manifest = FolderManifest()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            func refuse(_ reason: String) -> LiveError {
                LiveError(
                    """
                    \(path):\(index + 1):1: \(reason); odr-sim cannot tell its files from others here: \
                    remove the folder, or name another --folder
                    """)
            }
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            if fields.count == 2, fields[0] == "folder" {
                manifest.addFolder(String(fields[1]))
                continue
            }
            guard fields.count == 7, fields[0] == "pack", fields[1] == "complete" || fields[1] == "part",
                let app = PackPath.decode(fields[2]), let pack = PackPath.decode(fields[3]),
                let version = Int(fields[4]), version >= 1, let size = Int64(fields[5]), size >= 0
            else { throw refuse("not a line odr-sim writes") }
            let etag = fields[6] == "-" ? nil : PackPath.decode(fields[6])
            manifest.set(
                Entry(
                    app: app, pack: pack, version: version, size: size, isComplete: fields[1] == "complete", etag: etag)
            )
        }
        return manifest
    }
}
