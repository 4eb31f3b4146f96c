import Foundation
import SafeOutput
import TextInput

/// The folder a live run keeps its packs in, and the manifest that names every file odr-sim
/// wrote there (``FolderManifest``): a file the manifest does not name is never removed,
/// replaced or counted as a pack; one it names is odr-sim's to remove.
///
/// A pack is `APP/PACK` when complete, `APP/PACK.part` while downloading or partial
/// (``PackPath``). The manifest is rewritten (atomically) before a file is made and after
/// one is completed or removed, so a run killed at any moment leaves nothing it cannot
/// account for: on the next run, a complete file whose size and digest check out is adopted,
/// a part file is resumed from its length, and anything else of odr-sim's is removed.
final class PackFolder {
    let path: String
    private(set) var manifest: FolderManifest
    /// Bytes of each file of odr-sim's (part files as written so far), by relative path.
    private var lengths: [String: Int64] = [:]

    /// What the folder holds of a pack.
    enum Holding: Equatable {
        case complete(version: Int, etag: String?)
        case part(version: Int, length: Int64, etag: String?)
    }

    /// Opens `path` (made if missing; its parent must exist), reads its manifest, and
    /// reconciles it with what is on disk for `packs` (app, pack, size): see the type.
    /// - Throws: ``LiveError`` when a pack's file is there but not odr-sim's, or the
    ///   manifest cannot be read.
    init(path: String, packs: [(app: String, pack: String, size: Int64)]) throws(LiveError) {
        self.path = path
        if !PathBytes.exists(path) {
            guard mkdir(path, 0o755) == 0 else {
                throw LiveError("cannot make the folder \(path): \(String(cString: strerror(errno)))")
            }
        } else if !PathBytes.isFolder(path) {
            throw LiveError("\(path) is not a folder")
        }
        manifest = try FolderManifest.read(folder: path)
        let sizes = Dictionary(packs.map { ("\($0.app)\u{0}\($0.pack)", $0.size) }, uniquingKeysWith: { a, _ in a })
        for entry in manifest.entries {
            // Both names of a pack the manifest names are odr-sim's: a run killed between a
            // rename and the manifest's rewrite leaves the other one.
            manifest.remove(entry.relativePath)
            let whole = PackPath.file(app: entry.app, pack: entry.pack)
            let part = PackPath.partFile(app: entry.app, pack: entry.pack)
            let size = sizes["\(entry.app)\u{0}\(entry.pack)"]
            let wholeLength = PathBytes.status(file(whole)).map { Int64($0.st_size) }
            let partLength = PathBytes.status(file(part)).map { Int64($0.st_size) }
            var kept = entry
            if let size, wholeLength == size, digestHolds(entry, at: whole) {
                kept.isComplete = true
                PathBytes.remove(file(part))
            } else if let size, let partLength, partLength <= size {
                kept.isComplete = false
                PathBytes.remove(file(whole))
            } else {
                PathBytes.remove(file(whole))
                PathBytes.remove(file(part))
                continue
            }
            manifest.set(kept)
            lengths[kept.relativePath] = kept.isComplete ? wholeLength : partLength
        }
        for (app, pack, _) in packs where holding(app: app, pack: pack) == nil {
            for relative in [PackPath.file(app: app, pack: pack), PackPath.partFile(app: app, pack: pack)]
            where PathBytes.exists(file(relative)) {
                throw LiveError(
                    """
                    \(file(relative)) is there and odr-sim did not write it (not in \(FolderManifest.name)); \
                    odr-sim never replaces such a file: move it, or name another --folder
                    """)
            }
        }
        try save()
    }

    /// The absolute path of `relative`.
    func file(_ relative: String) -> String { path + "/" + relative }

    /// Whether the file at `relative` has the digest its entry's tag names (true when the tag
    /// names none: another server's packs are checked by size).
    private func digestHolds(_ entry: FolderManifest.Entry, at relative: String) -> Bool {
        guard let etag = entry.etag, let expected = PackDigest.digest(fromETag: etag) else { return true }
        return (try? Self.digest(of: file(relative))) == expected
    }

