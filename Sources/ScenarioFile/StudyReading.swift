import Foundation
import Quantities
import TextInput
import Yams

extension StudyParser {
    /// One study file being read, step by step, in the order its errors are found: the base
    /// scenario, the baseline, the axes, the points (the grid's, then the explicit ones), the
    /// baseline point, the objective and limits.
    struct Reading {
        let parser: StudyParser
        let reader: NodeReader
        let fileName: String
        let top: MappingFields

        /// The base scenario: a file beside the study, or inline; read with the study's rules.
        struct Base {
            let file: String
            let text: String
            let node: Node
            let document: ScenarioDocument
            let parser: ScenarioParser
        }

        /// The axes, the place in the base scenario each varies, each value's node, and the
        /// groups of axes that move together (`zip:`), in order of their first axis.
        struct Grid {
            let axes: [Study.Axis]
            let targets: [[PathStep]]
            let valueNodes: [[Node]]
            let groups: [[Int]]
            let node: Node

            /// Points of the grid: a product over groups.
            var count: Int {
                groups.reduce(1) { $0.multipliedReportingOverflow(by: axes[$1[0]].values.count).partialValue }
            }

            /// Refuses a study beyond ``ModelLimits/studyRuns`` runs.
            func checkSize(points: Int, policies: Int, replications: Int, _ reader: NodeReader) throws(ScenarioError) {
                guard points * policies * replications <= ModelLimits.studyRuns else {
                    throw reader.error(
                        at: node,
                        """
                        \(points) points × \(policies) policies × \(replications) replications make more than \
                        \(ModelLimits.studyRuns) runs; split the study
                        """
                    )
                }
            }
        }

        func readBase() throws(ScenarioError) -> Base {
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
                knownPolicies: parser.knownPolicies, policyOptions: parser.policyOptions,
                offlinePolicies: parser.offlinePolicies)
            do {
                let document = try scenarioParser.parse(baseText, fileName: baseFile)
                return Base(file: baseFile, text: baseText, node: baseNode, document: document, parser: scenarioParser)
            } catch {
                // Inline, the serialised text's positions mean nothing to the reader: point at the node.
                if case .mapping = scenarioNode {
                    throw reader.error(at: scenarioNode, "the scenario: \(error.message)")
                }
                throw error
            }
        }

        /// `baseline: NAME`, or `{point: {AXIS: VALUE, …}, policy: NAME}` (its point read once
        /// the points are known); apple or the first policy by default.
        func readBaseline(among policies: [String]) throws(ScenarioError) -> (policy: String, pointNode: Node?) {
            guard let node = top.value("baseline") else {
                return (policies.contains("apple") ? "apple" : policies[0], nil)
            }
            let policyNode: Node
            var pointNode: Node?
            if case .mapping(let mapping) = node {
                guard let policy = mapping["policy"] else {
                    throw reader.error(
                        at: node, "a baseline point names its policy too: {point: {platform: ios17}, policy: apple}")
                }
                if let extra = mapping.keys.first(where: { $0.string != "point" && $0.string != "policy" }) {
                    throw reader.error(
                        at: extra, "a baseline mapping has point and policy only, not '\(extra.string ?? "")'")
                }
                guard let point = mapping["point"] else {
                    throw reader.error(
                        at: node, "a baseline mapping names its point: {point: {platform: ios17}, policy: apple}")
                }
                (policyNode, pointNode) = (policy, point)
            } else {
                policyNode = node
            }
            let baseline = try reader.name(policyNode, pointNode == nil ? "baseline" : "baseline policy")
            guard policies.contains(baseline) else {
                throw reader.error(
                    at: policyNode,
                    "baseline '\(baseline)' is not among the study's policies (\(policies.joined(separator: ", ")))")
            }
            return (baseline, pointNode)
        }

