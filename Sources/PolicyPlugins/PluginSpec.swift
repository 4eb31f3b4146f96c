import Foundation
import TextInput

/// What `--policy-plugin PATH[:NAME[:OPTIONS]]` says: the plug-in's file, the name its policy
/// takes (for a Python file, the class to load), and options handed to each instance.
///
/// ```
/// build/fifo.so                    the plug-in's own name
/// build/fifo.so:my-fifo            renamed (two builds of one plug-in, side by side)
/// examples/plugins/lru.py:LRU      the class LRU of a Python file
/// lru.py:LRU:window=10,decay=0.5   options, as text (`key=value`, comma-separated)
/// ```
public struct PluginSpec: Sendable, Equatable {
    public let path: String
    public let name: String?
    public let options: [(key: String, value: String)]

    public static func == (a: PluginSpec, b: PluginSpec) -> Bool {
        a.path == b.path && a.name == b.name && a.options.map(\.key) == b.options.map(\.key)
            && a.options.map(\.value) == b.options.map(\.value)
    }

    /// Whether the file is Python source, run by the Python host plug-in.
    public var isPython: Bool { path.hasSuffix(".py") }

    /// Why `name` cannot name a policy, or nil: letters, digits, `-`, `_` and `.` only.
    public static func refusal(ofName name: String) -> String? {
        name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
            ? nil : "may hold letters, digits, '-', '_' and '.' only"
    }

    public init(_ text: String) throws(PluginError) {
        // A file whose own name holds a colon is that file, not a path and a name.
        let whole = PathBytes.exists(text)
        let parts =
            whole ? [text] : text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard let path = parts.first, !path.isEmpty else {
            throw PluginError(path: text, "give the plug-in's file: --policy-plugin PATH[:NAME[:OPTIONS]]")
        }
        self.path = path
        name = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
        var options: [(key: String, value: String)] = []
        if parts.count > 2 {
            for pair in parts[2].split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, !kv[0].isEmpty else {
                    throw PluginError(path: path, "option '\(pair)' is not key=value")
                }
                options.append((kv[0], kv[1]))
            }
        }
        self.options = options
        if let name, let reason = Self.refusal(ofName: name) {
            throw PluginError(path: path, "the name '\(InputText.oneLine(name))' \(reason)")
        }

        if isPython && self.name == nil {
            throw PluginError(path: path, "name the Python class to load: \(path):CLASS")
        }
    }
}

/// A plug-in that cannot be used, or that broke its contract: one line naming its file.
public struct PluginError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    public init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(InputText.oneLine(path)): \(reason)" }
}
