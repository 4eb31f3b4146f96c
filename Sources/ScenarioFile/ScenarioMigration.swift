import ODRCore
import TextInput
import Yams

/// Rewrites an On-Demand Resources scenario for a platform where the app owns eviction
/// (`odr-sim migrate`): the same apps, content and workload, with
///
/// - `platform:` the target, and the run's `policies` the app's eviction strategies;
/// - each tag's category under the target's name (initial-install → essential or
///   install-time, prefetch → prefetch or fast-follow, on-demand → onDemand or on-demand).
///   Packs are unchanged: both platforms pack content as ODR does, one pack per exact tag set;
/// - each app's `budget`, when one is given;
/// - what has no counterpart dropped (`on_low_disk`, `cache_quota`: no low-disk warning is
///   posted where the system never purges) or kept and said (`preservation`, read only by
///   strategies that use it), each in the header's notes.
///
/// With ``app``, only that app moves (`apps[].platform`, its own budget): the device and the
/// other apps stay where they are, purged by the system under `system_policy`, and the
/// run's `policies` are the moved app's strategies. With ``othersUnlimited`` too, the whole
/// device moves but only ``app`` gets the budget: the neighbours become apps of the target
/// without a budget of their own (they remove packs only when a download finds the disk
/// full), the way to put one game on an Android phone (no app of an Apple device can move to
/// Play alone), where giving every app the game's budget would be an artefact (issue 50).
/// The result is named
/// `<name>-<target>`, so that its report never replaces the source's.
///
/// The result is parsed before it is returned, so a catalog over the target's limits is
/// refused here, with the target's reason.
public struct ScenarioMigration {
    public let target: PlatformProfile
    /// Each app's budget as the scenario writes it (`2GB`, `25%`), or nil for none.
    public let budget: String?
    /// The app's eviction strategies (policy names): the migrated scenario's `policies`.
    public let strategies: [String]
    public let knownPolicies: [String]
    /// The policies that read the future (bounds): no system's order.
    public let offlinePolicies: Set<String>
    /// The one app that moves (`--app`); nil: every app, and the device with them.
    public let app: String?
    /// With ``app``: where the other apps go (`--others`).
    public let neighbours: Neighbours
    /// The device and every app move, only ``app`` with the budget (`--others unlimited`).
    var othersUnlimited: Bool { neighbours == .unlimited }
    /// Whether the device's platform changes (every app moves), or only ``app``'s.
    var movesDevice: Bool { app == nil || othersUnlimited }

    public init(
        target: PlatformProfile, budget: String?, strategies: [String], knownPolicies: [String],
        offlinePolicies: Set<String> = [], app: String? = nil, neighbours: Neighbours = .stay
    ) {
        self.target = target
        self.budget = budget
        self.strategies = strategies
        self.knownPolicies = knownPolicies
        self.offlinePolicies = offlinePolicies
        self.app = app
        self.neighbours = neighbours
    }

    /// Where the other apps go when ``app`` moves: they stay on the device's platform, purged
    /// by the system, or the whole device moves and they get no budget.
    public enum Neighbours: String, Sendable, CaseIterable {
        case stay, unlimited
    }

    /// What moved where, for the line that closes a written migration: `game.scn's odyssey on
    /// background-assets`, or `game.scn on play-asset-delivery, the budget for odyssey only`.
    public func moved(_ file: String) -> String {
        othersUnlimited
            ? "\(file) on \(target.name), the budget for \(app ?? "every app") only"
            : "\(file)\(app.map { "'s \($0)" } ?? "") on \(target.name)"
    }

    /// `text` on `platform`: migrated there (the apps evicting with `strategy`) where the app
    /// evicts, else with its platform replaced: what `advise --platform` runs.
    public static func onto(
        _ platform: PlatformProfile, text: String, fileName: String, strategy: String, knownPolicies: [String]
    ) throws(ScenarioError) -> String {
        guard platform.evictor == .app else {
            return try ScenarioRewrite(text: text, fileName: fileName).replacingPlatform(with: platform.name)
        }
        return try ScenarioMigration(
            target: platform, budget: nil, strategies: [strategy], knownPolicies: knownPolicies
        )
        .migrate(text, fileName: fileName)
    }

    /// Reads the file at `path` and migrates it; a missing file is an error at 1:1.
    public func migrateFile(atPath path: String) throws(ScenarioError) -> String {
        try migrate(try SourceText.read(path), fileName: path)
    }

