import Foundation
import TextInput

/// Writes a run's report files so that a reader never sees a half-written report, and so that
/// nothing odr-sim did not write is ever removed (``OutputSafety``).
///
/// Making one checks the destination (refused before any work starts). Files go into a sibling
/// temporary directory; only when every file is complete, with the manifest that marks the
/// folder as odr-sim's, does it replace the destination, so a failed or interrupted run leaves
/// the previous report intact. The previous report is then removed file by file, by its
/// manifest. Temporary directories that killed runs left beside it are removed
/// (``TemporaryFiles``).
public struct ReportDirectory {
    public let destination: URL
    /// The destination as the user (or the default) gave it, for messages, without trailing
    /// slashes (messages add their own: `results in results/`).
    public let path: String
    private let staging: URL
    private let label: String
    private let inputs: [String]
    /// The folders above the report that did not exist when it was claimed: a failed run
    /// removes them again if they are still empty.
    private let madeFolders: [URL]

    /// Claims `path` for a report. `label` names it in errors (`--out DIR`, or the default
    /// path); `inputs` are the files the command reads, which the folder may not hold.
    public init(_ path: String, label: String? = nil, inputs: [String]) throws(CommandFailure) {
        destination = URL(fileURLWithPath: path).standardizedFileURL
        var shown = Substring(path)
        while shown.count > 1 && shown.hasSuffix("/") { shown = shown.dropLast() }
        self.path = String(shown)
        staging = TemporaryFiles.staging(destination)
        self.label = label ?? path
        self.inputs = inputs
        madeFolders = OutputSafety.missingFolders(above: destination)
        try OutputSafety.checkReportFolder(path, label: self.label, inputs: inputs)
    }

    /// Creates the (empty) temporary directory now, for files written while a run goes on;
    /// ``commit(_:staged:)`` with `staged: true` then adds the rest and swaps it in, and
    /// ``abandon()`` removes it.
    public func prepare() throws -> URL {
        try makeStaging()
        return staging
    }

    /// A fresh, empty temporary directory; leftovers of ended processes beside it go first.
    /// It carries the manifest from the start, which is how a later run knows a leftover for
    /// odr-sim's.
    private func makeStaging() throws {
        let parent = destination.deletingLastPathComponent()
        try PathBytes.makeFolders(parent.path)
        TemporaryFiles.removeStale(besides: destination)
        try Interruption.critical {
            Interruption.register(staging)
            if OutputSafety.manifestFiles(in: staging) != nil { PathBytes.remove(staging.path) }
            guard PathBytes.withCString(staging.path, { mkdir($0, 0o755) }) == 0 else {
                throw PathFailure(path: staging.path, errno: errno)
            }
            do {
                try PathBytes.create(
                    staging.appendingPathComponent(OutputSafety.manifestName).path,
                    Data(OutputSafety.manifest(files: []).utf8))
            } catch {
                // A full disk: nothing of this run may stay behind.
                PathBytes.remove(staging.path)
                Interruption.unregister(staging)
                throw error
            }
        }
    }

    /// Removes the temporary directory and whatever was written into it: this process made
    /// it (it is registered), so it holds only what this process wrote, even when a full disk
    /// left its manifest empty.
    public func abandon() {
        Interruption.critical {
            if Interruption.isRegistered(staging) || OutputSafety.manifestFiles(in: staging) != nil {
                Interruption.removeWhileWritten(staging.path)
            }
            Interruption.unregister(staging)
            OutputSafety.removeEmptyFolders(madeFolders)
        }
    }

