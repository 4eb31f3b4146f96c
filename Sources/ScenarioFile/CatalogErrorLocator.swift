import ODRCore
import Yams

/// Finds the most specific node of an app's entry for a ``CatalogError``: the resource that
/// crosses a limit, the resource listed twice, the tag settings entry concerned; failing that,
/// the app's `resources` key.
///
/// The catalog reports the offending pack or tag by name only, so this replays its grouping
/// (packs by exact tag set, tags numbered by first appearance) over the resources as written.
struct CatalogErrorLocator {
    /// A resource as read, with the nodes that messages can point at.
    struct ResourceEntry {
        let resource: Resource
        let node: Node
        let nameNode: Node
        let sizeNode: Node
        let tagsNode: Node
    }

    let resources: [ResourceEntry]
    let tagSettings: [String: TagSettings]
    /// Key nodes of the `tags:` mapping, by tag name.
    let tagKeyNodes: [String: Node]
    /// Value nodes of `preservation:` entries, by tag name.
    let preservationNodes: [String: Node]
    /// The app's `resources` key, or the app itself when it has none.
    let fallback: Node

    func node(for error: CatalogError) -> Node {
        locate(error) ?? fallback
    }

    private func locate(_ error: CatalogError) -> Node? {
        switch error {
        case .noTags(let name):
            return resources.first { $0.resource.name == name }?.tagsNode
        case .duplicateResource(let name):
            return resources.filter { $0.resource.name == name }.dropFirst().first?.nameNode
        case .negativeSize(let name, _), .totalTooLarge(let name):
            return resources.first { $0.resource.name == name }?.sizeNode
        case .unknownTag(let tag):
            return tagKeyNodes[tag]
        case .invalidPreservation(let tag, _):
            return preservationNodes[tag] ?? tagKeyNodes[tag]
        case .packTooLarge(let pack, _, let limit, _):
            let packs = packNames()
            return firstCrossing(limit) { packs[$0] == pack }
        case .tagTooLarge(let tag, _, let limit, _):
            return firstCrossing(limit) { resources[$0].resource.tags.contains(tag) }
        case .tooManyPacks(_, let limit, _):
            return resourceFormingPack(number: limit)
        case .initialInstallTooLarge(_, let limit, _):
            return firstCrossing(limit) { category(of: $0) == .initialInstall }
        case .initialAndPrefetchTooLarge(_, let limit, _):
            return firstCrossing(limit) { category(of: $0) != .onDemand }
        case .hostedTooLarge(_, let limit, _):
            return firstCrossing(limit) { _ in true }
        case .prefetchAndOnDemandTooLarge(_, let limit, _):
            return firstCrossing(limit) { category(of: $0) != .initialInstall }
        }
    }

    /// The resource at which the running total of the selected resources first exceeds `limit`.
    private func firstCrossing(_ limit: Int64, where selected: (Int) -> Bool) -> Node? {
        var total: Int64 = 0
        for index in resources.indices where selected(index) {
            let (sum, overflow) = total.addingReportingOverflow(resources[index].resource.size)
            if overflow || sum > limit { return resources[index].node }
            total = sum
        }
        return nil
    }

    /// The name of each resource's pack, as ``Catalog`` names packs: its distinct tags ordered
    /// by first appearance in the catalog, joined by `+`.
    private func packNames() -> [String] {
        var order: [String: Int] = [:]
        for entry in resources {
            for tag in entry.resource.tags where order[tag] == nil { order[tag] = order.count }
        }
        return resources.map { entry in
            Set(entry.resource.tags).sorted { order[$0]! < order[$1]! }.joined(separator: "+")
        }
    }

    /// The resource that brings a new tag set into the catalog for the `number`-th time (from 0).
    private func resourceFormingPack(number: Int) -> Node? {
        var seen = Set<Set<String>>()
        for entry in resources where seen.insert(Set(entry.resource.tags)).inserted {
            if seen.count == number + 1 { return entry.node }
        }
        return nil
    }

    /// The category of a resource's pack: the earliest among its tags, as the catalog decides it.
    private func category(of index: Int) -> TagCategory {
        resources[index].resource.tags.map { tagSettings[$0]?.category ?? .onDemand }.min() ?? .onDemand
    }
}
