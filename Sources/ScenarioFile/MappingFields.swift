import Yams

/// The entries of one YAML mapping of a known ``Section``, checked for unknown and repeated keys,
/// looked up by key while keeping every key's and value's node for messages.
struct MappingFields {
    /// One `key: value` entry in file order.
    struct Entry {
        let key: String
        let keyNode: Node
        let value: Node
    }

    /// The mapping itself: missing keys are reported here.
    let node: Node
    let section: Section
    /// In file order.
    let entries: [Entry]
    private let reader: NodeReader

    /// Checks that every key of `mapping` is a plain name allowed in `section`.
    init(node: Node, mapping: Node.Mapping, section: Section, reader: NodeReader) throws(ScenarioError) {
        self.node = node
        self.section = section
        self.reader = reader
        var entries: [Entry] = []
        var seen = Set<String>()
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw reader.error(
                    at: keyNode, "\(section.adjective) keys must be plain names, not \(NodeReader.describe(keyNode))")
            }
            let key = scalar.string
            guard section.keys.contains(key) else {
                throw reader.error(
                    at: keyNode,
                    "unknown \(section.adjective) key '\(key)'" + NameSuggestion.hint(for: key, among: section.keys))
            }
            // Yams rejects repeats of an identical key; this also catches `1` against `"1"`.
            guard seen.insert(key).inserted else {
                throw reader.error(at: keyNode, "key '\(key)' appears twice in this \(section.adjective) mapping")
            }
            entries.append(Entry(key: key, keyNode: keyNode, value: value))
        }
        self.entries = entries
    }

    /// The value of `key`, if present.
    func value(_ key: String) -> Node? {
        entries.first { $0.key == key }?.value
    }

    /// The node of `key` itself, if present: where "this key is not allowed here" points.
    func keyNode(_ key: String) -> Node? {
        entries.first { $0.key == key }?.keyNode
    }

    /// The value of `key`, which must be present.
    func required(_ key: String) throws(ScenarioError) -> Node {
        guard let value = value(key) else {
            throw reader.error(at: node, "\(section.noun) is missing required key '\(key)'")
        }
        return value
    }
}
