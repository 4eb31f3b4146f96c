extension Catalog {
    /// The same content grouped into other packs: `resources` are this catalog's resources
    /// with tags added (never removed), and `newTags` the tags that appear only there.
    ///
    /// Every tag of this catalog keeps its ``TagID``, its category, preservation and
    /// installation events, so a request, a workload generator or a `preserve` event made
    /// against this catalog still means the same content; the new tags come after them, with
    /// preservation 0. What a layout search (`odr-sim advise`) runs, without a scenario file.
    /// - Throws: ``CatalogError`` for a limit of the profile the new packs break, or a tag of
    ///   this catalog that no resource carries any more.
    public func regrouped(_ resources: [Resource], newTags: [(name: String, category: TagCategory)])
        throws(CatalogError) -> Catalog
    {
        var settings: [String: TagSettings] = [:]
        for tag in tags {
            settings[tag.name] = TagSettings(
                category: tag.category, preservation: tag.preservation, installationEvents: tag.installationEvents)
        }
        for tag in newTags { settings[tag.name] = TagSettings(category: tag.category) }
        return try Catalog(
            resources: resources, tagSettings: settings, profile: profile,
            numbering: tags.map(\.name) + newTags.map(\.name))
    }
}
