/// An app's on-demand resources, grouped into asset packs by exact tag set.
///
/// Resources tagged only `level-1`, only `level-2`, and both give three packs; requesting
/// `level-1` maps to two of them (its own and the shared one), and the shared pack is
/// downloaded once however many tags ask for it.
///
/// ```swift
/// let catalog = try Catalog(resources: [
///     Resource(name: "map1", size: 40_000_000, tags: ["level-1"]),
///     Resource(name: "forest", size: 120_000_000, tags: ["level-1", "level-2"]),
///     Resource(name: "map2", size: 45_000_000, tags: ["level-2"]),
/// ], profile: .ios17)
/// catalog.packs.count                                  // 3
/// catalog.tag(catalog.tagID(named: "level-1")!).size   // 160_000_000
/// ```
public struct Catalog: Sendable {
    /// A tag: what apps request.
    public struct Tag: Sendable, Hashable {
        public let name: String
        public let category: TagCategory
        /// Preservation priority at install time (0…1).
        public let preservation: Double
        /// For an initial-install or prefetch tag, the installations it downloads at.
        public var installationEvents: InstallationEvents = .all
        /// The packs holding this tag's resources, in pack order.
        public let packs: [Int32]
        /// Total bytes of those packs.
        public let size: Int64
    }

    /// An asset pack: all resources sharing one exact tag set. The unit of download and purge.
    public struct Pack: Sendable, Hashable {
        /// The tag names of the set joined by `+`, e.g. `level-1+level-2`.
        public let name: String
        /// The tags of the set, as indices of ``Catalog/tags``.
        public let tags: [Int32]
        public let resources: [String]
        public let size: Int64
        /// The earliest category among its tags: a pack shared by an initial-install tag
        /// and an on-demand tag arrives with the app.
        public let category: TagCategory
    }

    /// The tags, in order (tag `i` is ``TagID`` `i`).
    public var tags: Tags { Tags(storage: storage) }
    /// The asset packs, in order.
    public var packs: Packs { Packs(storage: storage) }
    /// The profile the catalog was validated against.
    public let profile: PlatformProfile
    private(set) var storage: Storage

    /// How the catalog keeps its tags and packs.
    ///
    /// Performance: a trace replay's catalog has a tag, a pack and a resource per object, a
    /// million or more; as lists of ``Tag`` and ``Pack`` values with their arrays, names and
    /// a name index it took over 200 bytes an object. `numbered` keeps 8 bytes of size per
    /// object and shares the object IDs, and makes each ``Tag`` or ``Pack`` when asked.
    enum Storage: Sendable {
        case listed(tags: [Tag], packs: [Pack], index: [String: Int32])
        /// Tag, pack and resource `i` are one on-demand object named `names[i]` in decimal,
        /// of `sizes[i]` bytes, with preservation 0.
        case numbered(names: [UInt64], sizes: [Int64])
    }

    /// The object ID that pack `index` stands for in a trace (a numbered catalog's name); nil
    /// for a catalog of named packs.
    public func objectID(ofPack index: Int) -> UInt64? {
        guard case .numbered(let names, _) = storage, names.indices.contains(index) else { return nil }
        return names[index]
    }

    /// Whether tag `i` is exactly pack `i` for every `i` (single-resource tags).
    public var tagsArePacks: Bool {
        switch storage {
        case .numbered: true
        case .listed(let tags, let packs, _):
            tags.count == packs.count
                && tags.indices.allSatisfy { tags[$0].packs.count == 1 && tags[$0].packs[0] == Int32($0) }
        }
    }

    /// The catalog's tags as a collection of ``Tag`` values.
    public struct Tags: RandomAccessCollection, Sendable {
        let storage: Storage
        public var startIndex: Int { 0 }
        public var endIndex: Int {
            switch storage {
            case .listed(let tags, _, _): tags.count
            case .numbered(_, let sizes): sizes.count
            }
        }
        public subscript(position: Int) -> Tag {
            switch storage {
            case .listed(let tags, _, _): return tags[position]
            case .numbered(let names, let sizes):
                return Tag(
                    name: String(names[position]), category: .onDemand, preservation: 0,
                    packs: [Int32(position)], size: sizes[position])
            }
        }
    }

    /// The catalog's asset packs as a collection of ``Pack`` values.
    public struct Packs: RandomAccessCollection, Sendable {
        let storage: Storage
        public var startIndex: Int { 0 }
        public var endIndex: Int {
            switch storage {
            case .listed(_, let packs, _): packs.count
            case .numbered(_, let sizes): sizes.count
            }
        }
        public subscript(position: Int) -> Pack {
            switch storage {
            case .listed(_, let packs, _): return packs[position]
            case .numbered(let names, let sizes):
                let name = String(names[position])
                return Pack(
                    name: name, tags: [Int32(position)], resources: [name], size: sizes[position], category: .onDemand)
            }
        }
    }

