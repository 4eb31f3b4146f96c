import ODRCore
import Quantities
import Simulation
import Workload
import Yams

/// Reads the `workload:` section (an odr-sim extension) into workload generators.
///
/// ```yaml
/// workload:
///   - {kind: sessions, app: game, rate: 3/d, length: {median: 20m, sigma: 0.8},
///      daily_cycle: {amplitude: 0.8, peak: 20h}}
///   - {kind: levels, app: game, tags: [level-1, level-2, level-3], rate: 1/d, prefetch_priority: 0.2}
///   - {kind: popularity, app: filters, rate: 40/d, alpha: 0.9, hold: {median: 5m, sigma: 1}}
///   - {kind: disk, rate: 2/d, size: {median: 300MB, sigma: 1}, cleanup_rate: 1/w, cleanup_fraction: 0.6}
///   - {kind: network, wifi: {mean: 10h, bandwidth: 40Mbps}, cellular: {mean: 2h, bandwidth: 12Mbps},
///      offline: {mean: 30m}}
///   - {kind: updates, app: game, rate: 1/w}
///   - {kind: faults, failures: 2/d, stalls: 1/h, stall: 30s}
/// ```
struct WorkloadReader {
    let reader: NodeReader
    let apps: [AppSpec]
    /// Apps some `sessions` entry launches (read first, so `within: sessions` can be checked).
    var sessionApps = Set<AppIndex>()

    static let kinds: [String: Section] = [
        "sessions": .sessions, "levels": .levels, "popularity": .popularity, "disk": .disk, "network": .networkSpells,
        "updates": .updates, "trace": .trace, "faults": .faults,
    ]

    func read(_ node: Node) throws(ScenarioError) -> [any WorkloadGenerator] {
        var generators: [any WorkloadGenerator] = []
        var this = self
        this.sessionApps = try sessionsApps(node)
        for item in try reader.sequence(
            node, "workload", of: "generators such as {kind: popularity, app: game, rate: 10/d}")
        {
            if item.mapping?["kind"]?.string == "trace" { continue }  // read by ``traceFiles(_:)``
            generators.append(try this.readGenerator(item))
        }
        // Levels played within sessions take their sessions' rate (for the estimate of events).
        for (i, generator) in generators.enumerated() {
            guard var levels = generator as? LevelProgressionGenerator, levels.withinSessions != nil,
                let sessions = generators.lazy.compactMap({ $0 as? SessionsGenerator }).first(where: {
                    $0.app == levels.app
                })
            else { continue }
            levels.withinSessions = sessions.rate
            generators[i] = levels
        }
        return generators
    }

    /// The apps a `sessions` entry launches, for `within: sessions`.
    private func sessionsApps(_ node: Node) throws(ScenarioError) -> Set<AppIndex> {
        var result = Set<AppIndex>()
        guard case .sequence(let items) = node else { return result }
        for item in items {
            guard let mapping = item.mapping, mapping["kind"]?.string == "sessions", let id = mapping["app"]?.string,
                let index = apps.firstIndex(where: { $0.id == id })
            else { continue }
            result.insert(index)
        }
        return result
    }

    /// The `file` nodes of the `{kind: trace, file: …}` entries, in order.
    func traceFiles(_ node: Node) throws(ScenarioError) -> [Node] {
        var files: [Node] = []
        for item in try reader.sequence(
            node, "workload", of: "generators such as {kind: popularity, app: game, rate: 10/d}")
        {
            guard let mapping = item.mapping, mapping["kind"]?.string == "trace" else { continue }
            let fields = try MappingFields(node: item, mapping: mapping, section: .trace, reader: reader)
            files.append(try fields.required("file"))
        }
        return files
    }

