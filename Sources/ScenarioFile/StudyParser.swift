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
        let top = try MappingFields(node: root, mapping: mapping, section: .study, reader: reader)

        // The base scenario: a file beside the study, or inline.
        let scenarioNode = try top.required("scenario")
        let baseText: String
        let baseFile: String
        let baseNode: Node
        if case .mapping = scenarioNode {
            baseFile = fileName
            baseNode = scenarioNode
            baseText = (try? Yams.serialize(node: scenarioNode)) ?? ""
        } else {
            let relative = try reader.text(scenarioNode, "scenario")
            let directory = (fileName as NSString).deletingLastPathComponent
            baseFile = relative.hasPrefix("/") || directory.isEmpty ? relative : directory + "/" + relative
            baseText = try SourceText.read(baseFile, at: (reader, scenarioNode))
            guard let node = try SourceText.compose(baseText, fileName: baseFile) else {
                throw reader.error(at: scenarioNode, "the scenario file '\(relative)' is empty")
            }
            baseNode = node
        }
        let scenarioParser = ScenarioParser(
            knownPolicies: knownPolicies, policyOptions: policyOptions, offlinePolicies: offlinePolicies)
        let base: ScenarioDocument
        do {
            base = try scenarioParser.parse(baseText, fileName: baseFile)
        } catch {
            // Inline, the serialised text's positions mean nothing to the reader: point at the node.
            if case .mapping = scenarioNode { throw reader.error(at: scenarioNode, "the scenario: \(error.message)") }
            throw error
        }

        let policies =
            try top.value("policies").map { node throws(ScenarioError) in try scenarioParser.readPolicies(node, reader)
            } ?? base.policies
        let replications =
            try top.value("replications").map { node throws(ScenarioError) in
                try reader.integer(node, "replications", as: Int.self, atLeast: 1, atMost: ModelLimits.replications)
            } ?? base.replications
        let baseline: String
        // `baseline: {point: {AXIS: VALUE, …}, policy: NAME}`: read once the points are known.
        let baselinePointNode = top.value("baseline").flatMap { $0.mapping?["point"] }
        if let node = top.value("baseline"), case .mapping = node {
            guard let policyNode = node.mapping!["policy"] else {
                throw reader.error(
                    at: node, "a baseline point names its policy too: {point: {platform: ios17}, policy: apple}")
            }
            if let extra = node.mapping!.keys.first(where: { $0.string != "point" && $0.string != "policy" }) {
                throw reader.error(
                    at: extra, "a baseline mapping has point and policy only, not '\(extra.string ?? "")'")
            }
            guard baselinePointNode != nil else {
                throw reader.error(
                    at: node, "a baseline mapping names its point: {point: {platform: ios17}, policy: apple}")
            }
            baseline = try reader.name(policyNode, "baseline policy")
            guard policies.contains(baseline) else {
                throw reader.error(
                    at: policyNode,
                    "baseline '\(baseline)' is not among the study's policies (\(policies.joined(separator: ", ")))")
            }
        } else if let node = top.value("baseline") {
            baseline = try reader.name(node, "baseline")
            guard policies.contains(baseline) else {
                throw reader.error(
                    at: node,
                    "baseline '\(baseline)' is not among the study's policies (\(policies.joined(separator: ", ")))")
            }
        } else {
            baseline = policies.contains("apple") ? "apple" : policies[0]
        }

        let axesNode = try top.required("axes")
        let axisNodes = try reader.sequence(
            axesNode, "axes", of: "axes such as {path: device.used, values: [50GB, 60GB]}")
        guard !axisNodes.isEmpty else { throw reader.error(at: axesNode, "a study needs at least one axis") }
        var axes: [Study.Axis] = []
        var targets: [[PathStep]] = []
        var valueNodes: [[Node]] = []
        for node in axisNodes {
            let fields = try reader.mapping(node, "each axis", section: .axis)
            let pathNode = try fields.required("path")
            let path = try reader.text(pathNode, "path")
            let name =
                try fields.value("name").map { n throws(ScenarioError) in try reader.name(n, "axis name") } ?? path
            if axes.contains(where: { $0.name == name }) {
                throw reader.error(
                    at: fields.value("name") ?? pathNode, "two axes are named '\(name)'; give each a distinct name")
            }
            let steps = try Self.resolve(path, in: baseNode, reader: reader, at: pathNode)
            if let other = targets.firstIndex(of: steps) {
                throw reader.error(at: pathNode, "axis '\(name)' varies the same place as axis '\(axes[other].name)'")
            }
            let valuesNode = try fields.required("values")
            let (values, nodes) = try readValues(valuesNode, axis: name, reader)
            var axis = Study.Axis(name: name, path: path, values: values)
            axis.valueLocations = nodes.map { node in
                let e = reader.error(at: node, "")
                return "\(InputText.oneLine(fileName)):\(e.line):\(e.column)"
            }
            if let zipNode = fields.value("zip") {
                let group = try reader.name(zipNode, "zip group")
                if let partner = axes.first(where: { $0.zip == group }), partner.values.count != values.count {
                    throw reader.error(
                        at: valuesNode,
                        """
                        axis '\(name)' moves with '\(partner.name)' (zip: \(group)), so it needs \
                        \(partner.values.count) values, as '\(partner.name)' has, not \(values.count)
                        """
                    )
                }
                axis.zip = group
            }
            axes.append(axis)
            targets.append(steps)
            valueNodes.append(nodes)
        }
        // Groups of axes that move together, in order of their first axis: a product over groups.
        var groups: [[Int]] = []
        for (a, axis) in axes.enumerated() {
            if let zip = axis.zip, let g = groups.firstIndex(where: { axes[$0[0]].zip == zip }) {
                groups[g].append(a)
            } else {
                groups.append([a])
            }
        }
        let count = groups.reduce(1) { $0.multipliedReportingOverflow(by: axes[$1[0]].values.count).partialValue }
        guard count <= Self.maximumPoints, axes.allSatisfy({ $0.values.count <= Self.maximumPoints }) else {
            throw reader.error(at: axesNode, "the axes make more than \(Self.maximumPoints) points; split the study")
        }
        guard count * policies.count * replications <= ModelLimits.studyRuns else {
            throw reader.error(
                at: axesNode,
                """
                \(count) points × \(policies.count) policies × \(replications) replications make more than \
                \(ModelLimits.studyRuns) runs; split the study
                """
            )
        }

        // Explicit points beside the grid: {AXIS: VALUE, …}, an axis left out keeping the base
        // scenario's own value (a budget axis has no meaning for an ODR point).
        var explicit: [(values: [String], node: Node)] = []
        if let node = top.value("points") {
            for item in try reader.sequence(node, "points", of: "points such as {platform: ios17}") {
                guard case .mapping(let mapping) = item else {
                    throw reader.error(
                        at: item, "each point is a mapping of axis names to values, such as {platform: ios17}")
                }
                explicit.append((try explicitValues(mapping, item), item))
            }
        }
        func explicitValues(_ mapping: Node.Mapping, _ node: Node) throws(ScenarioError) -> [String] {
            var values = Array(repeating: "", count: axes.count)
            for (key, value) in mapping {
                guard let name = key.string, let a = axes.firstIndex(where: { $0.name == name }) else {
                    throw reader.error(
                        at: key,
                        "no axis is named '\(key.string ?? "")'"
                            + NameSuggestion.hint(for: key.string ?? "", among: axes.map(\.name)))
                }
                values[a] = try reader.scalar(value, "the value of axis '\(name)'")
            }
            guard values.contains(where: { !$0.isEmpty }) else {
                throw reader.error(at: node, "a point names at least one axis")
            }
            return values
        }
        guard (count + explicit.count) * policies.count * replications <= ModelLimits.studyRuns else {
            throw reader.error(
                at: axesNode,
                """
                \(count + explicit.count) points × \(policies.count) policies × \(replications) replications make \
                more than \(ModelLimits.studyRuns) runs; split the study
                """
            )
        }

        func scenario(_ values: [String]) throws(ScenarioError) -> ScenarioDocument {
            var node = baseNode
            for (steps, value) in zip(targets, values) where !value.isEmpty {
                node = Self.replacing(steps[...], in: node, with: value)
            }
            // The nodes keep their marks: a point's errors and warnings name the base
            // scenario's real lines (an axis value, the line of the value it replaces).
            // The digest is of the point's text, as each point's scenario_hash has always been.
            let text: String
            do { text = try Yams.serialize(node: node) } catch {
                throw reader.error(at: axesNode, "cannot write the point's scenario: \(error)")
            }
            return try scenarioParser.parse(root: node, fileName: baseFile, text: text)
        }
        var points: [Study.Point] = []
        for index in 0..<count {
            var rest = index
            var values = Array(repeating: "", count: axes.count)
            for group in groups.reversed() {
                let size = axes[group[0]].values.count
                for a in group { values[a] = axes[a].values[rest % size] }
                rest /= size
            }
            do {
                points.append(Study.Point(values: values, document: try scenario(values)))
            } catch {
                // One axis: the value is to blame. Several: the combination is.
                if axes.count == 1 {
                    let nodes = valueNodes[0]
                    let v = axes[0].values.firstIndex(of: values[0]) ?? 0
                    throw reader.error(
                        at: nodes[min(v, nodes.count - 1)],
                        "axis '\(axes[0].name)' value '\(values[0])': \(error.message)")
                }
                let label = zip(axes, values).map { "\($0.name)=\($1)" }.joined(separator: ", ")
                throw reader.error(at: axesNode, "the point \(label): \(error.message)")
            }
        }
        for (values, node) in explicit {
            guard !points.contains(where: { $0.values == values }) else {
                throw reader.error(at: node, "the point is already in the study")
            }
            do {
                points.append(Study.Point(values: values, document: try scenario(values)))
            } catch {
                throw reader.error(at: node, "the point: \(error.message)")
            }
        }
        var baselinePoint: Int?
        if let node = baselinePointNode {
            guard case .mapping(let mapping) = node else {
                throw reader.error(at: node, "the baseline point is a mapping such as {platform: ios17}")
            }
            let values = try explicitValues(mapping, node)
            guard let index = points.firstIndex(where: { $0.values == values }) else {
                throw reader.error(
                    at: node,
                    "the baseline point is not one of the study's points (its axes' values, or one of `points`)")
            }
            baselinePoint = index
        }
        let name =
            try top.value("name").map { n throws(ScenarioError) in try reader.text(n, "name") }
            ?? ScenarioParser.defaultName(fileName: fileName)
        let description =
            try top.value("description").map { n throws(ScenarioError) in try reader.text(n, "description") } ?? ""
        var study = Study(
            name: name, description: description, axes: axes, points: points, policies: policies,
            replications: replications, baseline: baseline, digest: SourceDigest.of(text + "\n" + baseText))
        study.baseFile = baseFile
        study.baselinePoint = baselinePoint
        func written(_ node: Node, _ what: String) throws(ScenarioError) -> Study.WrittenText {
            let e = reader.error(at: node, "")
            return Study.WrittenText(
                text: try reader.text(node, what), location: "\(InputText.oneLine(fileName)):\(e.line):\(e.column)")
        }
        study.objective = try top.value("objective").map { n throws(ScenarioError) in try written(n, "objective") }
        if let node = top.value("limits") {
            study.limits = try reader.sequence(
                node, "limits", of: "limits such as [failed_requests<=baseline, wait_p95_s<=60s]"
            ).map { n throws(ScenarioError) in try written(n, "limit") }
        }
        return study
    }

    /// A list of values, or a range `{from, to, steps, scale}`; with the node of each value
    /// (a range's values all point at the range).
    private func readValues(_ node: Node, axis: String, _ reader: NodeReader) throws(ScenarioError) -> (
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
