import Foundation

/// Writes a run's report files so that a reader never sees a half-written report.
///
/// Files go into a sibling temporary directory; only when every file is complete does it
/// replace the destination, so a failed or interrupted run leaves the previous report intact.
public struct ReportDirectory {
    public let destination: URL
    private let staging: URL

    public init(_ path: String) {
        destination = URL(fileURLWithPath: path).standardizedFileURL
        let name = destination.lastPathComponent
        staging = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(name).tmp-\(ProcessInfo.processInfo.processIdentifier)")
    }

    /// Writes `files` (name → contents) and swaps them in as the destination directory.
    public func commit(_ files: [(name: String, contents: String)]) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? fm.removeItem(at: staging)
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        do {
            for file in files {
                try Data(file.contents.utf8).write(to: staging.appendingPathComponent(file.name))
            }
            if fm.fileExists(atPath: destination.path) {
                // swift-corelibs-foundation's replaceItemAt fails for directories (Cocoa error
                // 512), so swap by renames: old report aside, new one in, old one deleted.
                let old = staging.deletingLastPathComponent()
                    .appendingPathComponent(".\(destination.lastPathComponent).old-\(ProcessInfo.processInfo.processIdentifier)")
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
