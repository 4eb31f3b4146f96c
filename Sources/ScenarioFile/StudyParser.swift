import Foundation
import ODRCore
import Quantities
import Simulation
import TextInput
import Yams

/// Parses study files (`.study`, YAML) into a ``Study`` whose every point is a validated
/// scenario.
///
/// ```yaml
/// scenario: ../game.scn            # a path (relative to the study), or the scenario inline
/// policies: [apple, lru, gdsf]     # default: the scenario's
/// replications: 5                  # default: the scenario's
/// baseline: apple                  # paired differences are taken against it
/// axes:
///   - {name: free_space, path: device.used, values: [50GB, 55GB, 60GB]}
///   - {path: workload.popularity.rate, values: {from: 1/d, to: 64/d, steps: 7, scale: log}}
/// ```
///
/// Axes with the same `zip:` name move together instead of forming a product, value by value
/// (`{name: tags, path: apps.game.generate.tags, values: [10, 20, 40], zip: budget}` beside
/// `{name: tag_size, path: apps.game.generate.size.median, values: [200MB, 100MB, 50MB], zip: budget}`
/// makes 3 points, not 9); they must have as many values.
///
/// A path walks the scenario's keys; in a list, an item is chosen by its 1-based number, or
/// by its `id` (apps), `kind` (workload generators, when only one has it) or `name`. The last
/// key may be one the scenario leaves out (`device.on_space_exhausted`). Every problem is a
/// ``ScenarioError`` at `FILE:LINE:COLUMN` of the study: a path that does not resolve, a
/// value (or a combination of values) the scenario would reject, naming the axis and value.
public struct StudyParser: Sendable {
    public let knownPolicies: [String]
    /// The options each policy declares, as ``ScenarioParser/policyOptions``.
    public let policyOptions: [String: [PolicyOption]]
    /// As ``ScenarioParser/offlinePolicies``: checked at every point alike.
    public let offlinePolicies: Set<String>

    public init(
        knownPolicies: [String], policyOptions: [String: [PolicyOption]] = [:], offlinePolicies: Set<String> = []
    ) {
        self.knownPolicies = knownPolicies
        self.policyOptions = policyOptions
        self.offlinePolicies = offlinePolicies
    }

    /// Most points a study may have.
    public static let maximumPoints = 10_000

    public func parseFile(atPath path: String) throws(ScenarioError) -> Study {
        try parse(try SourceText.read(path), fileName: path)
    }

    /// Parses a study's text; `fileName` is what errors name, and a scenario path is read
    /// relative to its directory.
    public func parse(_ text: String, fileName: String) throws(ScenarioError) -> Study {
        let reader = NodeReader(file: fileName)
        let root = try SourceText.compose(text, fileName: fileName)
        guard let root, case .mapping(let mapping) = root else {
            throw ScenarioError(
                file: fileName, line: 1, column: 1,
                message: "a study must be a mapping with scenario and axes (see docs/studies.md)")
        }
        let reading = Reading(
            parser: self, reader: reader, fileName: fileName,
            top: try MappingFields(node: root, mapping: mapping, section: .study, reader: reader))
        let base = try reading.readBase()
        let policies =
            try reading.top.value("policies").map { node throws(ScenarioError) in
                try base.parser.readPolicies(node, reader)
            } ?? base.document.policies
        let replications =
            try reading.top.value("replications").map { node throws(ScenarioError) in
                try reader.integer(node, "replications", as: Int.self, atLeast: 1, atMost: ModelLimits.replications)
            } ?? base.document.replications
        let baseline = try reading.readBaseline(among: policies)
        let grid = try reading.readAxes(of: base)
        try grid.checkSize(points: grid.count, policies: policies.count, replications: replications, reader)
        let explicit = try reading.readExplicitPoints(grid)
        try grid.checkSize(
            points: grid.count + explicit.count, policies: policies.count, replications: replications, reader)
        let points = try reading.readPoints(grid, explicit: explicit, base: base)
        let baselinePoint = try baseline.pointNode.map { node throws(ScenarioError) in
            try reading.readBaselinePoint(node, grid, points: points)
        }
        let name =
            try reading.top.value("name").map { n throws(ScenarioError) in try reader.text(n, "name") }
            ?? ScenarioParser.defaultName(fileName: fileName)
        let description =
            try reading.top.value("description").map { n throws(ScenarioError) in try reader.text(n, "description") }
            ?? ""
        var study = Study(
            name: name, description: description, axes: grid.axes, points: points, policies: policies,
            replications: replications, baseline: baseline.policy, digest: SourceDigest.of(text + "\n" + base.text))
        study.baseFile = base.file
        study.baselinePoint = baselinePoint
        try reading.readObjective(into: &study)
        return study
    }