        func readAxes(of base: Base) throws(ScenarioError) -> Grid {
            let axesNode = try top.required("axes")
            let axisNodes = try reader.sequence(
                axesNode, "axes", of: "axes such as {path: device.used, values: [50GB, 60GB]}")
            guard !axisNodes.isEmpty else { throw reader.error(at: axesNode, "a study needs at least one axis") }
            var axes: [Study.Axis] = []
            var targets: [[PathStep]] = []
            var valueNodes: [[Node]] = []
            for node in axisNodes {
                let (axis, steps, nodes) = try readAxis(node, base: base, after: axes, targets: targets)
                axes.append(axis)
                targets.append(steps)
                valueNodes.append(nodes)
            }
            var groups: [[Int]] = []
            for (a, axis) in axes.enumerated() {
                if let zip = axis.zip, let g = groups.firstIndex(where: { axes[$0[0]].zip == zip }) {
                    groups[g].append(a)
                } else {
                    groups.append([a])
                }
            }
            let grid = Grid(axes: axes, targets: targets, valueNodes: valueNodes, groups: groups, node: axesNode)
            guard grid.count <= StudyParser.maximumPoints,
                axes.allSatisfy({ $0.values.count <= StudyParser.maximumPoints })
            else {
                throw reader.error(
                    at: axesNode, "the axes make more than \(StudyParser.maximumPoints) points; split the study")
            }
            return grid
        }

        /// One axis: its name, the place it varies (once in the study), its values.
        private func readAxis(_ node: Node, base: Base, after axes: [Study.Axis], targets: [[PathStep]])
            throws(ScenarioError) -> (Study.Axis, [PathStep], [Node])
        {
            let fields = try reader.mapping(node, "each axis", section: .axis)
            let pathNode = try fields.required("path")
            let path = try reader.text(pathNode, "path")
            let name =
                try fields.value("name").map { n throws(ScenarioError) in try reader.name(n, "axis name") } ?? path
            if axes.contains(where: { $0.name == name }) {
                throw reader.error(
                    at: fields.value("name") ?? pathNode, "two axes are named '\(name)'; give each a distinct name")
            }
            let steps = try StudyParser.resolve(path, in: base.node, reader: reader, at: pathNode)
            if let other = targets.firstIndex(of: steps) {
                throw reader.error(at: pathNode, "axis '\(name)' varies the same place as axis '\(axes[other].name)'")
            }
            let valuesNode = try fields.required("values")
            let (values, nodes) = try parser.readValues(valuesNode, axis: name, reader)
            var axis = Study.Axis(name: name, path: path, values: values)
            axis.valueLocations = nodes.map(location)
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
            return (axis, steps, nodes)
        }

        /// `FILE:LINE:COLUMN` of a node of the study.
        func location(_ node: Node) -> String {
            let e = reader.error(at: node, "")
            return "\(InputText.oneLine(fileName)):\(e.line):\(e.column)"
        }

        /// Explicit points beside the grid: {AXIS: VALUE, …}, an axis left out keeping the base
        /// scenario's own value (a budget axis has no meaning for an ODR point).
        func readExplicitPoints(_ grid: Grid) throws(ScenarioError) -> [(values: [String], node: Node)] {
            guard let node = top.value("points") else { return [] }
            var explicit: [(values: [String], node: Node)] = []
            for item in try reader.sequence(node, "points", of: "points such as {platform: ios17}") {
                guard case .mapping(let mapping) = item else {
                    throw reader.error(
                        at: item, "each point is a mapping of axis names to values, such as {platform: ios17}")
                }
                explicit.append((try values(of: mapping, item, grid), item))
            }
            return explicit
        }

        /// A point's value of each axis ("" for one it leaves out).
        func values(of mapping: Node.Mapping, _ node: Node, _ grid: Grid) throws(ScenarioError) -> [String] {
            var values = Array(repeating: "", count: grid.axes.count)
            for (key, value) in mapping {
                guard let name = key.string, let a = grid.axes.firstIndex(where: { $0.name == name }) else {
                    throw reader.error(
                        at: key,
                        "no axis is named '\(key.string ?? "")'"
                            + NameSuggestion.hint(for: key.string ?? "", among: grid.axes.map(\.name)))
                }
                values[a] = try reader.scalar(value, "the value of axis '\(name)'")
            }
            guard values.contains(where: { !$0.isEmpty }) else {
                throw reader.error(at: node, "a point names at least one axis")
            }
            return values
        }

