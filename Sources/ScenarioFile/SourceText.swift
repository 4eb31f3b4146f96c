import Foundation
import TextInput
import Yams

/// What scenario and study files share before their own parsing: reading a file as UTF-8
/// text, and composing its YAML into nodes that keep their line and column.
enum SourceText {
    /// The text of the file at `path`, read by ``InputText`` (CRLF, byte-order mark, NUL and
    /// non-files handled as for every input). A problem with the file as a whole is an error
    /// at line 1, column 1 of the file, or, for a file named inside another (a study's
    /// `scenario:`), at `location`; a problem at a place in it (a NUL byte) is at that place.
    static func read(_ path: String, at location: (reader: NodeReader, node: Node)? = nil) throws(ScenarioError)
        -> String
    {
        do {
            return try InputText.read(path)
        } catch {
            if error.line == 1 && error.column == 1, let location {
                throw location.reader.error(at: location.node, "'\(InputText.oneLine(path))': \(error.message)")
            }
            throw ScenarioError(file: path, line: error.line, column: error.column, message: error.message)
        }
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