    /// Forms the packs and validates every limit of `profile`.
    /// - Throws: ``CatalogError`` naming the first offending resource, tag or pack.
    public init(
        resources: [Resource],
        tagSettings: [String: TagSettings] = [:],
        profile: PlatformProfile = .unlimited
    ) throws(CatalogError) {
        try self.init(resources: resources, tagSettings: tagSettings, profile: profile, numbering: [])
    }

    /// The catalog of ``init(resources:tagSettings:profile:)`` whose first tags are
    /// `numbering`, in its order (each must be some resource's), and then the others by first
    /// appearance.
    init(
        resources: [Resource], tagSettings: [String: TagSettings], profile: PlatformProfile,
        numbering: [String]
    ) throws(CatalogError) {
        var seenResources = Set<String>()
        var tagOrder: [String] = numbering
        var tagIndex: [String: Int32] = Dictionary(uniqueKeysWithValues: numbering.enumerated().map { ($1, Int32($0)) })
        var packIndexBySet: [[Int32]: Int] = [:]
        var packTagSets: [[Int32]] = []
        var packResources: [[String]] = []
        var packSizes: [Int64] = []
        // Every pack, tag and category total is at most the catalog's total: checking this one
        // sum for overflow keeps all the others (here and in the device) from trapping.
        var total: Int64 = 0

        for resource in resources {
            guard seenResources.insert(resource.name).inserted else {
                throw .duplicateResource(resource.name)
            }
            guard resource.size >= 0 else { throw .negativeSize(resource: resource.name, size: resource.size) }
            let (sum, overflow) = total.addingReportingOverflow(resource.size)
            guard !overflow else { throw .totalTooLarge(resource: resource.name) }
            total = sum
            guard !resource.tags.isEmpty else { throw .noTags(resource: resource.name) }
            var set: [Int32] = []
            for name in resource.tags {
                let index: Int32
                if let known = tagIndex[name] {
                    index = known
                } else {
                    index = Int32(tagOrder.count)
                    tagIndex[name] = index
                    tagOrder.append(name)
                }
                set.append(index)
            }
            set = Array(Set(set)).sorted()
            if let p = packIndexBySet[set] {
                packResources[p].append(resource.name)
                packSizes[p] += resource.size
            } else {
                packIndexBySet[set] = packTagSets.count
                packTagSets.append(set)
                packResources.append([resource.name])
                packSizes.append(resource.size)
            }
        }
        for name in tagSettings.keys.sorted() where tagIndex[name] == nil {
            throw .unknownTag(name)
        }
        for (name, settings) in tagSettings.sorted(by: { $0.key < $1.key })
        where !(0...1).contains(settings.preservation) {
            throw .invalidPreservation(tag: name, value: settings.preservation)
        }

        var packsOfTag = [[Int32]](repeating: [], count: tagOrder.count)
        for (p, set) in packTagSets.enumerated() {
            for t in set { packsOfTag[Int(t)].append(Int32(p)) }
        }
        // A numbered tag no resource carries would be a tag without content.
        if let t = packsOfTag.firstIndex(where: \.isEmpty) { throw .unknownTag(tagOrder[t]) }
        let tags = tagOrder.enumerated().map { t, name in
            let settings = tagSettings[name] ?? TagSettings()
            var tag = Tag(
                name: name, category: settings.category, preservation: settings.preservation,
                packs: packsOfTag[t], size: packsOfTag[t].reduce(0) { $0 + packSizes[Int($1)] })
            tag.installationEvents = settings.installationEvents
            return tag
        }
        let packs = packTagSets.enumerated().map { p, set in
            Pack(
                name: set.map { tagOrder[Int($0)] }.joined(separator: "+"),
                tags: set, resources: packResources[p], size: packSizes[p],
                category: set.map { tags[Int($0)].category }.min() ?? .onDemand)
        }
        try Self.validate(tags: tags, packs: packs, profile: profile)
        self.storage = .listed(tags: tags, packs: packs, index: tagIndex)
        self.profile = profile
    }

