import Foundation

/// Writes a run's report files so that a reader never sees a half-written report.
///
/// Files go into a sibling temporary directory; only when every file is complete does it
/// replace the destination, so a failed or interrupted run leaves the previous report intact.
/// Temporary directories that killed runs left beside it are removed (``TemporaryFiles``).
public struct ReportDirectory {
    public let destination: URL
    private let staging: URL

    public init(_ path: String) {
        destination = URL(fileURLWithPath: path).standardizedFileURL
        staging = TemporaryFiles.staging(destination)
    }

    /// Creates the (empty) temporary directory now, for files written while a run goes on;
    /// ``commit(_:staged:)`` with `staged: true` then adds the rest and swaps it in, and
    /// ``abandon()`` removes it.
    public func prepare() throws -> URL {
        try makeStaging()
        return staging
    }

    /// A fresh, empty temporary directory; leftovers of ended processes beside it go first.
    private func makeStaging() throws {
        let fm = FileManager.default
        let parent = destination.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        TemporaryFiles.removeStale(besides: destination)
        try? fm.removeItem(at: staging)
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
    }

    /// Removes the temporary directory and whatever was written into it.
    public func abandon() {
        try? FileManager.default.removeItem(at: staging)
    }

    /// Writes `header` then the contents of `parts` (files in the prepared directory, which
    /// are removed) as the file `name` of the report, copying a megabyte at a time.
    public func concatenate(into name: String, header: String, parts: [URL]) throws {
        let target = staging.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: target.path, contents: Data(header.utf8)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
        let out = try FileHandle(forWritingTo: target)
        defer { try? out.close() }
        try out.seekToEnd()
        for part in parts {
            let input = try FileHandle(forReadingFrom: part)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                try out.write(contentsOf: chunk)
            }
            try FileManager.default.removeItem(at: part)
        }
    }

    /// Writes `files` (name → contents) and swaps them in as the destination directory.
    /// `staged`: the directory was made by ``prepare()`` and may already hold files.
    public func commit(_ files: [(name: String, contents: String)], staged: Bool = false) throws {
        let fm = FileManager.default
        if !staged { try makeStaging() }
        do {
            for file in files {
                try Data(file.contents.utf8).write(to: staging.appendingPathComponent(file.name))
            }
            if fm.fileExists(atPath: destination.path) {
                // swift-corelibs-foundation's replaceItemAt fails for directories (Cocoa error
                // 512), so swap by renames: old report aside, new one in, old one deleted.
                let old = TemporaryFiles.staging(destination, kind: "old")
                try? fm.removeItem(at: old)
                try fm.moveItem(at: destination, to: old)
                do {
                    try fm.moveItem(at: staging, to: destination)
                } catch {
                    try? fm.moveItem(at: old, to: destination)
                    throw error
                }
                try? fm.removeItem(at: old)
            } else {
                try fm.moveItem(at: staging, to: destination)
            }
        } catch {
            try? fm.removeItem(at: staging)
            throw error
        }
    }
}
