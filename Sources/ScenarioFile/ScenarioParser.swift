import Foundation
import ODRCore
import Quantities
import Simulation
import TextInput
import Yams

/// Parses scenario files (`.scn`, YAML; see docs/scenario-format.md) into a validated ``Scenario``.
///
/// Every problem is a ``ScenarioError`` pointing at `FILE:LINE:COLUMN` of the offending node,
/// with a one-line reason and, for misspelt names, a "did you mean" hint. Unknown keys are
/// errors at every level. The parser reads only the file it is given and writes nothing.
///
/// ```swift
/// let parser = ScenarioParser(knownPolicies: ["apple", "lru"])
/// let scenario = try parser.parseFile(atPath: "Scenarios/game.scn")
/// ```
public struct ScenarioParser: Sendable {
    /// The purge policies a scenario may name, from the policy registry (which this module
    /// does not import, so the registry stays the one place that knows them).
    public let knownPolicies: [String]
    /// The options each policy declares (``PolicyOption``), by policy name, for
    /// `policy_options:`; a policy not listed takes none.
    public let policyOptions: [String: [PolicyOption]]
    /// The policies that read the future (offline bounds such as `belady`): a run's policy,
    /// never an app's `strategy` (an app's code cannot see what comes).
    public let offlinePolicies: Set<String>

    public init(
        knownPolicies: [String], policyOptions: [String: [PolicyOption]] = [:], offlinePolicies: Set<String> = []
    ) {
        self.knownPolicies = knownPolicies
        self.policyOptions = policyOptions
        self.offlinePolicies = offlinePolicies
    }

    /// `apps[].cache_quota`, the older spelling of this policy option per app.
    static let cacheQuota = (policy: "android-quota", key: "cache_quota")

    /// Reads and parses the file at `path`; a missing or unreadable file is a ``ScenarioError``
    /// at line 1, column 1.
    public func parseFile(atPath path: String) throws(ScenarioError) -> ScenarioDocument {
        try parse(try SourceText.read(path), fileName: path)
    }

    /// Parses the text of a scenario; `fileName` is what errors name, and its last path
    /// component without extension is the default scenario `name`.
    public func parse(_ text: String, fileName: String) throws(ScenarioError) -> ScenarioDocument {
        let root = try SourceText.compose(text, fileName: fileName)
        guard let root else {
            throw ScenarioError(
                file: fileName, line: 1, column: 1,
                message: "the file is empty; a scenario needs at least duration and device")
        }
        return try parse(root: root, fileName: fileName, text: text)
    }

