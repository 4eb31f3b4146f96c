import COdrSimPolicy
import Foundation
import ODRCore
import ODRPolicies
import SafeOutput
import TextInput

/// A purge-policy plug-in loaded from a shared library (`odrsim_policy.h`), or a Python
/// class run by the Python host plug-in: a name, and a ``PolicyDescriptor`` making one
/// ``PluginPolicy`` per run.
///
/// Loading checks what can be checked before a run, first in a child process with a time limit
/// (``PluginProbe``: its constructors, `odrsim_policy_entry`, this interface's version, an
/// instance created and destroyed), so that a plug-in that crashes, hangs or exits there is an
/// error naming it, not odr-sim's crash or hang; then here, and the loader (``PluginLoader``)
/// checks its name is free.
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
    /// `pythonHost` (``PythonHost/path()``). The load is tried in a child first
    /// (``PluginProbe``).
    public init(_ spec: PluginSpec, pythonHost: () throws(PluginError) -> String) throws(PluginError) {
        path = spec.path
        guard PathBytes.exists(spec.path) else {
            throw PluginError(path: spec.path, "no such file")
        }
        if PathBytes.isFolder(spec.path) {
            throw PluginError(path: spec.path, "is a folder, not a plug-in")
        }
        let library = spec.isPython ? try pythonHost() : spec.path
        let probed = try PluginProbe(library: library, path: spec.isPython ? spec.path : library, spec: spec).run()
        api = try Self.table(library)
        let ownName = String(validating: probed.name, as: UTF8.self)
        if spec.name == nil {
            // The plug-in's own name follows the rule of a name given as PATH:NAME.
            guard !probed.name.isEmpty else {
                throw PluginError(path: spec.path, "has no name: give one with \(spec.path):NAME")
            }
            if let reason = ownName.map(PluginSpec.refusal(ofName:)) ?? "is not UTF-8" {
                throw PluginError(
                    path: spec.path,
                    "its own name '\(PluginProbe.oneLine(probed.name))' \(reason); give another with \(spec.path):NAME")
            }
        }
        name = spec.name ?? ownName ?? ""
        argument = Self.argument(spec)
        options = spec.options
        let summary = PluginProbe.oneLine(probed.summary)
        self.summary =
            spec.isPython
            ? "Python class \(spec.name ?? "") of \(spec.path)"
            : (summary.isEmpty ? "plug-in \(spec.path)" : "\(summary) (plug-in \(spec.path))")
        exitLine = strdup(
            "odr-sim: purge policy '\(name)' (\(spec.path)): the plug-in ended the process (exit) during a call; "
                + "no output written\n")!
        odrsim_arm_plugin_exit { line in Interruption.fail(PolicyPlugin.exitReason(String(cString: line!))) }
    }

    /// The line the exit handler prints when this plug-in calls `exit` (kept for the process).
    let exitLine: UnsafeMutablePointer<CChar>

    /// ``Interruption/fail(_:)`` adds `odr-sim: ` and the newline.
    private static func exitReason(_ line: String) -> String {
        String(line.dropFirst("odr-sim: ".count).dropLast())
    }

    /// What the host plug-in loads (the Python file and class); empty for a C plug-in.
    static func argument(_ spec: PluginSpec) -> String {
        spec.isPython ? (URL(fileURLWithPath: spec.path).standardizedFileURL.path + ":" + (spec.name ?? "")) : ""
    }

    /// Opens `library` in this process and checks its table; `entered` is called before its
    /// entry function is.
    static func table(_ library: String, entered: () -> Void = {}) throws(PluginError)
        -> UnsafePointer<odrsim_policy_api>
    {
        // A path with no slash is searched for by dlopen in the system's folders: keep it here.
        let opened = library.contains("/") ? library : "./" + library
        // RTLD_GLOBAL: the Python host's interpreter loads extension modules that need its symbols.
        guard let handle = PathBytes.withCString(opened, { dlopen($0, RTLD_NOW | RTLD_GLOBAL) }) else {
            let reason = dlerror().map { String(cString: $0) } ?? "cannot be loaded"
            let last = reason.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? reason
            throw PluginError(path: library, "not a plug-in odr-sim can load (\(PluginProbe.oneLine(last)))")
        }
        guard let symbol = dlsym(handle, ODRSIM_POLICY_ENTRY) else {
            throw PluginError(path: library, "exports no \(ODRSIM_POLICY_ENTRY) (see odrsim_policy.h)")
        }
        let entry = unsafeBitCast(symbol, to: odrsim_policy_entry_fn.self)
        entered()
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
        return api
    }

    /// A descriptor making this plug-in's policy (the registry's entry for it).
    public var descriptor: PolicyDescriptor {
        // Plug-ins may read times (`last_use`), so a replay keeps them.
        PolicyDescriptor(name: name, summary: summary, readsTime: true) { context in
            PluginPolicy(plugin: self, seed: context.seed)
        }
    }

    /// Calls `body` with `create`'s arguments (valid during the call only).
    func withCreateArguments<T>(seed: UInt64, _ body: (UnsafePointer<odrsim_create_args>) -> T) -> T {
        Self.withCreateArguments(name: name, argument: argument, options: options, seed: seed, body)
    }

    static func withCreateArguments<T>(
        name: String, argument: String, options: [(key: String, value: String)], seed: UInt64,
        _ body: (UnsafePointer<odrsim_create_args>) -> T
    ) -> T {
        // Strings stay alive as C strings for the call: strdup'd, freed after.
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { for string in owned { free(string) } }
        func c(_ s: String) -> UnsafePointer<CChar> {
            // A path as its bytes (PathBytes): the Python host opens the file it names.
            let p = PathBytes.withCString(s) { strdup($0) }!
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
