import Foundation
import ODRCore
import Yams

/// Rewrites one app's content in a scenario's text and leaves the rest as written: its
/// resources (with new tags: a new layout of packs) and the settings of tags it adds. What
/// `odr-sim advise` writes as `advised.scn`.
public struct ScenarioRewrite {
    public let text: String
    public let fileName: String

    public init(text: String, fileName: String) {
        self.text = text
        self.fileName = fileName
    }

    /// The text with app `appID`'s `resources` replaced by `resources` (a `generate:` of it
    /// written out) and each of `newTags` given its category, below a comment `header`.
    public func replacingResources(
        of appID: String, with resources: [Resource], newTags: [(name: String, category: TagCategory)],
        header: [String]
    ) throws(ScenarioError) -> String {
        guard let root = try SourceText.compose(text, fileName: fileName), case .mapping(var top) = root,
            case .sequence(var apps)? = top["apps"],
            let index = apps.firstIndex(where: { $0.mapping?["id"]?.string == appID }),
            case .mapping(var app) = apps[index]
        else {
            throw ScenarioError(file: fileName, line: 1, column: 1, message: "the scenario has no app '\(appID)'")
        }
        app["generate"] = nil
        app["resources"] = .sequence(
            Node.Sequence(
                resources.map { resource in
                    .mapping(
                        Node.Mapping([
                            (Node("name"), Self.string(resource.name)),
                            (Node("size"), Node(Self.size(resource.size))),
                            (Node("tags"), .sequence(Node.Sequence(resource.tags.map { Self.string($0) }))),
                        ]))
                }))
        if !newTags.isEmpty {
            var tags = app["tags"]?.mapping ?? Node.Mapping([])
            for tag in newTags {
                tags[Self.string(tag.name)] = .mapping(Node.Mapping([(Node("category"), Node(tag.category.name))]))
            }
            app["tags"] = .mapping(tags)
        }
        apps[index] = .mapping(app)
        top["apps"] = .sequence(apps)
        let body: String
        do {
            body = try Yams.serialize(node: ScenarioMigration.compact(.mapping(top)))
        } catch {
            throw ScenarioError(file: fileName, line: 1, column: 1, message: "cannot write the scenario: \(error)")
        }
        return header.map { "# " + $0 }.joined(separator: "\n") + (header.isEmpty ? "" : "\n") + body
    }

    /// The text with app `appID`'s content laid out anew (``replacingResources(of:with:newTags:header:)``)
    /// and, where given, its `budget` and eviction `strategy` set: what `advised.scn` says.
    public func advising(
        _ appID: String, resources: [Resource], newTags: [(name: String, category: TagCategory)],
        budget: Int64?, strategy: String?
    ) throws(ScenarioError) -> String {
        var text = try replacingResources(of: appID, with: resources, newTags: newTags, header: [])
        if let budget {
            text = try ScenarioRewrite(text: text, fileName: fileName).settingApp(
                appID, "budget", to: Self.size(budget))
        }
        if let strategy {
            text = try ScenarioRewrite(text: text, fileName: fileName).settingApp(appID, "strategy", to: strategy)
        }
        return text
    }

    /// A name as a YAML string that reads back as the same string: quoted when YAML would
    /// read it as something else (a resource named `null`, a tag `~`, `true`, `1e3`), plain
    /// otherwise, as a person would write it.
    static func string(_ text: String) -> Node {
        Resolver.default.resolveTag(of: Node(text)) == .str ? Node(text) : Node(text, Tag(.str), .doubleQuoted)
    }

    /// The text with app `appID`'s `key` (`budget`, `strategy`) set to `value`, nothing else changed.
    public func settingApp(_ appID: String, _ key: String, to value: String) throws(ScenarioError) -> String {
        try rewriting { top throws(ScenarioError) in
            guard case .sequence(var apps)? = top["apps"],
                let index = apps.firstIndex(where: { $0.mapping?["id"]?.string == appID }),
                case .mapping(var app) = apps[index]
            else {
                throw ScenarioError(file: fileName, line: 1, column: 1, message: "the scenario has no app '\(appID)'")
            }
            app[key] = Node(value)
            apps[index] = .mapping(app)
            top["apps"] = .sequence(apps)
        }
    }