    /// Writes `header` then the contents of `parts` (files in the prepared directory, which
    /// are removed) as the file `name` of the report, copying a megabyte at a time.
    public func concatenate(into name: String, header: String, parts: [URL]) throws {
        let target = staging.appendingPathComponent(name)
        try PathBytes.create(target.path, Data(header.utf8))
        let descriptor = PathBytes.open(target.path, O_WRONLY)
        guard descriptor >= 0 else { throw PathFailure(path: target.path, errno: errno) }
        let out = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        // A failed close (a full disk on the last write-back) is a failed file.
        var closed = false
        defer { if !closed { try? out.close() } }
        try out.seekToEnd()
        for part in parts {
            let partDescriptor = PathBytes.open(part.path, O_RDONLY)
            guard partDescriptor >= 0 else { throw PathFailure(path: part.path, errno: errno) }
            let input = FileHandle(fileDescriptor: partDescriptor, closeOnDealloc: true)
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                try out.write(contentsOf: chunk)
            }
            PathBytes.remove(part.path)
        }
        closed = true
        try out.synchronize()
        try out.close()
    }

    /// ``prepare()``, a failure saying where it could not write.
    public func prepared() throws(CommandFailure) -> URL {
        do { return try prepare() } catch {
            throw CommandFailure("cannot write reports to \(path): \(error.localizedDescription)")
        }
    }

    /// Joins `parts` (files runs streamed into the prepared directory) as the file `name` under
    /// `header`, then commits `files` beside it; `problem`, a run's failure to write its part,
    /// abandons the report instead. Without parts, the files alone.
    public func commit(
        _ files: [(name: String, contents: String)], joining parts: [URL]?, into name: String, header: String,
        problem: String?
    ) throws(CommandFailure) {
        guard let parts else { return try commit(files) }
        do {
            if let problem { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: problem]) }
            try concatenate(into: name, header: header, parts: parts)
        } catch {
            abandon()
            throw CommandFailure("cannot write reports to \(path): \(error.localizedDescription)")
        }
        try commit(files, staged: true)
    }

    /// A file written a piece at a time: `write` hands each piece, in order, to the function
    /// it is given, so that a large file is never held whole.
    public typealias StreamedFile = (name: String, write: ((String) throws -> Void) throws -> Void)

    /// Writes `files` (name → contents) and `streams` and swaps them in as the destination
    /// directory. `staged`: the directory was made by ``prepare()`` and may already hold files.
    public func commit(
        _ files: [(name: String, contents: String)], streams: [StreamedFile] = [], staged: Bool = false
    ) throws(CommandFailure) {
        do {
            if !staged { try makeStaging() }
            for file in files {
                try PathBytes.create(staging.appendingPathComponent(file.name).path, Data(file.contents.utf8))
            }
            for file in streams { try write(file) }
            let written = (PathBytes.entries(of: staging.path) ?? []).filter { $0 != OutputSafety.manifestName }
            let manifest = staging.appendingPathComponent(OutputSafety.manifestName).path
            PathBytes.remove(manifest)
            try PathBytes.create(manifest, Data(OutputSafety.manifest(files: written, inputs: inputs).utf8))
            try Interruption.critical {
                // Checked again: the folder may have changed while the run went on.
                try OutputSafety.checkReportFolder(destination.path, label: label, inputs: inputs)
                if PathBytes.exists(destination.path) {
                    // swift-corelibs-foundation's replaceItemAt fails for directories (Cocoa
                    // error 512), so swap by renames: old report aside, new one in.
                    let old = TemporaryFiles.staging(destination, kind: "old")
                    try PathBytes.rename(destination.path, old.path)
                    do {
                        try PathBytes.rename(staging.path, destination.path)
                    } catch {
                        try? PathBytes.rename(old.path, destination.path)
                        throw error
                    }
                    Interruption.unregister(staging)
                    Self.removeReport(at: old)
                } else {
                    try PathBytes.rename(staging.path, destination.path)
                    Interruption.unregister(staging)
                }
            }
        } catch let failure as CommandFailure {
            abandon()
            throw failure
        } catch {
            abandon()
            throw CommandFailure("cannot write reports to \(label): \(error.localizedDescription)")
        }
    }

    /// Writes one streamed file, new, into the temporary directory.
    private func write(_ file: StreamedFile) throws {
        let path = staging.appendingPathComponent(file.name).path
        let descriptor = PathBytes.open(path, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { throw PathFailure(path: path, errno: errno) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try file.write { piece in
            do { try handle.write(contentsOf: Data(piece.utf8)) } catch { throw PathFailure(path: path, errno: EIO) }
        }
    }

    /// Removes an earlier report folder file by file, as its manifest lists them; whatever it
    /// does not list stays, in a folder that is then left in place with a warning.
    public static func removeReport(at folder: URL) {
        for name in OutputSafety.manifestFiles(in: folder) ?? [] {
            PathBytes.remove(folder.appendingPathComponent(name).path)
        }
        PathBytes.remove(folder.appendingPathComponent(OutputSafety.manifestName).path)
        if PathBytes.withCString(folder.path, { rmdir($0) }) != 0 && PathBytes.exists(folder.path) {
            note("odr-sim: warning: kept \(folder.path): it holds files odr-sim did not write")
        }
    }
}