        /// Every point's scenario: the grid's, the first axis varying slowest, then the explicit
        /// ones; a value (or a combination) the scenario refuses is named at its place.
        func readPoints(_ grid: Grid, explicit: [(values: [String], node: Node)], base: Base) throws(ScenarioError)
            -> [Study.Point]
        {
            let axes = grid.axes
            var points: [Study.Point] = []
            for index in 0..<grid.count {
                var rest = index
                var values = Array(repeating: "", count: axes.count)
                for group in grid.groups.reversed() {
                    let size = axes[group[0]].values.count
                    for a in group { values[a] = axes[a].values[rest % size] }
                    rest /= size
                }
                do {
                    points.append(Study.Point(values: values, document: try scenario(values, grid, base)))
                } catch {
                    // One axis: the value is to blame. Several: the combination is.
                    if axes.count == 1 {
                        let nodes = grid.valueNodes[0]
                        let v = axes[0].values.firstIndex(of: values[0]) ?? 0
                        throw reader.error(
                            at: nodes[min(v, nodes.count - 1)],
                            "axis '\(axes[0].name)' value '\(values[0])': \(error.message)")
                    }
                    let label = zip(axes, values).map { "\($0.name)=\($1)" }.joined(separator: ", ")
                    throw reader.error(at: grid.node, "the point \(label): \(error.message)")
                }
            }
            for (values, node) in explicit {
                guard !points.contains(where: { $0.values == values }) else {
                    throw reader.error(at: node, "the point is already in the study")
                }
                do {
                    points.append(Study.Point(values: values, document: try scenario(values, grid, base)))
                } catch {
                    throw reader.error(at: node, "the point: \(error.message)")
                }
            }
            return points
        }

        /// The base scenario with a point's values in place. The nodes keep their marks: a
        /// point's errors and warnings name the base scenario's real lines (an axis value, the
        /// line of the value it replaces). The digest is of the point's text, as each point's
        /// scenario_hash has always been.
        private func scenario(_ values: [String], _ grid: Grid, _ base: Base) throws(ScenarioError) -> ScenarioDocument
        {
            var node = base.node
            for (steps, value) in zip(grid.targets, values) where !value.isEmpty {
                node = StudyParser.replacing(steps[...], in: node, with: value)
            }
            let text: String
            do { text = try Yams.serialize(node: node) } catch {
                throw reader.error(at: grid.node, "cannot write the point's scenario: \(error)")
            }
            return try base.parser.parse(root: node, fileName: base.file, text: text)
        }

        /// The baseline point's place among the points.
        func readBaselinePoint(_ node: Node, _ grid: Grid, points: [Study.Point]) throws(ScenarioError) -> Int {
            guard case .mapping(let mapping) = node else {
                throw reader.error(at: node, "the baseline point is a mapping such as {platform: ios17}")
            }
            let values = try values(of: mapping, node, grid)
            guard let index = points.firstIndex(where: { $0.values == values }) else {
                throw reader.error(
                    at: node,
                    "the baseline point is not one of the study's points (its axes' values, or one of `points`)")
            }
            return index
        }

        /// `objective:` and `limits:` as written, each with its place.
        func readObjective(into study: inout Study) throws(ScenarioError) {
            func written(_ node: Node, _ what: String) throws(ScenarioError) -> Study.WrittenText {
                Study.WrittenText(text: try reader.text(node, what), location: location(node))
            }
            study.objective = try top.value("objective").map { n throws(ScenarioError) in try written(n, "objective") }
            if let node = top.value("limits") {
                study.limits = try reader.sequence(
                    node, "limits", of: "limits such as [failed_requests<=baseline, wait_p95_s<=60s]"
                ).map { n throws(ScenarioError) in try written(n, "limit") }
            }
        }
    }
}