    /// The migrated scenario's text, starting with a comment header of what was mapped.
    public func migrate(_ text: String, fileName: String) throws(ScenarioError) -> String {
        guard let root = try SourceText.compose(text, fileName: fileName), case .mapping(var top) = root else {
            throw ScenarioError(
                file: fileName, line: 1, column: 1,
                message: "the file is not a scenario (a mapping with duration and device)")
        }
        // The source must itself be a valid ODR scenario.
        let source = try ScenarioParser(knownPolicies: knownPolicies, offlinePolicies: offlinePolicies).parse(
            text, fileName: fileName)
        let from = source.scenario.platform
        guard from.family == .onDemandResources else {
            let node = top["platform"] ?? root
            throw NodeReader(file: fileName).error(
                at: node, "the scenario is already on \(from.name); migrate takes an On-Demand Resources scenario")
        }
        if let app, !source.scenario.apps.contains(where: { $0.id == app }) {
            throw ScenarioError(
                file: fileName, line: 1, column: 1, message: "the scenario has no app '\(InputText.oneLine(app))'")
        }
        if app != nil, !othersUnlimited, let system = PlatformReader.operatingSystem(of: target),
            let device = PlatformReader.operatingSystem(of: from), system != device
        {
            let node = top["platform"] ?? root
            throw NodeReader(file: fileName).error(
                at: node,
                """
                one app cannot move to \(target.name) (\(system) devices) on \(from.name)'s device (\(device)); \
                migrate every app (without --app), or the whole device with the budget for this app only \
                (--others unlimited)
                """
            )
        }
        var notes: [String] = []
        var dropped: Set<String> = []
        var preservation = false

        // The system's order for the apps that stay: the source's own, where it is one the
        // system can run (not a bound), else iOS's.
        let system =
            source.policies.contains("apple") || source.policies.isEmpty || offlinePolicies.contains(source.policies[0])
            ? "apple" : source.policies[0]
        var rewritten = Node.Mapping([])
        for (key, value) in top {
            switch key.string {
            case "name": rewritten[key] = Node("\(source.name)-\(target.name)")
            case "platform" where movesDevice: rewritten[key] = Node(target.name)
            case "policies":
                rewritten[key] = .sequence(Node.Sequence(strategies.map { Node($0) }, .implicit, .flow))
                if !movesDevice { rewritten[Node("system_policy")] = Node(system) }
            default: rewritten[key] = value
            }
        }
        if rewritten["name"] == nil { rewritten[Node("name")] = Node("\(source.name)-\(target.name)") }
        if rewritten["policies"] == nil {
            rewritten[Node("policies")] = .sequence(Node.Sequence(strategies.map { Node($0) }, .implicit, .flow))
            if !movesDevice { rewritten[Node("system_policy")] = Node(system) }
        }
        if movesDevice && rewritten["platform"] == nil { rewritten[Node("platform")] = Node(target.name) }
        top = rewritten
        if var options = top["policy_options"]?.mapping {
            for key in options.keys.compactMap(\.string)
            where !strategies.contains(key) && (movesDevice || key != system) { options[key] = nil }
            top["policy_options"] = options.isEmpty ? nil : .mapping(options)
        }
        if case .sequence(var apps)? = top["apps"] {
            for i in apps.indices {
                guard case .mapping(let app) = apps[i] else { continue }
                let budgeted = self.app == nil || app["id"]?.string == self.app
                if !movesDevice && !budgeted { continue }
                var pairs: [(Node, Node)] = []
                for (key, value) in app {
                    switch key.string {
                    case "on_low_disk", "cache_quota":
                        dropped.insert(key.string!)
                        continue
                    case "should_download" where target.family != .backgroundAssets:
                        dropped.insert(key.string!)
                        continue
                    case "tags":
                        let (tags, hasPreservation) = renamingCategories(value)
                        preservation = preservation || hasPreservation
                        pairs.append((key, tags))
                    default:
                        pairs.append((key, value))
                    }
                    if key.string == "id", !movesDevice { pairs.append((Node("platform"), Node(target.name))) }
                    if key.string == "id", budgeted, let budget { pairs.append((Node("budget"), Node(budget))) }
                }
                apps[i] = .mapping(Node.Mapping(pairs, app.tag, app.style, app.mark))
            }
            top["apps"] = .sequence(apps)
        }

        let family = target.family
        notes.append(
            """
            tag categories: initial-install → \(family.name(of: .initialInstall)), prefetch → \
            \(family.name(of: .prefetch(order: 0))), on-demand → \(family.name(of: .onDemand)); packs \
            unchanged (one per exact tag set)
            """
        )
        if let app, othersUnlimited {
            let others = source.scenario.apps.map(\.id).filter { $0 != app }
            notes.append(
                "moved: the whole device to \(target.name); "
                    + (others.isEmpty
                        ? "no other app"
                        : "\(others.joined(separator: ", ")) with no budget (--others unlimited): each removes its "
                            + "packs only when a download finds the disk full"))
        } else if let app {
            let others = source.scenario.apps.map(\.id).filter { $0 != app }
            notes.append(
                "moved: \(app) only, to \(target.name) (apps[].platform); "
                    + (others.isEmpty
                        ? "no other app"
                        : "\(others.joined(separator: ", ")) stay on \(from.name), purged by the system under "
                            + "system_policy: \(system)")
            )
        }
        notes.append(
            "who evicts: \(othersUnlimited ? "every app" : app ?? "the app"), with the strategies of `policies` "
                + "(\(strategies.joined(separator: ", "))); "
                + (target.systemRemovesForOtherData
                    ? "the system too, for other data that would not fit"
                    : movesDevice
                        ? "the system never purges: other data that does not fit is refused (refused_other_bytes)"
                        : "the system never removes its packs, neither for other apps nor for other data"))
        notes.append(
            budget.map { "budget: \($0) \(app.map { "for \($0)" } ?? "per app")" }
                ?? "budget: none (the app removes packs only when a download finds the disk full)")
        if dropped.contains("on_low_disk") {
            notes.append(
                "dropped on_low_disk\(movesDevice ? "" : app.map { " of \($0)" } ?? ""): "
                    + (movesDevice
                        ? "no low-disk warning is posted where the system never purges"
                        : "it removes its own packs, so releasing requests frees nothing the system may purge"))
        }
        if dropped.contains("should_download") {
            notes.append("dropped should_download: only Background Assets asks the app before its automatic downloads")
        }
        if dropped.contains("cache_quota") {
            notes.append("dropped cache_quota: Android's cache-quota purge is the system's; give a budget instead")
        }
        if preservation {
            notes.append(
                """
                kept preservation priorities: neither platform has one; only strategies that read them (apple) use \
                them
                """
            )
        }
        if target.cellularConfirmationBytes != nil {
            notes.append(
                """
                new on \(target.name): downloads over \(ByteFormatting.describe(target.cellularConfirmationBytes!)) \
                on cellular wait for the user's confirmation (apps[].cellular_confirmation)
                """
            )
        }

        let body: String
        do {
            body = try Yams.serialize(node: Self.compact(.mapping(top)))
        } catch {
            throw ScenarioError(
                file: fileName, line: 1, column: 1, message: "cannot write the migrated scenario: \(error)")
        }
        // The file's name as one line: a newline in a path must not start a YAML key.
        let moved =
            (app.map { " --app \(InputText.oneLine($0))" } ?? "") + (othersUnlimited ? " --others unlimited" : "")
        let header =
            ([
                """
                # \(Self.marker) \(InputText.oneLine(fileName))\(moved) --to \(target.name): \(from.name) → \
                \(target.name)
                """
            ] + notes.map { "# - \($0)" })
            .joined(separator: "\n")
        let migrated = header + "\n" + body
        do {
            _ = try ScenarioParser(knownPolicies: knownPolicies, offlinePolicies: offlinePolicies).parse(
                migrated, fileName: fileName)
        } catch {
            throw ScenarioError(file: fileName, line: 1, column: 1, message: "on \(target.name): \(error.message)")
        }
        return migrated
    }