    private static func validate(tags: some Collection<Tag>, packs: some Collection<Pack>, profile: PlatformProfile)
        throws(CatalogError)
    {
        if let limit = profile.maxPackCount, packs.count > limit {
            throw .tooManyPacks(count: packs.count, limit: limit, profile: profile.name)
        }
        if let limit = profile.maxPackSize, let pack = packs.first(where: { $0.size > limit }) {
            throw .packTooLarge(pack: pack.name, size: pack.size, limit: limit, profile: profile.name)
        }
        if let limit = profile.maxTagSize, let tag = tags.first(where: { $0.size > limit }) {
            throw .tagTooLarge(tag: tag.name, size: tag.size, limit: limit, profile: profile.name)
        }
        let initial = packs.filter { $0.category == .initialInstall }.reduce(0) { $0 + $1.size }
        if let limit = profile.maxInitialInstallSize, initial > limit {
            throw .initialInstallTooLarge(size: initial, limit: limit, profile: profile.name)
        }
        let early = packs.filter { $0.category != .onDemand }.reduce(0) { $0 + $1.size }
        if let limit = profile.maxInitialAndPrefetchSize, early > limit {
            throw .initialAndPrefetchTooLarge(size: early, limit: limit, profile: profile.name)
        }
        let hosted = packs.reduce(0) { $0 + $1.size }
        if let limit = profile.maxHostedSize, hosted > limit {
            throw .hostedTooLarge(size: hosted, limit: limit, profile: profile.name)
        }
        if let limit = profile.maxPrefetchAndOnDemandSize, hosted - initial > limit {
            throw .prefetchAndOnDemandTooLarge(size: hosted - initial, limit: limit, profile: profile.name)
        }
    }

    /// The tag called `name`, if the catalog has it.
    ///
    /// A catalog of ``init(numberedTags:names:profile:)`` finds it by a scan of its names.
    public func tagID(named name: String) -> TagID? {
        switch storage {
        case .listed(_, _, let index): return index[name].map(TagID.init(rawValue:))
        case .numbered(let names, _):
            // Only the decimal form without leading zeros names an object.
            guard let number = UInt64(name), String(number) == name, let i = names.firstIndex(of: number) else {
                return nil
            }
            return TagID(rawValue: Int32(i))
        }
    }

    public func tag(_ id: TagID) -> Tag { tags[Int(id.rawValue)] }

    /// The packs downloaded at the first install, in pack order.
    public var initialInstallPacks: [Int32] { initialInstallPacks(at: .firstInstallation) }

    /// The packs to prefetch after the first install: by tag order, then pack order, each once.
    public var prefetchPacks: [Int32] { prefetchPacks(at: .firstInstallation) }

    /// The initial-install packs an installation `event` downloads: those with an
    /// initial-install tag that downloads at it, in pack order.
    public func initialInstallPacks(at event: InstallationEvents) -> [Int32] {
        if case .numbered = storage { return [] }
        return packs.indices.filter { p in
            packs[p].category == .initialInstall
                && packs[p].tags.contains {
                    tags[Int($0)].category == .initialInstall && tags[Int($0)].installationEvents.contains(event)
                }
        }.map(Int32.init)
    }

    /// The packs an installation `event` prefetches after its initial ones.
    public func prefetchPacks(at event: InstallationEvents) -> [Int32] {
        if case .numbered = storage { return [] }
        let ordered = tags.indices.compactMap { t -> (Int, Int)? in
            if case .prefetch(let order) = tags[t].category, tags[t].installationEvents.contains(event) {
                return (order, t)
            }
            return nil
        }.sorted { $0 < $1 }
        var seen = Set<Int32>()
        var result: [Int32] = []
        for (_, t) in ordered {
            for p in tags[t].packs where packs[Int(p)].category != .initialInstall && seen.insert(p).inserted {
                result.append(p)
            }
        }
        return result
    }
}

