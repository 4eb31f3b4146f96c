import Foundation
import Yams

/// What scenario and study files share before their own parsing: reading a file as UTF-8
/// text, and composing its YAML into nodes that keep their line and column.
enum SourceText {
    /// The text of the file at `path`. A problem is an error at line 1, column 1 of the file,
    /// or, for a file named inside another (a study's `scenario:`), at `location`.
    static func read(_ path: String, at location: (reader: NodeReader, node: Node)? = nil) throws(ScenarioError) -> String {
        func failure(_ message: String) -> ScenarioError {
            if let location { return location.reader.error(at: location.node, "'\(path)': \(message)") }
            return ScenarioError(file: path, line: 1, column: 1, message: message)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw failure("no such file") }
        guard !isDirectory.boolValue else { throw failure("is a directory, not a file") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw failure("cannot read the file: \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw failure("the file is not UTF-8 text") }
        return text
    }

    /// The YAML document of `text`, or nil for an empty one; a syntax error names `fileName`.
    static func compose(_ text: String, fileName: String) throws(ScenarioError) -> Node? {
        do {
            // An explicit encoding: the default one consults an environment variable and prints.
            return try Yams.compose(yaml: text, .default, .default, .utf8)
        } catch {
            throw ScenarioError(yamlError: error, file: fileName, text: text)
        }
    }
}
