import Foundation

/// Names of the temporary files and directories outputs are written under before they are
/// renamed into place, and the removal of those that a killed process left behind.
///
/// A name is `.<destination>.tmp-<host>-<pid>` (or `.old-` for a report moved aside): the
/// host and process tell whose it is, so a later run removes only those of processes that no
/// longer exist on this host, never one still being written, and never another host's on a
/// shared file system (a cluster's nodes reuse process numbers).
enum TemporaryFiles {
    static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "host" }
        let name = String(cString: buffer).filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
        return name.isEmpty ? "host" : name
    }()

    /// The temporary name for `destination` of this process, in the same directory.
    static func staging(_ destination: URL, kind: String = "tmp") -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(kind)-\(host)-\(getpid())")
    }

    /// Removes from `directory` the temporary files and directories of processes of this host
    /// that have ended. Names of the form of earlier releases (`.x.tmp-<pid>`) count as this
    /// host's. Failures are ignored: a leftover is untidy, not wrong.
    static func removeStale(in directory: URL) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(".") {
            guard let (owner, pid) = owner(of: name), owner == host, pid != getpid(), !isRunning(pid) else { continue }
            try? fm.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// The host and process in a temporary name, or nil if `name` is not one.
    static func owner(of name: String) -> (host: String, pid: Int32)? {
        for marker in [".tmp-", ".old-"] {
            guard let range = name.range(of: marker, options: .backwards) else { continue }
            let tail = name[range.upperBound...]
            let parts = tail.split(separator: "-", omittingEmptySubsequences: false)
            guard let last = parts.last, let pid = Int32(last), pid > 0 else { continue }
            let owner = parts.count == 1 ? host : parts.dropLast().joined(separator: "-")
            return (owner, pid)
        }
        return nil
    }

    /// Whether a process with this number exists (one we may not signal exists too).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
