import Foundation
import TextInput

/// The one rule for where odr-sim may write: **it never removes or overwrites a file it did
/// not write**, whatever path it is given and whatever an input file says.
///
/// A report folder is odr-sim's when it carries a manifest (``manifestName``) listing the
/// files odr-sim wrote there. A report may go to a folder that does not exist, an empty
/// folder, or such a report folder holding nothing but what its manifest lists; anything
/// else is refused before any work starts. Also refused, empty or not: `/`, the home folder,
/// the current folder and its ancestors, and any folder holding an input file. A single-file
/// output (`--junit`, `check --update`, a shard file) may replace only a file odr-sim wrote,
/// recognised by its first line.
///
/// A name read from a file (a scenario's or study's `name:`) becomes one path component by
/// ``safeComponent(_:)``, so no input can choose a path outside the folder the user named.
public enum OutputSafety {
    /// The manifest a report folder carries: its first line, then `command:`, `version:`
    /// and one `file:` line per file written.
    public static let manifestName = ".odr-sim-report"
    public static let manifestHeading =
        "# odr-sim report: files odr-sim wrote; its next run into this folder replaces them"

    /// `name` as one path component: no `/`, `\`, control characters, `..` or leading dot;
    /// at most 100 bytes; `fallback` when nothing is left.
    public static func safeComponent(_ name: String, fallback: String = "scenario") -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let unsafe =
                scalar == "/" || scalar == "\\" || scalar == ":" || scalar.properties.generalCategory == .control
            scalars.append(unsafe ? "-" : scalar)
        }
        var component = String(scalars).trimmingCharacters(in: .whitespaces)
        while component.hasPrefix(".") || component.hasPrefix("-") { component.removeFirst() }
        while component.utf8.count > 100 { component.removeLast() }
        return component.isEmpty ? fallback : component
    }

    /// The default report folder `Reports/<name><suffix>` for a name read from an input.
    public static func defaultReport(_ name: String, suffix: String = "") -> String {
        "Reports/" + safeComponent(name) + suffix
    }

    /// The report folder `out` (from `--out`) or, without it, `fallback`: claimed now, before
    /// any work starts.
    /// The default folder is named after the scenario; one written from another scenario file
    /// (two scenarios of one name) is refused, not replaced: its manifest lists its inputs.
    public static func reportFolder(out: String?, default fallback: String, inputs: [String]) throws(CommandFailure)
        -> ReportDirectory
    {
        // The folder is named after the first input (the scenario, study or trace); others
        // (a population study) may come and go.
        if out == nil, let main = inputs.first,
            let earlier = manifestInputs(in: URL(fileURLWithPath: fallback).standardizedFileURL),
            !earlier.isEmpty, !earlier.contains(absolute(main))
        {
            throw CommandFailure(
                "\(fallback): holds the report of \(earlier.joined(separator: ", ")), not of \(main) (two scenarios "
                    + "of one name); give --out, or remove the folder yourself"
            )
        }
        return try ReportDirectory(out ?? fallback, label: out.map { "--out \($0)" } ?? fallback, inputs: inputs)
    }

    /// `path` as an absolute path, links resolved (`scenarios/` is `Scenarios/`), on one line:
    /// how a manifest records an input.
    static func absolute(_ path: String) -> String {
        PathBytes.shown(resolve(URL(fileURLWithPath: path)).replacingOccurrences(of: "\n", with: " "))
    }

    /// Refuses `path` as a report folder unless writing there can lose nothing (see the type's
    /// rule). `label` says where the path came from (`--out .`, or the default path).
    public static func checkReportFolder(_ path: String, label: String, inputs: [String]) throws(CommandFailure) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        try checkReportFolderPlace(path, label: label, inputs: inputs)
        guard let status = PathBytes.status(url.path, link: true) else {  // nothing there: ours to make, under a folder
            try checkAncestors(of: url, label: label)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw CommandFailure("\(label): is a symbolic link; name a new or empty folder")
        default:
            throw CommandFailure(
                """
                \(label): is a file, not a folder; odr-sim writes a folder of reports, so choose a new or empty \
                folder
                """
            )
        }
        let foreign = try foreignEntries(of: url, label: label)
        guard !foreign.isEmpty else { return }
        let shown = foreign.prefix(5).joined(separator: ", ") + (foreign.count > 5 ? ", …" : "")
        let what = foreign.count == 1 ? "1 file" : "\(foreign.count) files"
        throw CommandFailure(
            "\(label): the folder holds \(what) odr-sim did not write (\(shown)); choose a new or empty folder")
    }

    /// The folders above `url` that do not exist yet, deepest first: what writing `url` makes,
    /// and so what a failed write may remove again.
    public static func missingFolders(above url: URL) -> [URL] {
        var missing: [URL] = []
        var folder = url.standardizedFileURL.deletingLastPathComponent()
        while folder.path != "/" && !PathBytes.exists(folder.path) {
            missing.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        return missing
    }

    /// Removes each folder of `folders` (deepest first) that is empty: folders a failed write
    /// made; one that holds anything is left as it is.
    public static func removeEmptyFolders(_ folders: [URL]) {
        for folder in folders where PathBytes.withCString(folder.path, { rmdir($0) }) != 0 { return }
    }

    /// The manifest an advise exchange folder carries (``claimExchange(_:report:inputs:)``).
    public static let exchangeManifestName = ".odr-sim-exchange"
    public static let exchangeManifestHeading =
        "# odr-sim advise exchange: the shards of an advise share their runs here"

    /// Claims `path` as the folder the shards of an advise share (`--exchange`), before any
    /// work: never the report folder `report` or inside it (nor it inside the exchange), never
    /// a folder holding an input or anything odr-sim did not write. A folder that does not
    /// exist is made, with the manifest that marks it as odr-sim's; every shard claims it
    /// alike, so the shards may start in any order.
    public static func claimExchange(_ path: String, report: String, inputs: [String]) throws(CommandFailure) {
        let label = "--exchange \(path)"
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let exchange = resolve(url)
        let out = resolve(URL(fileURLWithPath: report).standardizedFileURL)
        if exchange == out || exchange.hasPrefix(out + "/") || out.hasPrefix(exchange + "/") {
            throw CommandFailure.usage(
                """
                \(label): is the report folder \(report) or shares it; the shards' exchange and the report must be \
                separate folders
                """
            )
        }
        if let status = PathBytes.status(url.path, link: true) {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw CommandFailure.usage("\(label): is a file or a link, not a folder")
            }
            try checkReportFolderPlace(path, label: label, inputs: inputs)
            guard let entries = PathBytes.entries(of: url.path)?.sorted() else {
                throw CommandFailure("\(label): cannot read the folder: \(String(cString: strerror(errno)))")
            }
            let foreign = entries.filter { name in
                if name == exchangeManifestName { return false }
                // Another shard's file being written (`.advise-….csv.tmp-HOST-PID`), or its
                // mark being made: shards claim the folder at the same moment.
                if name.hasPrefix(".advise-") || name.hasPrefix(exchangeManifestName),
                    TemporaryFiles.owner(of: name) != nil
                {
                    return false
                }
                guard name.hasPrefix("advise-"), name.hasSuffix(".csv"),
                    let head = head(of: url.appendingPathComponent(name), bytes: 4096)
                else { return true }
                return !head.hasPrefix("# odr-sim advise shard ")
            }
            if !foreign.isEmpty {
                let shown = foreign.prefix(5).joined(separator: ", ") + (foreign.count > 5 ? ", …" : "")
                throw CommandFailure(
                    "\(label): the folder holds \(foreign.count == 1 ? "1 file" : "\(foreign.count) files") odr-sim "
                        + "did not write (\(shown)); choose a new or empty folder for the shards"
                )
            }
        } else {
            try checkReportFolderPlace(path, label: label, inputs: inputs)
        }
        do {
            try PathBytes.makeFolders(url.path)
            // Made once, whichever shard comes first (O_EXCL): the others find it there.
            let manifest = url.appendingPathComponent(exchangeManifestName).path
            let descriptor = PathBytes.open(manifest, O_WRONLY | O_CREAT | O_EXCL)
            if descriptor >= 0 {
                let heading = Array((exchangeManifestHeading + "\n").utf8)
                let written = heading.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
                if written != heading.count {
                    PathBytes.remove(manifest)
                    throw CocoaError(.fileWriteOutOfSpace)
                }
            } else if errno != EEXIST {
                throw CocoaError(
                    .fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            throw CommandFailure("\(label): cannot make the folder: \(error.localizedDescription)")
        }
    }

    /// The checks of ``checkReportFolder(_:label:inputs:)`` that concern where a folder is
    /// (the root, the home or current folder, one holding an input), not what it holds.
    private static func checkReportFolderPlace(_ path: String, label: String, inputs: [String]) throws(CommandFailure) {
        let resolved = resolve(URL(fileURLWithPath: path).standardizedFileURL)
        if resolved == "/" { throw CommandFailure("\(label): is the root folder; choose a new or empty folder") }
        if resolved == resolve(URL(fileURLWithPath: NSHomeDirectory())) {
            throw CommandFailure("\(label): is your home folder; choose a new or empty folder")
        }
        let here = resolve(URL(fileURLWithPath: PathBytes.workingFolder()))
        if here == resolved || here.hasPrefix(resolved + "/") {
            throw CommandFailure(
                "\(label): is the current folder\(here == resolved ? "" : " or one of its ancestors"); choose a new "
                    + "or empty folder"
            )
        }
        for input in inputs where resolve(URL(fileURLWithPath: input).standardizedFileURL).hasPrefix(resolved + "/") {
            throw CommandFailure("\(label): holds the input file \(input); choose a new or empty folder")
        }
    }

    /// What is in the folder `url` that its manifest does not list (everything, without one).
    public static func foreignEntries(of url: URL, label: String) throws(CommandFailure) -> [String] {
        guard let entries = PathBytes.entries(of: url.path)?.sorted() else {
            throw CommandFailure("\(label): cannot read the folder: \(String(cString: strerror(errno)))")
        }
        let listed = Set(manifestFiles(in: url) ?? [])
        return entries.filter { $0 != manifestName && !listed.contains($0) }
    }

    /// The files a report folder's manifest lists, or nil if it has none (or not ours).
    public static func manifestFiles(in folder: URL) -> [String]? {
        guard let data = PathBytes.contents(folder.appendingPathComponent(manifestName).path),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        let lines = text.split(separator: "\n")
        guard lines.first.map(String.init) == manifestHeading else { return nil }
        return lines.compactMap { line in
            guard line.hasPrefix("file: ") else { return nil }
            let name = String(line.dropFirst(6))
            // A hand-edited manifest cannot reach outside its folder.
            return name.contains("/") || name == ".." || name == "." ? nil : name
        }
    }

    /// The input files a report folder's manifest records (absolute paths), or nil if it has
    /// no manifest of ours.
    public static func manifestInputs(in folder: URL) -> [String]? {
        guard manifestFiles(in: folder) != nil,
            let text = PathBytes.contents(folder.appendingPathComponent(manifestName).path)
        else { return nil }
        return String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("input: ") ? String(line.dropFirst(7)) : nil
        }
    }

    /// The manifest's text for a report of `files`, made from `inputs`.
    public static func manifest(files: [String], inputs: [String] = []) -> String {
        let given = (try? PathBytes.arguments().get()) ?? Array(CommandLine.arguments.dropFirst())
        let command = (["odr-sim"] + given.map(PathBytes.shown)).joined(separator: " ")
            .replacingOccurrences(of: "\n", with: " ")
        return manifestHeading + "\ncommand: \(command)\nversion: \(ToolVersion.current)\n"
            + inputs.map(absolute).sorted().map { "input: \($0)\n" }.joined()
            + files.sorted().map { "file: \($0)\n" }.joined()
    }

    /// Refuses `path` as a single-file output unless nothing is there or the file there is
    /// one odr-sim wrote, as `isOurs` tells from its beginning (its first 4 KiB). A `signed`
    /// file (``SignedText``) must also be unedited since: its digest line must check out.
    public static func checkFile(
        _ path: String, label: String, inputs: [String] = [], signed: Bool = false,
        isOurs: (String) -> Bool
    ) throws(CommandFailure) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let resolved = resolve(url)
        for input in inputs where resolve(URL(fileURLWithPath: input).standardizedFileURL) == resolved {
            throw CommandFailure("\(label): is the input file \(input); choose another name")
        }
        // A report folder is replaced whole by its next run, which would refuse the stranger
        // (or, were it listed, remove it): a single file never goes inside one.
        var folder = url.deletingLastPathComponent()
        while folder.path != "/" {
            if manifestFiles(in: folder) != nil {
                throw CommandFailure(
                    """
                    \(label): is inside the report folder \(folder.path), which odr-sim's next report there \
                    replaces; choose a path outside it
                    """
                )
            }
            folder = folder.deletingLastPathComponent()
        }
        guard let status = PathBytes.status(url.path, link: true) else {
            try checkAncestors(of: url, label: label)
            return
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CommandFailure("\(label): is a folder or a link, not a file odr-sim wrote; choose another name")
        }
        guard let head = head(of: url, bytes: signed ? Self.signedFileBytes : 4096), isOurs(head) else {
            throw CommandFailure(
                "\(label): holds a file odr-sim did not write; choose another name, or remove it yourself")
        }
        if signed && !SignedText.isUnedited(head) {
            throw CommandFailure(
                """
                \(label): was written by odr-sim but edited since (its digest no longer matches), so it is yours; \
                choose another name, or remove it yourself
                """
            )
        }
    }

    /// The most of a signed file (``SignedText``) read to check its digest: a scenario file
    /// odr-sim writes is far smaller; a longer one cannot check out and is refused.
    static let signedFileBytes = 64 << 20

    /// The first `bytes` of a file, or nil if unreadable.
    private static func head(of url: URL, bytes: Int) -> String? {
        let descriptor = PathBytes.open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: bytes)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Refuses a path that cannot be made because what should be a folder on the way is not
    /// one (`--out notes.txt/report`): said before the work, not after it.
    private static func checkAncestors(of url: URL, label: String) throws(CommandFailure) {
        var ancestor = url.deletingLastPathComponent()
        while ancestor.path != "/" {
            if PathBytes.exists(ancestor.path) {
                guard PathBytes.isFolder(ancestor.path) else {
                    throw CommandFailure("\(label): \(ancestor.path) is a file, not a folder; choose another path")
                }
                return
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
    }

    /// The path with symbolic links resolved, for the existing part of it (a folder yet to be
    /// made resolves through its nearest existing ancestor).
    public static func resolve(_ url: URL) -> String {
        var missing: [String] = []
        var current = url.standardizedFileURL
        while true {
            if var path = PathBytes.resolved(current.path) {
                for component in missing.reversed() { path = (path == "/" ? "" : path) + "/" + component }
                return path
            }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return url.path }
            missing.append(current.lastPathComponent)
            current = parent
        }
    }
}