    /// A list of values, or a range `{from, to, steps, scale}`; with the node of each value
    /// (a range's values all point at the range).
    func readValues(_ node: Node, axis: String, _ reader: NodeReader) throws(ScenarioError) -> (
        [String], [Node]
    ) {
        if case .sequence = node {
            let items = try reader.sequence(node, "values")
            guard !items.isEmpty else { throw reader.error(at: node, "axis '\(axis)' has no values") }
            var values: [String] = []
            for item in items {
                let value = try reader.scalar(item, "each value of axis '\(axis)'")
                guard !values.contains(value) else {
                    throw reader.error(at: item, "axis '\(axis)' lists '\(value)' twice")
                }
                values.append(value)
            }
            return (values, items)
        }
        guard case .mapping = node else {
            throw reader.error(
                at: node,
                """
                values of axis '\(axis)' must be a list such as [1GB, 2GB] or a range such as {from: 1GB, to: 8GB, \
                steps: 4, scale: log}
                """
            )
        }
        let fields = try reader.mapping(node, "a range", section: .axisRange)
        let fromNode = try fields.required("from")
        let toNode = try fields.required("to")
        let from = try Self.quantity(try reader.scalar(fromNode, "from"), reader, fromNode)
        let to = try Self.quantity(try reader.scalar(toNode, "to"), reader, toNode)
        guard from.unit == to.unit else {
            throw reader.error(at: toNode, "from and to must have the same unit ('\(from.unit)' and '\(to.unit)')")
        }
        let steps = try reader.integer(
            try fields.required("steps"), "steps", as: Int.self, atLeast: 2, atMost: Self.maximumPoints)
        let scale =
            try fields.value("scale").map { n throws(ScenarioError) in
                try reader.choice(n, "scale", among: ["linear", "log"])
            } ?? "linear"
        if scale == "log" && (from.number <= 0 || to.number <= 0) {
            throw reader.error(at: fields.value("scale")!, "a log scale needs from and to above 0")
        }
        var values: [String] = []
        for i in 0..<steps {
            let f = Double(i) / Double(steps - 1)
            let x =
                scale == "log"
                ? exp(log(from.number) + f * (log(to.number) - log(from.number)))
                : from.number + f * (to.number - from.number)
            let value = Self.format(i == 0 ? from.number : i == steps - 1 ? to.number : x) + from.unit
            guard !values.contains(value) else {
                throw reader.error(
                    at: node, "the range gives '\(value)' twice at 6 significant digits; use fewer steps")
            }
            values.append(value)
        }
        return (values, [node])
    }

    /// `8MB` → (8, "MB"); `24/d` → (24, "/d"); `0.5` → (0.5, "").
    static func quantity(_ text: String, _ reader: NodeReader, _ node: Node) throws(ScenarioError) -> (
        number: Double, unit: String
    ) {
        let digits = text.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        guard let number = Double(digits), number.isFinite else {
            throw reader.error(
                at: node,
                "a range's bounds must be numbers with an optional unit, such as 8MB, 24/d or 0.5, not '\(text)'")
        }
        return (number, String(text.dropFirst(digits.count)))
    }

