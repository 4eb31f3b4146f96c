import Dispatch
import Foundation
import TextInput

/// What odr-sim does when SIGINT, SIGTERM or SIGHUP arrives (Ctrl-C, a cluster's or CI's time
/// limit, a closed terminal): it removes the temporary files and folders it was writing,
/// leaves every finished output as it was, and exits with status 128 + the signal's number.
///
/// Writers register a temporary path while it exists (``register(_:)``) and do the renames
/// that publish an output inside ``critical(_:)``: the signal is handled on a thread of its
/// own, which waits for a rename under way to finish, so an output is never caught half
/// swapped.
public enum Interruption {
    private final class Registry: @unchecked Sendable {
        let lock = NSRecursiveLock()
        var paths: Set<String> = []
        var children: Set<pid_t> = []
        var sources: [DispatchSourceSignal] = []
        /// Called instead of stopping the program, when a command's normal end is a signal.
        var stop: (@Sendable (Int32) -> Void)?
    }
    private static let registry = Registry()

    /// Handles SIGINT, SIGTERM and SIGHUP from now on (the command-line tool calls it once).
    public static func install() {
        // A reader that goes away is EPIPE on the write (StandardOutput), not a silent death;
        // a file-size limit (`ulimit -f`) is EFBIG on the write, a failed write like a full
        // disk's (the output abandoned, one line, exit 1), not a killed process.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        let queue = DispatchQueue(label: "odr-sim.signals")
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                registry.lock.lock()
                let stop = registry.stop
                registry.lock.unlock()
                if let stop { stop(number) } else { interrupted(by: number) }
            }
            source.resume()
            registry.sources.append(source)
        }
    }

    /// Removes what is registered and exits; the lock waits for a rename under way.
    /// Makes SIGINT, SIGTERM and SIGHUP call `stop` (with the signal's number, on a queue of
    /// their own) instead of stopping the program: for a command whose normal end is a signal
    /// (`odr-sim serve`), which then ends its work and returns as usual.
    public static func onSignal(_ stop: @escaping @Sendable (Int32) -> Void) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.stop = stop
    }

    private static func interrupted(by number: Int32) -> Never {
        registry.lock.lock()
        endChildren()
        for path in registry.paths { removeWhileWritten(path) }
        let name = number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "SIGHUP"
        FileHandle.standardError.write(Data("\nodr-sim: stopped by \(name); no output written\n".utf8))
        _exit(128 + number)
    }

    /// Stops the program from wherever it is, a worker thread included, as a failed command
    /// stops: the temporary files and folders being written are removed, `odr-sim: LINE` goes
    /// to standard error, and the exit status is 1. For a failure that cannot be thrown up to
    /// the command (a purge-policy plug-in's wrong answer deep inside a run).
    public static func fail(_ line: String) -> Never {
        registry.lock.lock()
        endChildren()
        for path in registry.paths { removeWhileWritten(path) }
        FileHandle.standardError.write(Data(PathBytes.shown("odr-sim: \(line)\n").utf8))
        _exit(1)
    }

    /// A child process (a plug-in tried in a fork) to kill and reap if the program stops, so
    /// that none is left behind; ``release(child:)`` once it is reaped.
    public static func guardChild(_ child: pid_t) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.children.insert(child)
    }

    public static func release(child: pid_t) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.children.remove(child)
    }

    /// Kills and reaps every guarded child (the lock held).
    private static func endChildren() {
        for child in registry.children {
            kill(child, SIGKILL)
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        registry.children.removeAll()
    }

    /// Removes `path` (a file, or a folder with what is in it) although workers may still be
    /// adding files to it: a folder emptied while a worker creates its next part file is not
    /// empty for `rmdir`, so removal is tried again until nothing is left (at most a second).
    public static func removeWhileWritten(_ path: String) {
        for _ in 0..<200 {
            PathBytes.remove(path)
            if PathBytes.status(path, link: true) == nil { return }
            usleep(5_000)
        }
    }

    /// Whether `url` was registered by this process and not yet published or removed: a
    /// temporary path this process made, so removing it can lose nothing of anyone else's.
    public static func isRegistered(_ url: URL) -> Bool {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return registry.paths.contains(url.path)
    }

    /// A temporary path to remove if the process is interrupted.
    public static func register(_ url: URL) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths.insert(url.path)
    }

    /// A temporary path that no longer needs removing (renamed into place, or removed).
    public static func unregister(_ url: URL) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths.remove(url.path)
    }

    /// Runs `body` with interruption held off until it returns.
    public static func critical<T>(_ body: () throws -> T) rethrows -> T {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        return try body()
    }
}
