import Foundation
import TextInput

/// New files of a report written a piece at a time while a run goes on (a sweep's
/// `results.csv` and `apps.csv`, folded as its points finish), into the temporary directory
/// ``ReportDirectory/prepare()`` made: each file is made (never replacing one) at its first
/// piece. ``ReportDirectory/commit(_:streams:staged:)`` with `staged: true` swaps them in with
/// the rest; ``ReportDirectory/abandon()`` removes them.
public final class StagedFiles: @unchecked Sendable {
    private let folder: URL
    private let lock = NSLock()
    private var handles: [String: FileHandle] = [:]

    /// Files in `folder`, a report's prepared temporary directory.
    public init(in folder: URL) { self.folder = folder }

    /// Appends `text` to the file `name`, made now if this is its first piece.
    public func write(_ name: String, _ text: String) throws {
        lock.lock()
        defer { lock.unlock() }
        let path = folder.appendingPathComponent(name).path
        if handles[name] == nil {
            let descriptor = PathBytes.open(path, O_WRONLY | O_CREAT | O_EXCL)
            guard descriptor >= 0 else { throw PathFailure(path: path, errno: errno) }
            handles[name] = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }
        do { try handles[name]!.write(contentsOf: Data(text.utf8)) } catch { throw PathFailure(path: path, errno: EIO) }
    }

    /// Closes every file; a failed close (a full disk on the last write-back) is a failed file.
    public func close() throws {
        lock.lock()
        defer { lock.unlock() }
        for (name, handle) in handles.sorted(by: { $0.key < $1.key }) {
            do { try handle.close() } catch {
                throw PathFailure(path: folder.appendingPathComponent(name).path, errno: EIO)
            }
        }
        handles = [:]
    }
}
