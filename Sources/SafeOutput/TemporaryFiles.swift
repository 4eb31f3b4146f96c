import Foundation
import TextInput

/// Names of the temporary files and directories outputs are written under before they are
/// renamed into place, and the removal of those that a killed process left behind.
///
/// A name is `.<destination>.tmp-<host>-<pid>` (or `.old-` for a report moved aside): the
/// host and process tell whose it is, so a later run removes only those of processes that no
/// longer exist on this host, never one still being written, and never another host's on a
/// shared file system (a cluster's nodes reuse process numbers).
public enum TemporaryFiles {
    public static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "host" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self).filter {
            $0.isLetter || $0.isNumber || $0 == "." || $0 == "_"
        }
        return name.isEmpty ? "host" : name
    }()

    /// The temporary name for `destination` of this process, in the same directory.
    public static func staging(_ destination: URL, kind: String = "tmp") -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(kind)-\(host)-\(getpid())")
    }

    /// Removes from `destination`'s directory the temporary files and directories of
    /// processes of this host that have ended: any `.<name>.tmp-<host>-<pid>` (or `.old-`)
    /// with this host's name, and the `.<destination>.tmp-<pid>` form of earlier releases
    /// for this destination only (a directory such as /tmp holds other programs' files).
    /// Failures are ignored: a leftover is untidy, not wrong.
    public static func removeStale(besides destination: URL) {
        let directory = destination.deletingLastPathComponent()
        guard let names = PathBytes.entries(of: directory.path, hidden: true) else { return }
        let legacy = [".\(destination.lastPathComponent).tmp-", ".\(destination.lastPathComponent).old-"]
        for name in names {
            guard let (owner, pid) = owner(of: name), pid != getpid() else { continue }
            let ours = owner == host || (owner.isEmpty && legacy.contains { name == $0 + String(pid) })
            guard ours, !isRunning(pid) else { continue }
            let path = directory.appendingPathComponent(name)
            guard let status = PathBytes.status(path.path, link: true) else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG: PathBytes.remove(path.path)  // a single file's temporary name
            case S_IFDIR:
                // Only a folder that carries odr-sim's manifest, and only what it lists; or the
                // staging folder of this very destination that a killed run left before its
                // manifest was whole (a full disk, SIGKILL), holding nothing but run parts.
                if OutputSafety.manifestFiles(in: path) != nil {
                    if name.contains(".old-") {
                        ReportDirectory.removeReport(at: path)
                    } else {
                        PathBytes.remove(path.path)
                    }
                } else if name.hasPrefix(".\(destination.lastPathComponent).tmp-"), isUnmarkedStaging(path) {
                    PathBytes.remove(path.path)
                }
            default: continue
            }
        }
    }

    /// Whether the folder holds nothing but what a run's staging folder holds before its
    /// manifest is complete: the manifest's name (empty or cut short) and run parts
    /// (`.events-N.part`).
    public static func isUnmarkedStaging(_ folder: URL) -> Bool {
        guard let entries = PathBytes.entries(of: folder.path) else { return false }
        return entries.allSatisfy { name in
            name == OutputSafety.manifestName
                || (name.hasPrefix(".events-") && name.hasSuffix(".part") && Int(name.dropFirst(8).dropLast(5)) != nil)
        }
    }

    /// The host and process in a temporary name (host empty for the earlier `.x.tmp-<pid>`
    /// form), or nil if `name` is not one.
    public static func owner(of name: String) -> (host: String, pid: Int32)? {
        for marker in [".tmp-", ".old-"] {
            guard let range = name.range(of: marker, options: .backwards) else { continue }
            let tail = name[range.upperBound...]
            let parts = tail.split(separator: "-", omittingEmptySubsequences: false)
            guard let last = parts.last, let pid = Int32(last), pid > 0 else { continue }
            return (parts.dropLast().joined(separator: "-"), pid)
        }
        return nil
    }

    /// Whether a process with this number exists (one we may not signal exists too).
    public static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