extension Catalog {
    /// A catalog in which every item is one resource with a tag of its own, hence an asset
    /// pack of its own: item `i` is resource, tag and pack `i`, all named `name`, on-demand,
    /// preservation 0. This is the shape a cache-trace replay needs (every object one pack).
    ///
    /// It is the catalog `init(resources:)` would form from
    /// `Resource(name: name, size: size, tags: [name])` items, built in O(n): that general
    /// initializer groups resources by tag set through sets and dictionaries keyed by arrays,
    /// which takes seconds and hundreds of megabytes for a million trace objects. The same
    /// limits of `profile` are checked.
    /// - Throws: ``CatalogError`` for a duplicate name or a negative size.
    public init(singleResourceTags items: [(name: String, size: Int64)], profile: PlatformProfile = .unlimited)
        throws(CatalogError)
    {
        var index: [String: Int32] = [:]
        index.reserveCapacity(items.count)
        var tags: [Tag] = []
        tags.reserveCapacity(items.count)
        var packs: [Pack] = []
        packs.reserveCapacity(items.count)
        var total: Int64 = 0
        for (i, item) in items.enumerated() {
            guard index.updateValue(Int32(i), forKey: item.name) == nil else { throw .duplicateResource(item.name) }
            guard item.size >= 0 else { throw .negativeSize(resource: item.name, size: item.size) }
            let (sum, overflow) = total.addingReportingOverflow(item.size)
            guard !overflow else { throw .totalTooLarge(resource: item.name) }
            total = sum
            // Tag i's packs and pack i's tags are both [i]: one shared array, not two.
            let own = [Int32(i)]
            tags.append(Tag(name: item.name, category: .onDemand, preservation: 0, packs: own, size: item.size))
            packs.append(Pack(name: item.name, tags: own, resources: [item.name], size: item.size, category: .onDemand))
        }
        try Self.validate(tags: tags, packs: packs, profile: profile)
        self.storage = .listed(tags: tags, packs: packs, index: index)
        self.profile = profile
    }

    /// The catalog of ``init(singleResourceTags:profile:)`` for items named by distinct
    /// numbers (a cache trace's object IDs), kept in 8 bytes of size per item beside the
    /// caller's array of names: what replaying a trace of millions of objects needs. Its
    /// ``tags`` and ``packs`` are made when read, and ``tagID(named:)`` scans the names.
    /// - Throws: ``CatalogError`` for a negative size, a total past `Int64.max` or a limit of
    ///   `profile`; the names must be distinct (not checked: a trace's object table made them).
    public init(numberedTags sizes: [Int64], names: [UInt64], profile: PlatformProfile = .unlimited)
        throws(CatalogError)
    {
        try Self.checkNumbered(sizes, names: names, after: 0, totalBefore: 0, profile: profile)
        storage = .numbered(names: names, sizes: sizes)
        self.profile = profile
    }

    /// Adds items at the end of a numbered catalog (``init(numberedTags:names:profile:)``): the
    /// catalog it would have been, made with them from the start, with the same checks on the
    /// whole (the error of the first item that fails them). A catalog that fails is unchanged.
    ///
    /// Performance: the arrays grow in place when the catalog is their only owner, so adding
    /// items a piece at a time costs the pieces, plus one pass over the sizes for the total.
    mutating func appendNumbered(sizes more: [Int64], names moreNames: [UInt64]) throws(CatalogError) {
        guard case .numbered(var names, var sizes) = storage else {
            preconditionFailure("only a numbered catalog takes more items")
        }
        try Self.checkNumbered(
            more, names: moreNames, after: sizes.count, totalBefore: sizes.reduce(0, +), profile: profile)
        // The storage lets go of its arrays first, so that they are appended to in place.
        storage = .numbered(names: [], sizes: [])
        names.append(contentsOf: moreNames)
        sizes.append(contentsOf: more)
        storage = .numbered(names: names, sizes: sizes)
    }

    /// The checks of `validate`, in its order, on what they amount to for a numbered catalog
    /// (every pack one tag's, on-demand, so the initial-install and prefetch totals are 0),
    /// made on `sizes` added after `count` items totalling `totalBefore` bytes that passed them:
    /// the first of these to fail one is the whole catalog's first.
    private static func checkNumbered(
        _ sizes: [Int64], names: [UInt64], after count: Int, totalBefore: Int64, profile: PlatformProfile
    ) throws(CatalogError) {
        precondition(sizes.count == names.count, "one name per size")
        precondition(count + sizes.count < Int(Int32.max), "at most 2^31 - 1 tags")
        var total = totalBefore
        for (i, size) in sizes.enumerated() {
            guard size >= 0 else { throw .negativeSize(resource: String(names[i]), size: size) }
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow else { throw .totalTooLarge(resource: String(names[i])) }
            total = sum
        }
        if let limit = profile.maxPackCount, count + sizes.count > limit {
            throw .tooManyPacks(count: count + sizes.count, limit: limit, profile: profile.name)
        }
        if let limit = profile.maxPackSize, let i = sizes.firstIndex(where: { $0 > limit }) {
            throw .packTooLarge(pack: String(names[i]), size: sizes[i], limit: limit, profile: profile.name)
        }
        if let limit = profile.maxTagSize, let i = sizes.firstIndex(where: { $0 > limit }) {
            throw .tagTooLarge(tag: String(names[i]), size: sizes[i], limit: limit, profile: profile.name)
        }
        if let limit = profile.maxHostedSize, total > limit {
            throw .hostedTooLarge(size: total, limit: limit, profile: profile.name)
        }
    }
}