    /// The text with each setting's value at its path (dotted as a study's axis path:
    /// `device.used`, `network.2.bandwidth`), and nothing else changed: one device of a
    /// population. A path that does not resolve is an error at the file's first line.
    public func setting(_ settings: [PathValue]) throws(ScenarioError) -> String {
        guard let root = try SourceText.compose(text, fileName: fileName), case .mapping = root else {
            throw ScenarioError(
                file: fileName, line: 1, column: 1,
                message: "the file is not a scenario (a mapping with duration and device)")
        }
        let reader = NodeReader(file: fileName)
        var node = root
        for setting in settings {
            let steps = try StudyParser.resolve(setting.path, in: node, reader: reader, at: root)
            node = StudyParser.replacing(steps[...], in: node, with: setting.value)
        }
        do {
            return try Yams.serialize(node: ScenarioMigration.compact(node))
        } catch {
            throw ScenarioError(file: fileName, line: 1, column: 1, message: "cannot write the scenario: \(error)")
        }
    }

    /// The text with `platform:` set to `name` (a preset), and nothing else changed.
    public func replacingPlatform(with name: String) throws(ScenarioError) -> String {
        try rewriting { top in top["platform"] = Node(name) }
    }

    /// The text's top mapping changed by `change`, written back in scenario style.
    private func rewriting(_ change: (inout Node.Mapping) throws(ScenarioError) -> Void) throws(ScenarioError) -> String
    {
        guard let root = try SourceText.compose(text, fileName: fileName), case .mapping(var top) = root else {
            throw ScenarioError(
                file: fileName, line: 1, column: 1,
                message: "the file is not a scenario (a mapping with duration and device)")
        }
        try change(&top)
        do {
            return try Yams.serialize(node: ScenarioMigration.compact(.mapping(top)))
        } catch {
            throw ScenarioError(file: fileName, line: 1, column: 1, message: "cannot write the scenario: \(error)")
        }
    }

    /// `80MB` when the size is a whole number of megabytes, else its bytes.
    public static func size(_ bytes: Int64) -> String { ByteFormatting.scenarioSize(bytes) }
}

extension ScenarioRewrite {
    /// The text with each telemetry file (`{kind: trace, file: …}`) named so that it resolves
    /// from `destination` (a path the text will be written to) as it did from ``fileName``;
    /// the text itself when it names none (so nothing else of it changes).
    public func relocatingFiles(to destination: String) throws(ScenarioError) -> String {
        guard text.contains("trace"), let root = try SourceText.compose(text, fileName: fileName),
            case .mapping(var top) = root,
            case .sequence(var workload)? = top["workload"]
        else { return text }
        var changed = false
        for i in workload.indices {
            guard case .mapping(var entry) = workload[i], entry["kind"]?.string == "trace",
                let file = entry["file"]?.string
            else { continue }
            let target = Self.resolve(file, from: fileName)
            let relocated = Self.relative(target, from: destination)
            guard relocated != file else { continue }
            entry["file"] = Node(relocated)
            workload[i] = .mapping(entry)
            changed = true
        }
        guard changed else { return text }
        top["workload"] = .sequence(workload)
        let comments = text.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("#") }
        do {
            let body = try Yams.serialize(node: ScenarioMigration.compact(.mapping(top)))
            return comments.map { $0 + "\n" }.joined() + body
        } catch {
            throw ScenarioError(file: fileName, line: 1, column: 1, message: "cannot write the scenario: \(error)")
        }
    }

    /// `file` as the scenario at `scenario` reads it: an absolute, standardized path.
    static func resolve(_ file: String, from scenario: String) -> String {
        let directory = URL(fileURLWithPath: scenario).deletingLastPathComponent()
        let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
        return url.standardizedFileURL.path
    }

    /// The path of `target` (absolute) relative to the directory of the file `from`.
    static func relative(_ target: String, from file: String) -> String {
        let base = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.pathComponents
        let parts = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < parts.count, base[common] == parts[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + parts[common...]).joined(separator: "/")
    }
}
