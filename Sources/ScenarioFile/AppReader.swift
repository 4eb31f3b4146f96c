import ODRCore
import Quantities
import Simulation
import Workload
import Yams

/// Reads one entry of `apps:` into an ``AppSpec`` whose catalog is built and validated
/// against the scenario's platform profile.
///
/// ```yaml
/// - id: game
///   cellular: false
///   on_low_disk: release-unused
///   cache_quota: 128MB            # extension: short for policy_options' android-quota cache_quota
///   resources:
///     - {name: level1-map, size: 40MB, tags: [level-1]}
///   tags:
///     level-1: {category: prefetch, order: 1, preservation: 0.5}
/// ```
struct AppReader {
    let reader: NodeReader
    let profile: PlatformProfile
    /// The scenario seed: generated catalogs are the same in every replication.
    let seed: UInt64

    static let categories = ["initial-install", "prefetch", "on-demand"]
    /// Free space on the device at the start, for a budget given as a share of it (`25%`).
    var freeSpace: Int64 = 0
    /// The policies an app's `strategy` may name, and those of them that read the future
    /// (which an app's own code cannot).
    var knownPolicies: [String] = []
    var offlinePolicies: Set<String> = []

    /// The category names a tag may take on this platform: ODR's, which every platform
    /// accepts (so one scenario runs on all), and the platform's own (`essential`, `fast-follow`).
    var categoryNames: [String: String] {
        var names: [String: String] = [:]
        for category in [TagCategory.initialInstall, .prefetch(order: 0), .onDemand] {
            names[category.name] = category.name
            names[profile.family.name(of: category)] = category.name
        }
        return names
    }

    /// The app, the node of its id (for "app id used twice"), and of its `cache_quota`.
    func read(_ node: Node) throws(ScenarioError) -> (
        app: AppSpec, idNode: Node, cacheQuota: Node?, resources: [Resource]
    ) {
        let fields = try reader.mapping(node, "each app", section: .app)
        let idNode = try fields.required("id")
        let id = try reader.name(idNode, "id")
        let cellular =
            try fields.value("cellular").map { node throws(ScenarioError) in try reader.bool(node, "cellular") } ?? true
        let onLowDisk =
            try fields.value("on_low_disk").map { node throws(ScenarioError) in
                LowDiskResponse(
                    rawValue: try reader.choice(node, "on_low_disk", among: LowDiskResponse.allCases.map(\.rawValue)))!
            } ?? .ignore

        var resources =
            try fields.value("resources").map { node throws(ScenarioError) in try readResources(node) } ?? []
        if let generate = fields.value("generate") {
            resources += try readGenerated(generate, app: id)
        }
        var tagSettings: [String: TagSettings] = [:]
        var tagKeyNodes: [String: Node] = [:]
        var preservationNodes: [String: Node] = [:]
        if let tagsNode = fields.value("tags") {
            for (name, keyNode, value) in try reader.namedMapping(tagsNode, "tags") {
                let (settings, preservationNode) = try readTagSettings(value, tag: name)
                tagSettings[name] = settings
                tagKeyNodes[name] = keyNode
                preservationNodes[name] = preservationNode
            }
        }

        let catalog: Catalog
        do {
            catalog = try Catalog(resources: resources.map(\.resource), tagSettings: tagSettings, profile: profile)
        } catch {
            let locator = CatalogErrorLocator(
                resources: resources, tagSettings: tagSettings, tagKeyNodes: tagKeyNodes,
                preservationNodes: preservationNodes, fallback: fields.keyNode("resources") ?? node)
            throw reader.error(at: locator.node(for: error), error.description)
        }
        var app = AppSpec(id: id, catalog: catalog, cellular: cellular, onLowDisk: onLowDisk)
        app.eviction = try readEviction(fields, catalog: catalog, app: id)
        if let node = fields.value("cellular_confirmation") {
            guard profile.cellularConfirmationBytes != nil else {
                throw reader.error(
                    at: node,
                    """
                    cellular_confirmation applies where large downloads on cellular wait for the user \
                    (play-asset-delivery); on \(profile.name) none do
                    """
                )
            }
            app.cellularConfirmationDelay =
                try reader.scalar(node, "cellular_confirmation") == "never"
                ? nil : reader.duration(node, "cellular_confirmation")
        }
        if let node = fields.value("installed_by_play") {
            guard profile.family == .playAssetDelivery else {
                throw reader.error(
                    at: node,
                    """
                    installed_by_play is Play's (REQUIRES_USER_CONFIRMATION for apps not installed through Google \
                    Play); on \(profile.name) every app comes from its store
                    """
                )
            }
            app.installedByPlay = try reader.bool(node, "installed_by_play")
        }
        if let node = fields.value("should_download") {
            guard profile.family == .backgroundAssets else {
                throw reader.error(
                    at: node,
                    "should_download is Background Assets' shouldDownload(_:); on \(profile.name) "
                        + (profile.family == .playAssetDelivery
                            ? "fast-follow packs always download after install (the app cannot decline them)"
                            : "initial-install and prefetch tags always download"))
            }
            let rule = try reader.mapping(node, "should_download", section: .shouldDownload)
            var filter = AutomaticDownloadFilter()
            if let n = rule.value("min_free") { filter.minFreeAfter = try reader.size(n, "min_free") }
            if let n = rule.value("max_size") { filter.maxPackSize = try reader.size(n, "max_size") }
            guard filter.minFreeAfter != nil || filter.maxPackSize != nil else {
                throw reader.error(
                    at: node,
                    """
                    should_download needs min_free (bytes to keep free after a download) or max_size (the largest \
                    pack to download automatically)
                    """
                )
            }
            app.automaticFilter = filter
        }
        return (app, idNode, fields.value("cache_quota"), resources.map(\.resource))
    }