    /// Six significant digits, without trailing zeros: 16, 0.25, 181.019.
    static func format(_ x: Double) -> String {
        var text = String(format: "%.6g", x)
        if text.contains("e") { text = String(format: "%.6f", x) }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// One step of a path: a mapping's key, or a list's item by position.
    enum PathStep: Hashable {
        case key(String)
        case item(Int)
    }

    /// Resolves `path` in the base scenario; the last key may be missing from its mapping.
    static func resolve(_ path: String, in root: Node, reader: NodeReader, at pathNode: Node) throws(ScenarioError)
        -> [PathStep]
    {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw reader.error(
                at: pathNode,
                "path '\(path)' has an empty step; steps are keys, list numbers (from 1) or names, joined by dots")
        }
        var steps: [PathStep] = []
        var node: Node? = root
        var walked = "the scenario"
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            switch node {
            case .mapping(let mapping)?:
                let keys = Array(mapping.keys.compactMap(\.string))
                steps.append(.key(part))
                node = mapping[part]
                if node == nil && !last {
                    throw reader.error(
                        at: pathNode,
                        "path '\(path)' does not resolve: \(walked) has no '\(part)'"
                            + NameSuggestion.hint(for: part, among: keys, noneText: "it has no keys"))
                }
            case .sequence(let sequence)?:
                let items = Array(sequence)
                if let number = Int(part) {
                    guard (1...max(1, items.count)).contains(number), number <= items.count else {
                        throw reader.error(
                            at: pathNode,
                            "path '\(path)' does not resolve: \(walked) has \(items.count) "
                                + "item\(items.count == 1 ? "" : "s"), numbered from 1"
                        )
                    }
                    steps.append(.item(number - 1))
                    node = items[number - 1]
                } else {
                    var found: [Int] = []
                    for field in ["id", "kind", "name"] where found.isEmpty {
                        found = items.indices.filter { items[$0].mapping?[field]?.string == part }
                    }
                    guard found.count == 1 else {
                        throw reader.error(
                            at: pathNode,
                            found.isEmpty
                                ? """
                                path '\(path)' does not resolve: no item of \(walked) has id, kind or name \
                                '\(part)'
                                """
                                : """
                                path '\(path)' is ambiguous: \(found.count) items of \(walked) are '\(part)'; use \
                                the item's number (from 1) instead
                                """
                        )
                    }
                    steps.append(.item(found[0]))
                    node = items[found[0]]
                }
            default:
                throw reader.error(
                    at: pathNode, "path '\(path)' does not resolve: \(walked) is a single value, with no '\(part)'")
            }
            walked = "'" + parts[...i].joined(separator: ".") + "'"
        }
        if case .mapping? = node {
            throw reader.error(
                at: pathNode,
                "path '\(path)' is a mapping; an axis varies a single value, such as "
                    + "\(path).\((node?.mapping?.keys.first?.string) ?? "key")"
            )
        }
        if case .sequence? = node {
            throw reader.error(at: pathNode, "path '\(path)' is a list; an axis varies a single value")
        }
        return steps
    }

    /// `node` with the value at `steps` replaced by (or, for a missing last key, set to) `value`.
    static func replacing(_ steps: ArraySlice<PathStep>, in node: Node, with value: String) -> Node {
        guard let step = steps.first else { return .scalar(Node.Scalar(value, .implicit, .any, node.mark)) }
        switch (step, node) {
        case (.key(let key), .mapping(var mapping)):
            let child = mapping[key] ?? .scalar(Node.Scalar("", .implicit, .any, node.mark))
            mapping[key] = replacing(steps.dropFirst(), in: child, with: value)
            return .mapping(mapping)
        case (.item(let i), .sequence(var sequence)):
            var items = Array(sequence)
            items[i] = replacing(steps.dropFirst(), in: items[i], with: value)
            sequence.replaceSubrange(sequence.startIndex..<sequence.endIndex, with: items)
            return .sequence(sequence)
        default:
            return node
        }
    }
}