    /// The ``PackDigest`` of the file at `path`.
    static func digest(of path: String) throws(LiveError) -> UInt64 {
        let descriptor = PathBytes.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw LiveError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var digest = PackDigest()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = read(descriptor, buffer.baseAddress!, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw LiveError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { return digest.value }
            digest.add(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// What the folder holds of `pack` of `app`, if anything.
    func holding(app: String, pack: String) -> Holding? {
        if let entry = manifest.entry(PackPath.file(app: app, pack: pack)) {
            return .complete(version: entry.version, etag: entry.etag)
        }
        let part = PackPath.partFile(app: app, pack: pack)
        if let entry = manifest.entry(part) {
            return .part(version: entry.version, length: lengths[part] ?? 0, etag: entry.etag)
        }
        return nil
    }

    /// Makes an empty part file for `version` of `pack` of `app` (named in the manifest first);
    /// returns its absolute path.
    func beginPart(app: String, pack: String, version: Int, size: Int64) throws(LiveError) -> String {
        let folder = PackPath.encode(app)
        if !PathBytes.exists(file(folder)) {
            manifest.addFolder(folder)
            try save()
            guard mkdir(file(folder), 0o755) == 0 || errno == EEXIST else {
                throw LiveError("cannot make \(file(folder)): \(String(cString: strerror(errno)))")
            }
        }
        let relative = PackPath.partFile(app: app, pack: pack)
        manifest.set(
            FolderManifest.Entry(app: app, pack: pack, version: version, size: size, isComplete: false, etag: nil))
        try save()
        let descriptor = PathBytes.open(file(relative), O_WRONLY | O_CREAT | O_TRUNC)
        guard descriptor >= 0 else {
            throw LiveError("cannot make \(file(relative)): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        lengths[relative] = 0
        return file(relative)
    }

    /// The part file of `pack` of `app` is `length` bytes long now.
    func noteLength(app: String, pack: String, _ length: Int64) {
        lengths[PackPath.partFile(app: app, pack: pack)] = length
    }

    /// The server's tag of the version being fetched, kept for resuming it (`If-Range`).
    func noteTag(app: String, pack: String, _ etag: String?) throws(LiveError) {
        let relative = PackPath.partFile(app: app, pack: pack)
        guard var entry = manifest.entry(relative), entry.etag != etag else { return }
        entry.etag = etag
        manifest.set(entry)
        try save(deferrable: true)
    }

    /// The part file of `pack` of `app` is whole: renamed to its complete name.
    func complete(app: String, pack: String) throws(LiveError) {
        let part = PackPath.partFile(app: app, pack: pack)
        guard var entry = manifest.entry(part) else { return }
        let whole = PackPath.file(app: app, pack: pack)
        do throws(PathFailure) { try PathBytes.rename(file(part), file(whole)) } catch {
            throw LiveError("cannot rename \(file(part)): \(error)")
        }
        manifest.remove(part)
        entry.isComplete = true
        manifest.set(entry)
        lengths[whole] = lengths.removeValue(forKey: part) ?? entry.size
        try save(deferrable: true)
    }

    /// Shortens the part file of `pack` of `app` to `length` bytes (what the device holds).
    func truncatePart(app: String, pack: String, to length: Int64) throws(LiveError) {
        let relative = PackPath.partFile(app: app, pack: pack)
        guard let current = lengths[relative], current > length else { return }
        guard truncate(file(relative), off_t(length)) == 0 else {
            throw LiveError("cannot shorten \(file(relative)): \(String(cString: strerror(errno)))")
        }
        lengths[relative] = length
    }

    /// Removes whatever odr-sim's file of `pack` of `app` there is.
    func remove(app: String, pack: String) throws(LiveError) {
        var changed = false
        for relative in [PackPath.file(app: app, pack: pack), PackPath.partFile(app: app, pack: pack)]
        where manifest.entry(relative) != nil {
            PathBytes.remove(file(relative))
            manifest.remove(relative)
            lengths[relative] = nil
            changed = true
        }
        if changed { try save(deferrable: true) }
    }

    /// Bytes of odr-sim's files of the packs in `packs` (app, pack), as written so far.
    func bytes(of packs: some Sequence<(app: String, pack: String)>) -> Int64 {
        packs.reduce(0) { sum, pack in
            sum + (lengths[PackPath.file(app: pack.app, pack: pack.pack)] ?? 0)
                + (lengths[PackPath.partFile(app: pack.app, pack: pack.pack)] ?? 0)
        }
    }

    /// Every pack odr-sim has a file of.
    var packsHeld: [(app: String, pack: String)] { manifest.entries.map { ($0.app, $0.pack) } }

    /// Bytes free to an unprivileged writer on the folder's file system.
    func freeBytes() throws(LiveError) -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else {
            throw LiveError("cannot read the free space of \(path): \(String(cString: strerror(errno)))")
        }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Removes the app folders odr-sim made that are empty now (at the end of a run).
    func removeEmptyFolders() throws(LiveError) {
        for folder in manifest.folders where (PathBytes.entries(of: file(folder)) ?? ["?"]).isEmpty {
            rmdir(file(folder))
            manifest.removeFolder(folder)
        }
        try save(deferrable: true)
    }

    /// Rewrites the manifest. A rewrite that only forgets or renames files may wait (`deferrable`)
    /// when the disk is full: the manifest on disk then names a file that is gone or has its
    /// other name, which the next run reconciles; the next save writes it whole. One that
    /// names a file about to be made may not: that file is then not made.
    private func save(deferrable: Bool = false) throws(LiveError) {
        do throws(CommandFailure) {
            try writeAtomically(manifest.text, to: file(FolderManifest.name))
        } catch {
            let full = ((try? freeBytes()) ?? 0) < 1 << 16
            if deferrable && full { return }
            throw LiveError(error.message, isDiskFull: full)
        }
    }
}
