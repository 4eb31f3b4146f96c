import Foundation
import ODRPolicies
import SafeOutput
import TextInput

/// Loads the plug-ins a command line names (`--policy-plugin SPEC`, repeatable) and registers
/// their policies, before the command parses its policy names: a plug-in's policy is then one
/// more name, on the command line and as an app's `strategy:` in a scenario.
public enum PluginLoader {
    /// The option, as the commands that take it spell it.
    public static let option = "--policy-plugin"

    /// Every `--policy-plugin` value in `arguments` (`--policy-plugin X` and `--policy-plugin=X`),
    /// up to a `--` that ends the options.
    public static func specs(in arguments: [String]) -> [String] {
        var found: [String] = []
        var k = 0
        while k < arguments.count, arguments[k] != "--" {
            if arguments[k] == option, k + 1 < arguments.count {
                found.append(arguments[k + 1])
                k += 1
            } else if arguments[k].hasPrefix(option + "=") {
                found.append(String(arguments[k].dropFirst(option.count + 1)))
            }
            k += 1
        }
        return found
    }

    /// Loads the plug-ins the process's command line (`arguments`, after its own name) names,
    /// before its commands parse it; a plug-in that cannot be used is the command's failure
    /// (exit 1).
    public static func loadCommandLine(_ arguments: [String]) throws(CommandFailure) {
        do { try load(specs(in: arguments)) } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Loads and registers each plug-in; the first that cannot be used is the error.
    @discardableResult
    public static func load(_ specs: [String]) throws(PluginError) -> [PolicyPlugin] {
        var loaded: [PolicyPlugin] = []
        // Plug-in code shares the process from here: what it prints goes to standard error.
        if !specs.isEmpty { StandardOutput.keepForOdrSim() }
        for text in specs {
            let spec = try PluginSpec(text)
            // A name given is checked before the plug-in's code runs at all.
            if let name = spec.name, PolicyRegistry.descriptor(named: name) != nil {
                throw PluginError(path: spec.path, DuplicatePolicy(name: name).description)
            }
            let plugin = try PolicyPlugin(spec, pythonHost: PythonHost.path)
            if PolicyRegistry.descriptor(named: plugin.name) != nil {
                throw PluginError(path: spec.path, DuplicatePolicy(name: plugin.name).description)
            }
            do { try PolicyRegistry.register(plugin.descriptor) } catch {
                throw PluginError(path: spec.path, error.description)
            }
            loaded.append(plugin)
        }
        return loaded
    }
}

/// Where the Python host plug-in is: the shared library that runs a Python class as a policy
/// (`python/odrsim/_host.c`, built by `scripts/build-plugin FILE.py` or by the Python package).
public enum PythonHost {
    /// The file's name where odr-sim looks for it.
    public static let fileName = "odrsim-python-host.so"

    /// `ODR_SIM_PYTHON_HOST`, else `plugins/` beside the build folder of the running odr-sim
    /// (`.build/plugins/`, where scripts/build-plugin puts it), or beside odr-sim.
    public static func path() throws(PluginError) -> String {
        if let given = ProcessInfo.processInfo.environment["ODR_SIM_PYTHON_HOST"], !given.isEmpty {
            guard PathBytes.exists(given) else {
                throw PluginError(path: given, "no such file (ODR_SIM_PYTHON_HOST)")
            }
            return given
        }
        let executable = URL(fileURLWithPath: PathBytes.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0])
        // .build/x86_64-unknown-linux-gnu/debug/odr-sim looks in .build/plugins/ too.
        var folder = executable.deletingLastPathComponent()
        var candidates = [folder.appendingPathComponent(fileName)]
        for _ in 0..<3 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("plugins/\(fileName)"))
        }
        if let found = candidates.first(where: { PathBytes.exists($0.path) }) {
            return found.path
        }
        throw PluginError(
            path: fileName,
            """
            a Python policy runs in the Python host plug-in, not built yet: run scripts/build-plugin on the .py file \
            (or set ODR_SIM_PYTHON_HOST)
            """
        )
    }
}
