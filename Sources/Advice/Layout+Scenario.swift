import ODRCore
import Simulation

extension Layout {
    /// `scenario` with app `app`'s content grouped as this layout groups `resources` (the
    /// app's resources as written), and the layout's budget where it sets one: the scenario
    /// one candidate runs, made from typed values (no scenario text is written or read).
    ///
    /// Requests, `preserve` events and workload generators keep meaning the same content, as a
    /// regrouped catalog keeps every tag's number (``ODRCore/Catalog/regrouped(_:newTags:)``);
    /// the tags a layout adds are never requested. An update of a pack becomes an update of
    /// the pack that now holds that pack's first resource.
    /// - Throws: ``ODRCore/CatalogError`` when the new packs break a limit of the platform.
    public func applied(to scenario: Scenario, app: AppIndex, resources: [Resource]) throws(CatalogError) -> Scenario {
        let (laid, newTags) = self.resources(from: resources)
        let written = scenario.apps[app].catalog
        let catalog = try written.regrouped(laid, newTags: newTags)
        var packOfResource: [String: Int32] = [:]
        for (p, pack) in catalog.packs.enumerated() {
            for resource in pack.resources { packOfResource[resource] = Int32(p) }
        }
        var result = scenario
        result.apps[app].catalog = catalog
        if let budget { result.apps[app].eviction.budget = budget }
        for i in result.events.indices {
            guard case .update(let a, let pack) = result.events[i].action, a == app,
                let moved = packOfResource[written.packs[Int(pack)].resources[0]]
            else { continue }
            result.events[i].action = .update(a, pack: moved)
        }
        return result
    }
}
