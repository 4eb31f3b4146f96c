import Foundation
import TextInput

/// Writes a file via a temporary name and a rename, so a reader never sees half of it.
/// POSIX rename(2) replaces the old file atomically (Foundation's replaceItemAt does not
/// work on Linux). The caller has checked that what it replaces is odr-sim's
/// (``OutputSafety/checkFile(_:label:inputs:isOurs:)``).
public func writeAtomically(_ text: String, to path: String) throws(CommandFailure) {
    let url = URL(fileURLWithPath: path)
    let temporary = TemporaryFiles.staging(url)
    // The folders this write makes, removed again (if still empty) when it fails.
    let made = OutputSafety.missingFolders(above: url)
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        TemporaryFiles.removeStale(besides: url)
        defer { Interruption.unregister(temporary) }
        Interruption.register(temporary)
        do {
            try Data(text.utf8).write(to: temporary)
        } catch {
            // A full disk leaves no part-written temporary file behind.
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try Interruption.critical {
            guard rename(temporary.path, url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw CocoaError(
                    .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot replace it: \(reason)"])
            }
        }
    } catch {
        OutputSafety.removeEmptyFolders(made)
        throw CommandFailure("cannot write \(InputText.oneLine(path)): \(error.localizedDescription)")
    }
}
