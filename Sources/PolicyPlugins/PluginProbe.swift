import COdrSimPolicy
import Foundation
import SafeOutput
import TextInput

/// A plug-in's first load, in a child process with a time limit: `dlopen` (which runs the
/// library's constructors), `odrsim_policy_entry`, the table's checks, and one instance created
/// and destroyed. A plug-in is untrusted code: a crash, a hang or a call to `exit` there is one
/// line naming the plug-in and the step, and odr-sim loads it itself only once the child came
/// through. The child is killed and reaped when the time is up or odr-sim is stopped
/// (``Interruption/guardChild(_:)``), so none is left behind.
struct PluginProbe {
    /// The steps, in order; the child reports each before it takes it.
    enum Step: UInt8 {
        case load = 1
        case entry, create, destroy, done

        var words: String {
            switch self {
            case .load: "while loading (its constructors)"
            case .entry: "in \(ODRSIM_POLICY_ENTRY)"
            case .create: "in create"
            case .destroy: "in destroy"
            case .done: "after its load"
            }
        }
    }

    /// What the child learnt: the table's name and summary, the bytes the plug-in gave.
    struct Table {
        let name: [UInt8]
        let summary: [UInt8]
    }

    /// The seconds a load may take: 30, or `ODR_SIM_PLUGIN_SECONDS` (1 to 3600). A Python host
    /// starting its interpreter and importing the class's modules takes about a second here.
    static func seconds() throws(PluginError) -> Int {
        guard let text = ProcessInfo.processInfo.environment["ODR_SIM_PLUGIN_SECONDS"], !text.isEmpty else {
            return 30
        }
        guard let value = Int(text), (1...3600).contains(value) else {
            throw PluginError(
                path: "ODR_SIM_PLUGIN_SECONDS",
                "'\(InputText.oneLine(text))' is not a whole number of seconds from 1 to 3600")
        }
        return value
    }

    let library: String
    /// The file as the user named it, for messages.
    let path: String
    let spec: PluginSpec

    /// Runs the child and returns the table's name and summary, or the one line why not.
    func run() throws(PluginError) -> Table {
        let seconds = try Self.seconds()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw PluginError(path: path, "cannot be tried: no pipe (\(errno))") }
        let child = fork()
        if child == 0 {
            close(fds[0])
            childMain(fds[1])
        }
        close(fds[1])
        guard child > 0 else {
            close(fds[0])
            throw PluginError(path: path, "cannot be tried: no child process (\(errno))")
        }
        Interruption.guardChild(child)
        let (bytes, timedOut) = Self.readAll(fds[0], seconds: seconds)
        close(fds[0])
        if timedOut { kill(child, SIGKILL) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        Interruption.release(child: child)
        return try verdict(bytes, status: status, timedOut: timedOut, seconds: seconds)
    }

    /// The child's report read to its end, or until `seconds` pass.
    private static func readAll(_ fd: Int32, seconds: Int) -> ([UInt8], Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(Double(seconds))
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return (bytes, true) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left * 1000, 1000)))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return (bytes, false) }
            bytes += buffer[..<n]
        }
    }

    /// The report's meaning. Records: a step byte, or `E`/`N`/`S` and a length-prefixed text.
    private func verdict(_ bytes: [UInt8], status: Int32, timedOut: Bool, seconds: Int) throws(PluginError)
        -> Table
    {
        var step = Step.load
        var texts: [UInt8: [UInt8]] = [:]
        var k = 0
        while k < bytes.count {
            let tag = bytes[k]
            if let reached = Step(rawValue: tag) {
                step = reached
                k += 1
                continue
            }
            guard k + 5 <= bytes.count else { break }
            let length = Int(bytes[k + 1]) | Int(bytes[k + 2]) << 8 | Int(bytes[k + 3]) << 16 | Int(bytes[k + 4]) << 24
            guard k + 5 + length <= bytes.count else { break }
            texts[tag] = Array(bytes[(k + 5)..<(k + 5 + length)])
            k += 5 + length
        }
        if timedOut { throw PluginError(path: path, "did not answer within \(seconds) s \(step.words)") }
        let signal = status & 0x7f
        if signal != 0 { throw PluginError(path: path, "crashed \(step.words) (signal \(signal))") }
        if let error = texts[UInt8(ascii: "E")] { throw PluginError(path: path, Self.oneLine(error)) }
        guard step == .done, (status >> 8) & 0xff == 0 else {
            throw PluginError(path: path, "ended the process \(step.words) (exit status \((status >> 8) & 0xff))")
        }
        return Table(name: texts[UInt8(ascii: "N")] ?? [], summary: texts[UInt8(ascii: "S")] ?? [])
    }

    /// A plug-in's text as one line a terminal shows as it is: control characters escaped, a
    /// byte that is not UTF-8 as `\xNN`, at most 300 characters (``InputText/oneLine(bytes:limit:)``).
    static func oneLine(_ bytes: [UInt8]) -> String { InputText.oneLine(bytes: bytes) }

    /// ``oneLine(_:)-4m8qz`` of a C string.
    static func oneLine(_ text: UnsafePointer<CChar>) -> String { oneLine(bytes(text)) }

    /// ``oneLine(_:)-4m8qz`` of Swift text.
    static func oneLine(_ text: String) -> String { oneLine(Array(text.utf8)) }

    /// A C string's bytes, as given.
    static func bytes(_ text: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// The child: each step reported before it is taken, then `_exit`. Never returns.
    private func childMain(_ fd: Int32) -> Never {
        // A crash is reported by the parent in one line: no backtrace; nothing the plug-in
        // prints reaches odr-sim's output.
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { signal(number, SIG_DFL) }
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, 2)
            dup2(null, 1)
        }
        func send(_ step: Step) { _ = withUnsafeBytes(of: step.rawValue) { write(fd, $0.baseAddress, 1) } }
        func send(_ tag: Character, _ text: [UInt8]) {
            let body = Array(text.prefix(1 << 16))
            let n = UInt32(body.count)
            let record =
                [
                    UInt8(ascii: tag.unicodeScalars.first!), UInt8(n & 0xff), UInt8(n >> 8 & 0xff),
                    UInt8(n >> 16 & 0xff), 0,
                ]
                + body
            _ = record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
        send(.load)
        let api: UnsafePointer<odrsim_policy_api>
        do {
            api = try PolicyPlugin.table(library, entered: { send(.entry) })
        } catch {
            send("E", Array(error.reason.utf8))
            _exit(2)
        }
        let ownName = api.pointee.name.map { Self.bytes($0) } ?? []
        send("N", ownName)
        send("S", api.pointee.summary.map { Self.bytes($0) } ?? [])
        let name = spec.name ?? String(decoding: ownName, as: UTF8.self)
        let argument = PolicyPlugin.argument(spec)
        send(.create)
        var failure: [UInt8]?
        PolicyPlugin.withCreateArguments(name: name, argument: argument, options: spec.options, seed: 0) { args in
            var error: UnsafePointer<CChar>? = nil
            if let instance = api.pointee.create(args, &error) {
                send(.destroy)
                api.pointee.destroy?(instance)
            } else {
                failure = Array("create failed: ".utf8) + (error.map { Self.bytes($0) } ?? Array("no instance".utf8))
            }
        }
        if let failure {
            send("E", failure)
            _exit(2)
        }
        send(.done)
        _exit(0)
    }
}
