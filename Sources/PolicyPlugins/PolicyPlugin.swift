import COdrSimPolicy
import Foundation
import ODRCore
import ODRPolicies

/// A purge-policy plug-in loaded from a shared library (`odrsim_policy.h`), or a Python
/// class run by the Python host plug-in: a name, and a ``PolicyDescriptor`` making one
/// ``PluginPolicy`` per run.
///
/// Loading checks what can be checked before a run: that the file is a shared library
/// exporting `odrsim_policy_entry` and speaking this interface's version; then the loader
/// (``PluginLoader``) checks its name is free and that an instance can be created and
/// destroyed (``probe()``, in a child process, so that a plug-in that crashes in `create` is an
/// error naming it, not odr-sim's crash).
public final class PolicyPlugin: @unchecked Sendable {
    // @unchecked: the table and the library live as long as the process (never unloaded);
    // the table is read-only.
    let api: UnsafePointer<odrsim_policy_api>
    /// The policy's name (the plug-in's own unless the command line renames it).
    public let name: String
    /// The file as given.
    public let path: String
    /// What the host plug-in loads (the Python file and class); empty for a C plug-in.
    let argument: String
    let options: [(key: String, value: String)]
    public let summary: String

    /// Loads the plug-in `spec` names. A Python file is run by the host plug-in at
    /// `pythonHost` (``PythonHost/path()``).
    public init(_ spec: PluginSpec, pythonHost: () throws(PluginError) -> String) throws(PluginError) {
        path = spec.path
        guard FileManager.default.fileExists(atPath: spec.path) else {
            throw PluginError(path: spec.path, "no such file")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: spec.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw PluginError(path: spec.path, "is a folder, not a plug-in")
        }
        let library = spec.isPython ? try pythonHost() : spec.path
        // A path with no slash is searched for by dlopen in the system's folders: keep it here.
        let opened = library.contains("/") ? library : "./" + library
        // RTLD_GLOBAL: the Python host's interpreter loads extension modules that need its symbols.
        guard let handle = dlopen(opened, RTLD_NOW | RTLD_GLOBAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "cannot be loaded"
            throw PluginError(
                path: library,
                "not a plug-in odr-sim can load "
                    + "(\(reason.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? reason))"
            )
        }
        guard let symbol = dlsym(handle, ODRSIM_POLICY_ENTRY) else {
            throw PluginError(path: library, "exports no \(ODRSIM_POLICY_ENTRY) (see odrsim_policy.h)")
        }
        let entry = unsafeBitCast(symbol, to: odrsim_policy_entry_fn.self)
        guard let api = entry() else { throw PluginError(path: library, "\(ODRSIM_POLICY_ENTRY) returned no table") }
        guard api.pointee.version == UInt32(ODRSIM_POLICY_API_VERSION) else {
            throw PluginError(
                path: library,
                """
                speaks plug-in interface version \(api.pointee.version); this odr-sim speaks \
                \(ODRSIM_POLICY_API_VERSION)
                """
            )
        }
        guard api.pointee.create != nil, api.pointee.select_victims != nil else {
            throw PluginError(path: library, "its table lacks create or select_victims")
        }
        self.api = api
        let ownName = api.pointee.name.map { String(cString: $0) } ?? ""
        name = spec.name ?? ownName
        guard !name.isEmpty else { throw PluginError(path: spec.path, "has no name: give one with \(spec.path):NAME") }
        argument =
            spec.isPython ? (URL(fileURLWithPath: spec.path).standardizedFileURL.path + ":" + (spec.name ?? "")) : ""
        options = spec.options
        let summary = api.pointee.summary.map { String(cString: $0) } ?? ""
        self.summary =
            spec.isPython
            ? "Python class \(spec.name ?? "") of \(spec.path)"
            : (summary.isEmpty ? "plug-in \(spec.path)" : "\(summary) (plug-in \(spec.path))")
    }

    /// A descriptor making this plug-in's policy (the registry's entry for it).
    public var descriptor: PolicyDescriptor {
        // Plug-ins may read times (`last_use`), so a replay keeps them.
        PolicyDescriptor(name: name, summary: summary, readsTime: true) { context in
            PluginPolicy(plugin: self, seed: context.seed)
        }
    }

    /// Creates and destroys one instance in a child process: a crash there, or a failed
    /// `create`, is one line naming the plug-in.
    func probe() throws(PluginError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        let child = fork()
        if child == 0 {
            close(fds[0])
            // A crash here is reported by the parent in one line: no backtrace on stderr.
            for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { signal(number, SIG_DFL) }
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 {
                dup2(null, 2)
                dup2(null, 1)
            }
            var code: Int32 = 0
            withCreateArguments(seed: 0) { args in
                var error: UnsafePointer<CChar>? = nil
                if let instance = api.pointee.create(args, &error) {
                    api.pointee.destroy?(instance)
                } else {
                    let message = error.map { String(cString: $0) } ?? "create returned no instance"
                    _ = message.withCString { write(fds[1], $0, strlen($0)) }
                    code = 2
                }
            }
            _exit(code)
        }
        close(fds[1])
        guard child > 0 else {
            close(fds[0])
            return
        }
        var message = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            message += buffer[..<n]
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        if signal != 0 { throw PluginError(path: path, "crashed in create (signal \(signal))") }
        if (status >> 8) & 0xff != 0 {
            let text =
                String(decoding: message, as: UTF8.self).split(separator: "\n").first.map(String.init)
                ?? "create failed"
            throw PluginError(path: path, "create failed: \(text)")
        }
    }

    /// Calls `body` with `create`'s arguments (valid during the call only).
    func withCreateArguments<T>(seed: UInt64, _ body: (UnsafePointer<odrsim_create_args>) -> T) -> T {
        // Strings stay alive as C strings for the call: strdup'd, freed after.
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { for string in owned { free(string) } }
        func c(_ s: String) -> UnsafePointer<CChar> {
            let p = strdup(s)!
            owned.append(p)
            return UnsafePointer(p)
        }
        var pairs = options.map { odrsim_option(key: c($0.key), value: c($0.value)) }
        return pairs.withUnsafeMutableBufferPointer { buffer in
            var args = odrsim_create_args(
                name: c(name), argument: c(argument), options: UnsafePointer(buffer.baseAddress),
                option_count: Int32(buffer.count), reserved: 0, seed: seed)
            return withUnsafePointer(to: &args) { body($0) }
        }
    }
}
