import Foundation
import TextInput

/// Standard output, written so that a failed write is never silent: every line a command
/// prints goes through ``say(_:terminator:)``, and ``finish()`` reports the first failed
/// write (a full disk behind `> file`, `> /dev/full`) as the command's error, exit 1.
///
/// A reader that goes away (`odr-sim … | head`: `EPIPE`) is not an error: what is left is
/// dropped and the command ends as it would have. Writes go straight to file descriptor 1,
/// unbuffered, so nothing can be lost in a buffer at exit.
public enum StandardOutput {
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        /// The first write error (`errno`), if any; once set, nothing more is written.
        var failure: Int32?
        var closedByReader = false
        /// Where standard output is: descriptor 1, or its copy once foreign code shares the
        /// process (``keepForOdrSim()``).
        var descriptor: Int32 = 1
    }
    private static let state = State()

    /// Writes `text` to standard output, whole, unless an earlier write failed.
    public static func write(_ text: String) {
        state.lock.lock()
        defer { state.lock.unlock() }
        guard state.failure == nil, !state.closedByReader else { return }
        var bytes = Array(PathBytes.shown(text).utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(state.descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { state.closedByReader = true } else { state.failure = errno }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Keeps standard output for odr-sim alone from now on: its writes go to a copy of
    /// descriptor 1, and descriptor 1 becomes standard error's, so that whatever plug-in code
    /// prints (C's `printf`, Python's `print`) goes to standard error and never into a table
    /// or JSON a script reads. Called when a plug-in is loaded; a second call does nothing.
    public static func keepForOdrSim() {
        state.lock.lock()
        defer { state.lock.unlock() }
        guard state.descriptor == 1 else { return }
        // C's stdout buffer is never written to here (every line goes through `write`).
        let copy = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0, dup2(2, 1) >= 0 else { return }
        state.descriptor = copy
    }

    /// The first failed write, as the command's failure (exit 1); nothing if every write
    /// went through or the reader closed the pipe.
    public static func finish() throws(CommandFailure) {
        state.lock.lock()
        defer { state.lock.unlock() }
        guard let code = state.failure else { return }
        throw CommandFailure(
            "cannot write to standard output: \(String(cString: strerror(code))); the output is incomplete")
    }
}

/// Prints `text` and `terminator` on standard output through ``StandardOutput``: the only
/// way a command writes there (a source test holds it).
public func say(_ text: String = "", terminator: String = "\n") {
    StandardOutput.write(text + terminator)
}

/// Prints a line on standard error (warnings and notes; never checked: a closed stderr has
/// nowhere to say so).
public func note(_ message: String) {
    FileHandle.standardError.write(Data("\(PathBytes.shown(message))\n".utf8))
}