    private func readGenerator(_ node: Node) throws(ScenarioError) -> any WorkloadGenerator {
        guard let mapping = node.mapping else {
            throw reader.error(
                at: node, "each workload generator must be a mapping such as {kind: sessions, app: game, rate: 3/d}")
        }
        let kinds = Self.kinds.keys.sorted()
        guard let kindNode = mapping["kind"] else {
            throw reader.error(
                at: node, "workload generator is missing required key 'kind' (one of \(kinds.joined(separator: ", ")))")
        }
        let kind = try reader.choice(kindNode, "kind", among: kinds)
        let fields = try MappingFields(node: node, mapping: mapping, section: Self.kinds[kind]!, reader: reader)
        switch kind {
        case "sessions":
            return SessionsGenerator(
                app: try app(fields), rate: try rate(try fields.required("rate"), "rate"),
                length: try lognormal(try fields.required("length"), "length", ofDurations: true),
                cycle: try fields.value("daily_cycle").map { node throws(ScenarioError) in try dailyCycle(node) })
        case "levels":
            let a = try app(fields)
            // Without a list, every tag of the app in catalog order: a generated catalog's
            // `prefix`1 … `prefix`N, so the levels follow its count.
            let levels =
                try fields.value("tags").map { node throws(ScenarioError) in try tags(node, of: a) }
                ?? apps[a].catalog.tags.indices.map { TagID(rawValue: Int32($0)) }
            let depth =
                try fields.value("prefetch_depth").map { node throws(ScenarioError) in
                    try reader.integer(
                        node, "prefetch_depth", as: Int.self, atLeast: 0, atMost: max(0, levels.count - 1))
                } ?? 1
            var generator = LevelProgressionGenerator(
                app: a, levels: levels, rate: try rate(try fields.required("rate"), "rate"),
                start: try fields.value("start").map { node throws(ScenarioError) in try reader.duration(node, "start")
                } ?? 0,
                prefetchPriority: try fields.value("prefetch_priority").map { node throws(ScenarioError) in
                    try reader.loadingPriority(node, "prefetch_priority")
                } ?? LoadingPriority(0.2)!,
                prefetchDepth: depth)
            // The sessions' rate is set once all are read.
            if try withinSessions(fields, app: a) { generator.withinSessions = 0 }
            return generator
        case "popularity":
            let a = try app(fields)
            let list =
                try fields.value("tags").map { node throws(ScenarioError) in try tags(node, of: a) }
                ?? apps[a].catalog.tags.indices.map { TagID(rawValue: Int32($0)) }
            let alphaNode = try fields.required("alpha")
            let alpha = try number(alphaNode, "alpha", atMost: ModelLimits.zipfAlpha)
            var generator = PopularityGenerator(
                app: a, tags: list, rate: try rate(try fields.required("rate"), "rate"), alpha: alpha,
                hold: try lognormal(try fields.required("hold"), "hold", ofDurations: true),
                cycle: try fields.value("daily_cycle").map { node throws(ScenarioError) in try dailyCycle(node) },
                priority: try fields.value("priority").map { node throws(ScenarioError) in
                    try reader.loadingPriority(node, "priority")
                } ?? .normal)
            generator.withinSessions = try withinSessions(fields, app: a)
            return generator
        case "updates":
            let a = try app(fields)
            let profile = apps[a].catalog.profile
            guard profile.packUpdatesApartFromApp else {
                throw reader.error(
                    at: fields.keyNode("kind") ?? node,
                    """
                    updates publish one pack at a time, which \(profile.name) does not do: a pack changes only with \
                    an app update (Play: \"Update asset packs\"); script {at: …, app: \(apps[a].id), \
                    app-update: true} events instead
                    """
                )
            }
            return UpdatesGenerator(app: a, rate: try rate(try fields.required("rate"), "rate"))
        case "faults":
            let failures = try fields.value("failures").map { node throws(ScenarioError) in try rate(node, "failures") }
            let stalls = try fields.value("stalls").map { node throws(ScenarioError) in try rate(node, "stalls") }
            guard failures != nil || stalls != nil else {
                throw reader.error(at: node, "faults needs failures (a rate such as 2/d), stalls (with stall), or both")
            }
            var stall = 0.0
            if stalls != nil {
                let node = try fields.required("stall")
                stall = try reader.duration(node, "stall")
                guard stall > 0 else {
                    throw reader.error(at: node, "stall must be a duration above zero, such as 30s")
                }
            } else if let node = fields.value("stall") {
                throw reader.error(at: node, "stall is how long each of the stalls lasts; give stalls (a rate) too")
            }
            return FaultsGenerator(failures: failures ?? 0, stalls: stalls ?? 0, stall: stall)
        case "disk":
            return DiskPressureGenerator(
                rate: try rate(try fields.required("rate"), "rate"),
                size: try lognormal(try fields.required("size"), "size", ofDurations: false),
                cleanupRate: try fields.value("cleanup_rate").map { node throws(ScenarioError) in
                    try rate(node, "cleanup_rate")
                } ?? 0,
                cleanupFraction: try fields.value("cleanup_fraction").map { node throws(ScenarioError) in
                    try reader.fraction(node, "cleanup_fraction")
                } ?? 0.5)
        default:
            var spells: [NetworkSpellsGenerator.Spell] = []
            for (key, kind) in [("wifi", LinkKind.wifi), ("cellular", .cellular), ("offline", .wifi)] {
                guard let node = fields.value(key) else { continue }
                spells.append(try spell(node, key, kind: kind, offline: key == "offline"))
            }
            guard !spells.isEmpty else {
                throw reader.error(at: node, "a network workload needs at least one of wifi, cellular, offline")
            }
            return NetworkSpellsGenerator(spells: spells)
        }
    }

