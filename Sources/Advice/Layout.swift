import ODRCore

/// How one app's resources are grouped into packs, and which packs are promoted to
/// prefetch: what an app team ships, and what `odr-sim advise` searches.
///
/// A layout keeps every resource's own tags, so every request of the scenario still means
/// "these resources, now"; what changes is which resources share a pack. A group's resources
/// all get the union of the group's tags, so they form one pack (ODR, Background Assets and
/// Play all pack one exact tag set together), and requesting any of those tags fetches the
/// whole pack. When two groups would have the same tag set, or a group is promoted, the group
/// also gets a tag of its own (`pack-3`), never requested, which names its pack.
public struct Layout: Hashable, Sendable {
    /// Resource indices (into the app's resource list), each group sorted, groups in order
    /// of their first resource.
    public private(set) var groups: [[Int]]
    /// Per group: promoted to `prefetch` (downloaded after install), whatever its tags say.
    public private(set) var promoted: [Bool]
    /// Where the app evicts: its budget in bytes and its strategy (a policy name) as the
    /// layout ships them; nil keeps the scenario's.
    public var budget: Int64?
    public var strategy: String?

    public init(groups: [[Int]], promoted: [Bool]? = nil) {
        let pairs = zip(groups.map { $0.sorted() }, promoted ?? Array(repeating: false, count: groups.count))
            .filter { !$0.0.isEmpty }
            .sorted { $0.0[0] < $1.0[0] }
        self.groups = pairs.map(\.0)
        self.promoted = pairs.map(\.1)
    }

    /// The layout as written: one group per distinct tag set (the file's own packs).
    public static func asWritten(_ resources: [Resource]) -> Layout {
        var byTags: [[String]: [Int]] = [:]
        var order: [[String]] = []
        for (i, resource) in resources.enumerated() {
            let key = resource.tags.sorted()
            if byTags[key] == nil { order.append(key) }
            byTags[key, default: []].append(i)
        }
        return Layout(groups: order.map { byTags[$0]! })
    }

    /// The most resources `advise --exhaustive` enumerates: 5 make 454 layouts (52 partitions,
    /// each pack promoted or not), 6 would make 2,430.
    public static let exhaustiveLimit = 5

    /// Every layout of `count` resources: each partition into groups (restricted growth
    /// strings, so each once), and each subset of its groups promoted to prefetch.
    public static func all(of count: Int) -> [Layout] {
        guard count > 0 else { return [] }
        var layouts: [Layout] = []
        var labels = [Int](repeating: 0, count: count)
        func partitions(_ i: Int, _ blocks: Int) {
            guard i < count else {
                let groups = (0..<blocks).map { b in labels.indices.filter { labels[$0] == b } }
                for mask in 0..<(1 << blocks) {
                    layouts.append(Layout(groups: groups, promoted: (0..<blocks).map { mask & (1 << $0) != 0 }))
                }
                return
            }
            for b in 0...blocks where b < count {
                labels[i] = b
                partitions(i + 1, max(blocks, b + 1))
            }
        }
        partitions(0, 0)
        return layouts
    }

    /// "{x, y} {z*}": the groups by resource name, a promoted one starred.
    public func describe(_ resources: [Resource]) -> String {
        zip(groups, promoted).map { g, p in
            "{" + g.map { resources[$0].name }.joined(separator: ", ") + "}" + (p ? "*" : "")
        }.joined(separator: " ")
    }

    /// Every resource a pack of its own.
    public static func onePerResource(_ resources: [Resource]) -> Layout {
        Layout(groups: resources.indices.map { [$0] })
    }

    /// Apple's rule of thumb applied greedily: starting from one pack per resource, merge the
    /// two groups most often requested together while the merged pack stays within `limit`
    /// bytes (64 MB by default: "tags of about 64 MB or less").
    public static func greedy(_ resources: [Resource], coAccess: CoAccess, limit: Int64 = 64_000_000) -> Layout {
        var layout = onePerResource(resources)
        while true {
            var best: (a: Int, b: Int, weight: Int)?
            for a in layout.groups.indices {
                for b in layout.groups.indices where b > a {
                    let size = layout.size(of: a, resources) + layout.size(of: b, resources)
                    guard size <= limit else { continue }
                    let weight = coAccess.between(layout.groups[a], layout.groups[b])
                    if weight > 0, weight > (best?.weight ?? 0) { best = (a, b, weight) }
                }
            }
            guard let best else { return layout }
            layout = layout.merging(best.a, best.b)
        }
    }

    /// Bytes of group `g`.
    public func size(of g: Int, _ resources: [Resource]) -> Int64 {
        groups[g].reduce(0) { $0 + resources[$1].size }
    }

    /// Groups `a` and `b` as one (promoted if either was).
    public func merging(_ a: Int, _ b: Int) -> Layout {
        var groups = self.groups
        var promoted = self.promoted
        groups[a] += groups[b]
        promoted[a] = promoted[a] || promoted[b]
        groups.remove(at: b)
        promoted.remove(at: b)
        return Layout(groups: groups, promoted: promoted)
    }

    /// Group `g` cut in two: `part` and the rest.
    public func splitting(_ g: Int, part: [Int]) -> Layout {
        let rest = groups[g].filter { !part.contains($0) }
        guard !rest.isEmpty, !part.isEmpty else { return self }
        var groups = self.groups
        var promoted = self.promoted
        groups[g] = rest
        groups.append(part)
        promoted.append(promoted[g])
        return Layout(groups: groups, promoted: promoted)
    }

    /// Group `g` promoted to prefetch, or back.
    public func promoting(_ g: Int, _ on: Bool = true) -> Layout {
        var promoted = self.promoted
        promoted[g] = on
        return Layout(groups: groups, promoted: promoted)
    }

    /// The app's resources under this layout, and the tags it adds with their categories.
    public func resources(from original: [Resource]) -> (
        resources: [Resource], newTags: [(name: String, category: TagCategory)]
    ) {
        let existing = Set(original.flatMap(\.tags))
        let unions = groups.map { group in Array(Set(group.flatMap { original[$0].tags })).sorted() }
        var seen: [[String]: Int] = [:]
        for union in unions { seen[union, default: 0] += 1 }
        var result = original
        var newTags: [(name: String, category: TagCategory)] = []
        for (g, group) in groups.enumerated() {
            var tags = unions[g]
            if seen[unions[g]]! > 1 || promoted[g] {
                var name = "pack-\(g + 1)"
                while existing.contains(name) { name = "advised-" + name }
                tags.append(name)
                newTags.append((name, promoted[g] ? .prefetch(order: 0) : .onDemand))
            }
            for r in group {
                // The resource's own tags first, in its order, then the group's others.
                let own = original[r].tags
                result[r].tags = own + tags.filter { !own.contains($0) }
            }
        }
        return (result, newTags)
    }

    /// "3 packs (2 merged), 1 promoted".
    public var summary: String {
        let merged = groups.filter { $0.count > 1 }.count
        let promotedCount = promoted.filter { $0 }.count
        return "\(groups.count) packs" + (merged > 0 ? " (\(merged) of several resources)" : "")
            + (promotedCount > 0 ? ", \(promotedCount) promoted to prefetch" : "")
            + (budget.map { ", budget \(ByteFormatting.scenarioSize($0))" } ?? "")
            + (strategy.map { ", strategy \($0)" } ?? "")
    }
}
