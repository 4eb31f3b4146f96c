import Foundation
import TextInput

/// Writes a file via a temporary name and a rename, so a reader never sees half of it.
/// POSIX rename(2) replaces the old file atomically (Foundation's replaceItemAt does not
/// work on Linux). The caller has checked that what it replaces is odr-sim's
/// (``OutputSafety/checkFile(_:label:inputs:isOurs:)``).
public func writeAtomically(_ text: String, to path: String) throws(CommandFailure) {
    try writeAtomically(to: path) { (write) throws(PathFailure) in try write(text) }
}

/// ``writeAtomically(_:to:)`` of the text made of the pieces `body` hands to `write`, in
/// order: a large file (a sweep shard's) is written without being held whole.
public func writeAtomically(
    to path: String, pieces body: (_ write: (String) throws(PathFailure) -> Void) throws(PathFailure) -> Void
) throws(CommandFailure) {
    let url = URL(fileURLWithPath: path)
    let temporary = TemporaryFiles.staging(url)
    // The folders this write makes, removed again (if still empty) when it fails.
    let made = OutputSafety.missingFolders(above: url)
    do {
        try PathBytes.makeFolders(url.deletingLastPathComponent().path)
        TemporaryFiles.removeStale(besides: url)
        defer { Interruption.unregister(temporary) }
        Interruption.register(temporary)
        do {
            try PathBytes.create(temporary.path) { (file) throws(PathFailure) in
                try body { (text) throws(PathFailure) in try file.write(Data(text.utf8)) }
            }
        } catch {
            // A full disk leaves no part-written temporary file behind.
            PathBytes.remove(temporary.path)
            throw error
        }
        try Interruption.critical {
            do { try PathBytes.rename(temporary.path, url.path) } catch {
                PathBytes.remove(temporary.path)
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [NSLocalizedDescriptionKey: "cannot replace it: \(error.localizedDescription)"])
            }
        }
    } catch {
        OutputSafety.removeEmptyFolders(made)
        throw CommandFailure("cannot write \(InputText.oneLine(path)): \(error.localizedDescription)")
    }
}