    /// Whether the generator says `within: sessions`, which needs a `sessions` generator for its app.
    private func withinSessions(_ fields: MappingFields, app a: AppIndex) throws(ScenarioError) -> Bool {
        guard let within = fields.value("within") else { return false }
        _ = try reader.choice(within, "within", among: ["sessions"])
        guard sessionApps.contains(a) else {
            throw reader.error(
                at: within,
                """
                within: sessions needs a sessions generator for app '\(apps[a].id)' (such as {kind: sessions, app: \
                \(apps[a].id), rate: 3/d, length: {median: 20m, sigma: 0.8}})
                """
            )
        }
        return true
    }

    private func app(_ fields: MappingFields) throws(ScenarioError) -> AppIndex {
        let node = try fields.required("app")
        let id = try reader.name(node, "app")
        guard let index = apps.firstIndex(where: { $0.id == id }) else {
            throw reader.error(
                at: node,
                "unknown app '\(id)'"
                    + NameSuggestion.hint(for: id, among: apps.map(\.id), noneText: "the scenario has no apps"))
        }
        return index
    }

    private func tags(_ node: Node, of app: AppIndex) throws(ScenarioError) -> [TagID] {
        let catalog = apps[app].catalog
        var result: [TagID] = []
        for item in try reader.sequence(node, "tags", of: "tag names such as [level-1, level-2]") {
            let name = try reader.name(item, "each tag")
            guard let id = catalog.tagID(named: name) else {
                throw reader.error(
                    at: item,
                    "app '\(apps[app].id)' has no tag '\(name)'"
                        + NameSuggestion.hint(for: name, among: catalog.tags.map(\.name)))
            }
            result.append(id)
        }
        guard !result.isEmpty else { throw reader.error(at: node, "tags must name at least one tag") }
        return result
    }

    /// `3/d`, `2/h`, `1/w`, `0.5/m`, `10/s`: events per second.
    func rate(_ node: Node, _ subject: String) throws(ScenarioError) -> Double {
        let text = try reader.scalar(node, subject)
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let units: [String: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard parts.count == 2, let count = Double(parts[0].trimmingBlanks()), count >= 0, count.isFinite,
            let unit = units[String(parts[1].trimmingBlanks())]
        else {
            throw reader.error(
                at: node,
                "\(subject) must be a rate such as 3/d, 2/h or 1/w (events per s, m, h, d or w), not '\(text)'")
        }
        guard count / unit <= ModelLimits.eventsPerSecond else {
            throw reader.error(
                at: node, "\(subject) '\(text)' is too high (at most \(Int(ModelLimits.eventsPerSecond))/s)")
        }
        return count / unit
    }

    /// A number in 0 … `maximum`.
    private func number(_ node: Node, _ subject: String, atMost maximum: Double) throws(ScenarioError) -> Double {
        let text = try reader.scalar(node, subject)
        guard let value = Double(text), value.isFinite else {
            throw reader.error(at: node, "\(subject) must be a number, not '\(text)'")
        }
        guard value >= 0 else { throw reader.error(at: node, "\(subject) must be 0 or more, not \(text)") }
        guard value <= maximum else {
            throw reader.error(at: node, "\(subject) must be at most \(Int(maximum)), not \(text)")
        }
        return value
    }

    /// `{median: 20m, sigma: 0.8}`; the median is a duration or a size.
    func lognormal(_ node: Node, _ subject: String, ofDurations: Bool) throws(ScenarioError) -> Lognormal {
        let fields = try reader.mapping(node, subject, section: .lognormal)
        let medianNode = try fields.required("median")
        let median =
            ofDurations ? try reader.duration(medianNode, "median") : Double(try reader.size(medianNode, "median"))
        guard median > 0 else { throw reader.error(at: medianNode, "median must be more than 0") }
        let sigmaNode = try fields.required("sigma")
        let sigma = try number(sigmaNode, "sigma", atMost: ModelLimits.sigma)
        return Lognormal(median: median, sigma: sigma)
    }

    private func dailyCycle(_ node: Node) throws(ScenarioError) -> DailyCycle {
        let fields = try reader.mapping(node, "daily_cycle", section: .dailyCycle)
        return DailyCycle(
            amplitude: try reader.fraction(try fields.required("amplitude"), "amplitude"),
            peak: try reader.duration(try fields.required("peak"), "peak"))
    }

    private func spell(_ node: Node, _ subject: String, kind: LinkKind, offline: Bool) throws(ScenarioError)
        -> NetworkSpellsGenerator.Spell
    {
        let fields = try reader.mapping(node, subject, section: .spell)
        let mean = try reader.duration(try fields.required("mean"), "mean")
        if offline, let key = fields.keyNode("bandwidth") {
            throw reader.error(at: key, "an offline spell has no bandwidth")
        }
        let bandwidth = offline ? 0 : try reader.bandwidth(try fields.required("bandwidth"), "bandwidth")
        return .init(bandwidth: bandwidth, kind: kind, mean: mean)
    }
}