    /// Parses a composed scenario whose nodes carry their places in `fileName` (a study's
    /// point: the base scenario's nodes with an axis value put in), so that errors and
    /// warnings name real lines. `text` is what ``ScenarioDocument/sourceDigest`` is taken of.
    func parse(root: Node, fileName: String, text: String) throws(ScenarioError) -> ScenarioDocument {
        let reader = NodeReader(file: fileName)
        guard case .mapping = root else {
            throw reader.error(
                at: root,
                """
                a scenario must be a mapping of keys such as duration, device, apps and events, not \
                \(NodeReader.describe(root))
                """
            )
        }
        let top = try reader.mapping(root, "the scenario", section: .topLevel)

        let name =
            try top.value("name").map { node throws(ScenarioError) in try reader.name(node, "name") }
            ?? Self.defaultName(fileName: fileName)
        let description =
            try top.value("description").map { node throws(ScenarioError) in try reader.text(node, "description") }
            ?? ""
        let seed =
            try top.value("seed").map { node throws(ScenarioError) in
                try reader.integer(node, "seed", as: UInt64.self, atLeast: 0)
            } ?? 0
        let duration = try reader.duration(try top.required("duration"), "duration")
        let platform =
            try top.value("platform").map { node throws(ScenarioError) in try PlatformReader(reader: reader).read(node)
            } ?? .ios17
        let policies =
            try top.value("policies").map { node throws(ScenarioError) in try readPolicies(node, reader) } ?? ["apple"]
        let replications =
            try top.value("replications").map { node throws(ScenarioError) in
                try reader.integer(
                    node, "replications", as: Int.self, atLeast: 1, atMost: ModelLimits.replications,
                    because: " (each replication is a run per policy, kept in memory until the report is written)")
            } ?? 1
        let sample = try top.value("sample").map { node throws(ScenarioError) in
            try readSample(node, reader, duration: duration)
        }
        let device = try readDevice(try top.required("device"), reader, platform: platform)
        let network =
            try top.value("network").map { node throws(ScenarioError) in try NetworkReader(reader: reader).read(node) }
            ?? [NetworkPhase(at: 0, bandwidth: 40e6, kind: .wifi)]
        let (apps, cacheQuotas, resources) =
            try top.value("apps").map { node throws(ScenarioError) in
                try readApps(node, platform, seed, reader, freeSpace: device.capacity - device.used)
            } ?? ([], [], [])
        let optionsReader = PolicyOptionsReader(
            reader: reader, declarations: policyOptions, knownPolicies: knownPolicies,
            appIDs: apps.map(\.id))
        var options =
            try top.value("policy_options").map { node throws(ScenarioError) in try optionsReader.read(node) } ?? [:]
        for (app, node) in cacheQuotas {
            let (policy, key) = Self.cacheQuota
            let declared =
                policyOptions[policy]?.first { $0.key == key }
                ?? PolicyOption(key, .size, scope: .app, summary: "")
            guard options[policy]?.value(key, app: app) == nil else {
                throw reader.error(
                    at: node, "app '\(app)' has cache_quota here and in policy_options.\(policy); give it once")
            }
            options[policy, default: PolicyOptions()].apps[app, default: [:]][key] = try optionsReader.value(
                node, declared, policy: policy)
        }

        var events: [ScenarioEvent] = []
        var eventLocations: [String] = []
        var eventReader = EventReader(reader: reader, apps: apps)
        if let node = top.value("events") {
            for item in try reader.sequence(node, "events", of: "events such as {at: 0, app: game, install: true}") {
                events.append(try eventReader.read(item))
                let mark = item.mark
                eventLocations.append("\(fileName):\(mark?.line ?? 1):\(mark?.column ?? 1)")
            }
        }

        let generators =
            try top.value("workload").map { node throws(ScenarioError) in
                try WorkloadReader(reader: reader, apps: apps).read(node)
            } ?? []
        // Telemetry: each trace file's rows are events, merged into the script in time order
        // (the script's first at equal times). Its text joins the digest: it is input.
        var digestText = text
        if let node = top.value("workload") {
            for fileNode in try WorkloadReader(reader: reader, apps: apps).traceFiles(node) {
                let relative = try reader.text(fileNode, "file")
                let directory = (fileName as NSString).deletingLastPathComponent
                let path = relative.hasPrefix("/") || directory.isEmpty ? relative : directory + "/" + relative
                let traceText = try SourceText.read(path, at: (reader, fileNode))
                let rows = try TelemetryReader.read(traceText, fileName: path, into: &eventReader)
                var merged: [(ScenarioEvent, String)] = []
                merged.reserveCapacity(events.count + rows.count)
                var i = 0
                for row in rows {
                    while i < events.count, events[i].time <= row.0.time {
                        merged.append((events[i], eventLocations[i]))
                        i += 1
                    }
                    merged.append(row)
                }
                merged += zip(events[i...], eventLocations[i...]).map { ($0, $1) }
                events = merged.map(\.0)
                eventLocations = merged.map(\.1)
                digestText += "\n" + traceText
            }
        }

        var scenario = Scenario(
            seed: seed, duration: duration, platform: platform, device: device, network: network, apps: apps,
            events: events, requestLabels: eventReader.labels, generators: generators)
        if let node = top.value("system_policy") {
            scenario.systemPolicy = try readSystemPolicy(node, scenario, reader)
        }
        return ScenarioDocument(
            scenario: scenario, name: name, description: description, policies: policies,
            policyOptions: options, replications: replications, sampleInterval: sample,
            sourceDigest: SourceDigest.of(digestText), eventLocations: eventLocations, resources: resources)
    }

    /// `system_policy`: where apps mix platforms, the registered, online policy the system
    /// purges the other apps' packs under.
    private func readSystemPolicy(_ node: Node, _ scenario: Scenario, _ reader: NodeReader) throws(ScenarioError)
        -> String
    {
        guard scenario.someAppEvicts && scenario.systemPurges else {
            let here =
                scenario.someAppEvicts
                ? "every app removes its own packs" : "the system purges every app's packs under the run's policy"
            throw reader.error(
                at: node,
                """
                system_policy applies where some apps' packs are purged by the system and others are removed by \
                the apps (an app with its own `platform`); here \(here)
                """
            )
        }
        return try reader.deployablePolicy(
            node, key: "system_policy", known: knownPolicies, offline: offlinePolicies, who: "the system")
    }

    /// `game` for `Scenarios/game.scn`.
    static func defaultName(fileName: String) -> String {
        // Shown as odr-sim shows a name's bytes that are not UTF-8 (`\xFF`): it is written into outputs.
        let base = PathBytes.shown(
            fileName.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? fileName)
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }

    /// A non-empty list of known, distinct policy names (also a study's `policies`).
    func readPolicies(_ node: Node, _ reader: NodeReader) throws(ScenarioError) -> [String] {
        let items = try reader.sequence(node, "policies", of: "policy names such as [apple, lru]")
        guard !items.isEmpty else {
            throw reader.error(at: node, "policies must name at least one policy, such as [apple]")
        }
        var policies: [String] = []
        for item in items {
            let policy = try reader.name(item, "policy")
            guard knownPolicies.contains(policy) else {
                throw reader.error(
                    at: item,
                    "unknown policy '\(policy)'"
                        + NameSuggestion.hint(
                            for: policy, among: knownPolicies, noneText: "no policies are registered"))
            }
            guard !policies.contains(policy) else { throw reader.error(at: item, "policy '\(policy)' is listed twice") }
            policies.append(policy)
        }
        return policies
    }

    private func readSample(_ node: Node, _ reader: NodeReader, duration: Double) throws(ScenarioError) -> Double {
        // A malformed or negative duration gets the duration reader's own message.
        let text = try reader.scalar(node, "sample")
        _ = try reader.duration(node, "sample")
        switch Result(catching: { () throws(SampleInterval.Problem) in
            try SampleInterval.parse(text, duration: duration)
        }) {
        case .success(let interval):
            return interval
        case .failure(.notPositive):
            throw reader.error(at: node, "sample must be longer than 0")
        case .failure(.tooMany(let samples)):
            throw reader.error(
                at: node,
                """
                sample \(text) takes \(SampleInterval.describe(samples)) samples over the duration; \
                at most \(ModelLimits.samples) per run (their rows are kept until the report is written)
                """)
        }
    }

    private func readDevice(_ node: Node, _ reader: NodeReader, platform: PlatformProfile) throws(ScenarioError)
        -> DeviceSpec
    {
        let fields = try reader.mapping(node, "device", section: .device)
        let capacity = try reader.size(try fields.required("capacity"), "capacity")
        let used =
            try fields.value("used").map { node throws(ScenarioError) -> Int64 in
                let used = try reader.size(node, "used")
                guard used <= capacity else {
                    throw reader.error(
                        at: node,
                        """
                        used (\(ByteFormatting.describe(used))) is more than the capacity \
                        (\(ByteFormatting.describe(capacity)))
                        """
                    )
                }
                return used
            } ?? 0
        let onSpaceExhausted =
            try fields.value("on_space_exhausted").map { node throws(ScenarioError) in
                SpaceExhaustionAction(
                    rawValue: try reader.choice(
                        node, "on_space_exhausted", among: SpaceExhaustionAction.allCases.map(\.rawValue)))!
            } ?? .failRequest
        let wifiOnly =
            try fields.value("wifi_only").map { node throws(ScenarioError) in
                guard platform.cellularConfirmationBytes != nil else {
                    throw reader.error(
                        at: node,
                        """
                        wifi_only is the Play Store's setting (play-asset-delivery); on \(platform.name) the app's \
                        `cellular` decides whether downloads use cellular data
                        """
                    )
                }
                return try reader.bool(node, "wifi_only")
            } ?? false
        return DeviceSpec(capacity: capacity, used: used, onSpaceExhausted: onSpaceExhausted, wifiOnly: wifiOnly)
    }

    /// The apps, the `cache_quota` nodes of those that have one, their resources, and their
    /// own eviction strategies.
    private func readApps(
        _ node: Node, _ platform: PlatformProfile, _ seed: UInt64, _ reader: NodeReader, freeSpace: Int64
    )
        throws(ScenarioError) -> ([AppSpec], [(app: String, node: Node)], [[Resource]])
    {
        var apps: [AppSpec] = []
        var cacheQuotas: [(app: String, node: Node)] = []
        var resources: [[Resource]] = []
        var idNodes: [String: Node] = [:]
        for item in try reader.sequence(node, "apps", of: "apps such as {id: game, resources: [...]}") {
            // The app's own platform, where it names one: its limits, category names and who
            // evicts are read against it.
            var own: PlatformProfile?
            if let platformNode = item.mapping?["platform"] {
                let profile = try PlatformReader(reader: reader).read(platformNode)
                try PlatformReader.checkSameSystem(profile, device: platform, at: platformNode, reader)
                own = profile
            }
            let profile = own ?? platform
            var appReader = AppReader(reader: reader, profile: profile, seed: seed)
            appReader.freeSpace = freeSpace
            appReader.knownPolicies = knownPolicies
            appReader.offlinePolicies = offlinePolicies
            var (app, idNode, cacheQuota, list) = try appReader.read(item)
            app.platform = own
            resources.append(list)
            if let cacheQuota { cacheQuotas.append((app.id, cacheQuota)) }
            if let earlier = idNodes[app.id] {
                let line = earlier.mark.map { " (line \($0.line))" } ?? ""
                throw reader.error(at: idNode, "app id '\(app.id)' is already used by another app\(line)")
            }
            idNodes[app.id] = idNode
            apps.append(app)
        }
        return (apps, cacheQuotas, resources)
    }
}