    /// Small mappings and lists of plain values in flow style (`{at: 0, bandwidth: 40Mbps}`),
    /// as scenario files write them; the emitter would otherwise give each value a line.
    static func compact(_ node: Node) -> Node {
        func flat(_ node: Node) -> Bool {
            switch node {
            case .scalar: true
            case .sequence(let items): items.allSatisfy { if case .scalar = $0 { true } else { false } }
            default: false
            }
        }
        switch node {
        case .mapping(let mapping):
            let pairs = mapping.map { ($0.key, compact($0.value)) }
            let style: Node.Mapping.Style =
                mapping.count <= 8 && mapping.values.allSatisfy(flat) ? .flow : mapping.style
            return .mapping(Node.Mapping(pairs, mapping.tag, style, mapping.mark))
        case .sequence(let sequence):
            let items = sequence.map(compact)
            let style: Node.Sequence.Style = flat(node) ? .flow : sequence.style
            return .sequence(Node.Sequence(items, sequence.tag, style, sequence.mark))
        default:
            return node
        }
    }

    /// The first words of every migrated file: what lets a later migrate replace it.
    public static let marker = "odr-sim migrate"

    /// `tags:` with each category under the target's name; whether a tag has a preservation.
    private func renamingCategories(_ node: Node) -> (Node, Bool) {
        guard case .mapping(var tags) = node else { return (node, false) }
        var preservation = false
        for name in tags.keys {
            guard case .mapping(var settings)? = tags[name] else { continue }
            if settings["preservation"] != nil { preservation = true }
            if let category = settings["category"]?.string {
                let canonical: TagCategory? =
                    switch category {
                    case "initial-install": .initialInstall
                    case "prefetch": .prefetch(order: 0)
                    case "on-demand": .onDemand
                    default: nil
                    }
                if let canonical { settings["category"] = Node(target.family.name(of: canonical)) }
            }
            tags[name] = .mapping(settings)
        }
        return (.mapping(tags), preservation)
    }
}