    private func readResources(_ node: Node) throws(ScenarioError) -> [CatalogErrorLocator.ResourceEntry] {
        var entries: [CatalogErrorLocator.ResourceEntry] = []
        var total: Int64 = 0
        for item in try reader.sequence(
            node, "resources", of: "resources such as {name: map, size: 40MB, tags: [level-1]}")
        {
            let fields = try reader.mapping(item, "each resource", section: .resource)
            let nameNode = try fields.required("name")
            let sizeNode = try fields.required("size")
            let tagsNode = try fields.required("tags")
            let name = try reader.name(nameNode, "name")
            let size = try reader.size(sizeNode, "size")
            var tags: [String] = []
            for tagNode in try reader.sequence(tagsNode, "tags", of: "tag names such as [level-1]") {
                tags.append(try reader.name(tagNode, "each tag"))
            }
            // The catalog adds sizes unchecked; a sum past 2^63 bytes would trap rather than fail.
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow else {
                throw reader.error(at: sizeNode, "the resources up to this one total more than \(Int64.max) bytes")
            }
            total = sum
            entries.append(
                .init(
                    resource: Resource(name: name, size: size, tags: tags),
                    node: item, nameNode: nameNode, sizeNode: sizeNode, tagsNode: tagsNode))
        }
        return entries
    }

    /// `generate: {tags: 300, size: {median: 8MB, sigma: 0.7}, prefix: filter-}`: single-tag
    /// resources with lognormal sizes drawn from the scenario seed (an odr-sim extension).
    private func readGenerated(_ node: Node, app: String) throws(ScenarioError) -> [CatalogErrorLocator.ResourceEntry] {
        let fields = try reader.mapping(node, "generate", section: .generate)
        // Each generated tag is a pack of its own: the platform's pack limit bounds the count
        // before anything is generated (a typo of 10000000 would otherwise take minutes).
        let limit = profile.maxPackCount ?? CatalogGenerator.maximumTags
        let count = try reader.integer(
            try fields.required("tags"), "tags", as: Int.self, atLeast: 1, atMost: limit,
            because: profile.maxPackCount == nil
                ? " (odr-sim's limit for a generated catalog)"
                : " (each generated tag is an asset pack, and \(profile.name) allows \(limit) packs per app)")
        let size = try WorkloadReader(reader: reader, apps: []).lognormal(
            try fields.required("size"), "size", ofDurations: false)
        let prefix =
            try fields.value("prefix").map { node throws(ScenarioError) in try reader.name(node, "prefix") } ?? "tag-"
        return CatalogGenerator.resources(count: count, size: size, prefix: prefix, seed: seed, app: app).map {
            .init(resource: $0, node: node, nameNode: node, sizeNode: node, tagsNode: node)
        }
    }

