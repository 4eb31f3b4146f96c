import ODRCore
import Quantities
import Yams

/// Reads typed values out of YAML nodes; every problem becomes a ``ScenarioError`` at the node.
///
/// `subject` arguments name the value in messages, normally its key (`capacity`), so that
/// `capacity: 64XB` reads back as `capacity must be a size, not '64XB'; …`.
struct NodeReader {
    /// The file name errors carry.
    let file: String

    func error(at node: Node, _ message: String) -> ScenarioError {
        let mark = node.mark
        return ScenarioError(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, message: message)
    }

    /// What a node is, for "must be a list, not …" messages.
    static func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar): return isNull(scalar) ? "empty" : "the value '\(scalar.string)'"
        }
    }

    /// `key:` with nothing after it, `~` or `null`, unquoted.
    static func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style != .singleQuoted && scalar.style != .doubleQuoted
            && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    private func wrongType(_ node: Node, _ subject: String, _ expected: String) -> ScenarioError {
        error(at: node, "\(subject) must be \(expected), not \(Self.describe(node))")
    }

    // MARK: Structure

    func mapping(_ node: Node, _ subject: String, section: Section) throws(ScenarioError) -> MappingFields {
        guard case .mapping(let mapping) = node else { throw wrongType(node, subject, "a mapping") }
        return try MappingFields(node: node, mapping: mapping, section: section, reader: self)
    }

    /// The pairs of a mapping whose keys are names of the scenario's own (tags), not keys of
    /// the format, so they are not checked against a ``Section``.
    func namedMapping(_ node: Node, _ subject: String) throws(ScenarioError) -> [(
        name: String, keyNode: Node, value: Node
    )] {
        guard case .mapping(let mapping) = node else { throw wrongType(node, subject, "a mapping") }
        var result: [(name: String, keyNode: Node, value: Node)] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key, !Self.isNull(scalar) else {
                throw error(at: key, "\(subject) must map names to values, not \(Self.describe(key)) to a value")
            }
            result.append((scalar.string, key, value))
        }
        return result
    }

    func sequence(_ node: Node, _ subject: String, of items: String = "") throws(ScenarioError) -> [Node] {
        guard case .sequence(let sequence) = node else {
            throw wrongType(node, subject, items.isEmpty ? "a list" : "a list of \(items)")
        }
        return Array(sequence)
    }

    // MARK: Scalars

    /// The text of a single, non-empty value; `kind` (such as `a size`) describes it in messages.
    func scalar(_ node: Node, _ subject: String, kind: String = "a single value") throws(ScenarioError) -> String {
        guard case .scalar(let scalar) = node, !Self.isNull(scalar) else { throw wrongType(node, subject, kind) }
        return scalar.string
    }

    /// A free text; empty is allowed and gives "".
    func text(_ node: Node, _ subject: String) throws(ScenarioError) -> String {
        if case .scalar(let scalar) = node, Self.isNull(scalar) { return "" }
        return try scalar(node, subject, kind: "a text")
    }

    /// A name (an id, a tag, a policy): non-empty text.
    func name(_ node: Node, _ subject: String) throws(ScenarioError) -> String {
        let text = try scalar(node, subject, kind: "a name")
        guard !text.isEmpty else { throw error(at: node, "\(subject) must not be empty") }
        return text
    }

    /// YAML's booleans (`true`, `false`, and the YAML 1.1 `yes/no/on/off` Yams also reads).
    func bool(_ node: Node, _ subject: String) throws(ScenarioError) -> Bool {
        let text = try scalar(node, subject, kind: "true or false")
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: throw error(at: node, "\(subject) must be true or false, not '\(text)'")
        }
    }

    /// A whole number of type `T`, at least `minimum`.
    func integer<T: FixedWidthInteger>(
        _ node: Node, _ subject: String, as type: T.Type, atLeast minimum: T, atMost maximum: T = T.max,
        because reason: String = ""
    ) throws(ScenarioError) -> T {
        let text = try scalar(node, subject, kind: "a whole number")
        guard let value = T(text), !text.hasPrefix("+") else {
            if text.first == "-", T(text.dropFirst()) != nil {
                throw error(at: node, "\(subject) must be at least \(minimum), not \(text)")
            }
            let tooLarge = !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
            throw error(
                at: node,
                tooLarge
                    ? "\(subject) \(text) is too large (at most \(T.max))"
                    : "\(subject) must be a whole number, not '\(text)'")
        }
        guard value >= minimum else { throw error(at: node, "\(subject) must be at least \(minimum), not \(text)") }
        guard value <= maximum else {
            throw error(at: node, "\(subject) must be at most \(maximum)\(reason), not \(text)")
        }
        return value
    }

    /// One of `choices`, with a hint when it is misspelt.
    func choice(_ node: Node, _ subject: String, among choices: [String]) throws(ScenarioError) -> String {
        let text = try scalar(node, subject, kind: "one of " + choices.joined(separator: ", "))
        guard choices.contains(text) else {
            throw error(at: node, "unknown \(subject) '\(text)'" + NameSuggestion.hint(for: text, among: choices))
        }
        return text
    }

    // MARK: Units

    func size(_ node: Node, _ subject: String) throws(ScenarioError) -> Int64 {
        try value(node, subject, kind: "a size") { text throws(ValueSyntaxError) in try SizeSyntax.parse(text) }
    }

    func signedSize(_ node: Node, _ subject: String) throws(ScenarioError) -> Int64 {
        try value(node, subject, kind: "a size") { text throws(ValueSyntaxError) in try SizeSyntax.parseSigned(text) }
    }

    func duration(_ node: Node, _ subject: String) throws(ScenarioError) -> Double {
        try value(node, subject, kind: "a time") { text throws(ValueSyntaxError) in try DurationSyntax.parse(text) }
    }

    func bandwidth(_ node: Node, _ subject: String) throws(ScenarioError) -> Double {
        try value(node, subject, kind: "a bandwidth") { text throws(ValueSyntaxError) in try BandwidthSyntax.parse(text)
        }
    }

    /// A preservation priority (or any number in 0…1).
    func fraction(_ node: Node, _ subject: String) throws(ScenarioError) -> Double {
        try value(node, subject, kind: "a number in 0…1") { text throws(ValueSyntaxError) in
            try PrioritySyntax.parseFraction(text)
        }
    }

    func loadingPriority(_ node: Node, _ subject: String) throws(ScenarioError) -> LoadingPriority {
        try value(node, subject, kind: "a number in 0…1 or urgent") { text throws(ValueSyntaxError) in
            try PrioritySyntax.parseLoading(text)
        }
    }

    private func value<T>(
        _ node: Node, _ subject: String, kind: String, _ parse: (String) throws(ValueSyntaxError) -> T
    ) throws(ScenarioError) -> T {
        let text = try scalar(node, subject, kind: kind)
        do {
            return try parse(text)
        } catch {
            throw self.error(at: node, error.message(subject: subject))
        }
    }
}

extension NodeReader {
    /// A policy that code on a device could run (an app's `strategy`, the `system_policy`): a
    /// registered name (`known`) that does not read the future (`offline`); `key` names it in
    /// errors and `who` is what cannot read the future ("an app's own code", "the system").
    func deployablePolicy(_ node: Node, key: String, known: [String], offline: Set<String>, who: String)
        throws(ScenarioError) -> String
    {
        let name = try self.name(node, key)
        guard known.contains(name) else {
            throw error(
                at: node,
                "unknown \(key) '\(name)'"
                    + NameSuggestion.hint(for: name, among: known, noneText: "no policies are registered"))
        }
        guard !offline.contains(name) else {
            throw error(
                at: node, "\(key) '\(name)' reads the future; \(who) cannot (run it as the run's policy, a bound)")
        }
        return name
    }
}