    /// A size (`2GB`) or a share of the device's free space at the start (`25%`).
    /// `budget`, `keep` and `strategy` together: what the app's own code does where its
    /// platform makes eviction the app's (each a located error on a platform where the
    /// system purges).
    private func readEviction(_ fields: MappingFields, catalog: Catalog, app id: String) throws(ScenarioError)
        -> AppEvictionSpec
    {
        var eviction = AppEvictionSpec()
        for key in ["budget", "keep", "strategy"] {
            guard let node = fields.value(key), profile.evictor != .app else { continue }
            let evicting = PlatformProfile.presetNames(where: \.appRemovesPacks)
            throw reader.error(
                at: node,
                """
                \(key) applies where the app removes its own packs (\(evicting)); on \(profile.name) the system \
                purges under the run's policy
                """
            )
        }
        if let node = fields.value("budget") { eviction.budget = try readBudget(node) }
        if let node = fields.value("keep") {
            for tagNode in try reader.sequence(node, "keep", of: "tag names such as [level-1]") {
                let name = try reader.name(tagNode, "each tag")
                guard let tag = catalog.tagID(named: name) else {
                    throw reader.error(
                        at: tagNode,
                        "app '\(id)' has no tag '\(name)' to keep"
                            + NameSuggestion.hint(for: name, among: catalog.tags.map(\.name)))
                }
                eviction.keep.append(tag)
            }
        }
        if let node = fields.value("strategy") { eviction.strategy = try readStrategy(node) }
        return eviction
    }

    /// An app's own strategy: a registered policy that does not read the future.
    private func readStrategy(_ node: Node) throws(ScenarioError) -> String {
        try reader.deployablePolicy(
            node, key: "strategy", known: knownPolicies, offline: offlinePolicies, who: "an app's own code")
    }

    private func readBudget(_ node: Node) throws(ScenarioError) -> Int64 {
        let text = try reader.scalar(node, "budget")
        do {
            return try BudgetSyntax.parse(text).bytes(freeSpace: freeSpace)
        } catch {
            throw reader.error(at: node, error.message(subject: "budget"))
        }
    }

    /// A tag's settings and the node of its preservation value, if given.
    private func readTagSettings(_ node: Node, tag: String) throws(ScenarioError) -> (TagSettings, Node?) {
        let fields = try reader.mapping(node, "the settings of tag '\(tag)'", section: .tagSettings)
        let names = categoryNames
        let categoryName =
            try fields.value("category").map { node throws(ScenarioError) in
                names[
                    try reader.choice(
                        node, "category",
                        among: Self.categories + names.keys.filter { !Self.categories.contains($0) }.sorted())]!
            } ?? "on-demand"
        let category: TagCategory
        switch categoryName {
        case "initial-install":
            category = .initialInstall
        case "prefetch":
            // Without an order, prefetch tags come in the order they first appear in resources.
            let order =
                try fields.value("order").map { node throws(ScenarioError) in
                    try reader.integer(node, "order", as: Int.self, atLeast: 0)
                } ?? 0
            category = .prefetch(order: order)
        default:
            category = .onDemand
        }
        if categoryName != "prefetch", let orderKey = fields.keyNode("order") {
            throw reader.error(at: orderKey, "order applies only to prefetch tags; tag '\(tag)' is \(categoryName)")
        }
        let preservationNode = fields.value("preservation")
        let preservation =
            try preservationNode.map { node throws(ScenarioError) in try reader.fraction(node, "preservation") } ?? 0
        // Background Assets' installationEventTypes: at which installations the tag downloads.
        var events = InstallationEvents.all
        if let node = fields.value("installation_events") {
            guard categoryName != "on-demand" else {
                throw reader.error(
                    at: fields.keyNode("installation_events") ?? node,
                    """
                    installation_events applies only to \(profile.family.name(of: .initialInstall)) and \
                    \(profile.family.name(of: .prefetch(order: 0))) tags; tag '\(tag)' is \
                    \(profile.family.name(of: .onDemand))
                    """
                )
            }
            let items = try reader.sequence(
                node, "installation_events", of: "installation events such as [first-installation, subsequent-update]")
            guard !items.isEmpty else {
                throw reader.error(
                    at: node, "installation_events must name at least one of first-installation, subsequent-update")
            }
            events = []
            for item in items {
                let name = try reader.choice(
                    item, "each installation event", among: InstallationEvents.names.map(\.name))
                events.insert(InstallationEvents.names.first { $0.name == name }!.event)
            }
        }
        return (
            TagSettings(category: category, preservation: preservation, installationEvents: events), preservationNode
        )
    }
}
