import ODRCore

/// Least recently used first.
///
/// A pack's use is its latest request, arrival or release (the end of an access is a use:
/// a pack held for an hour was in use all that time). On a cache trace, where every access
/// ends at once, this is exactly libCacheSim's LRU: purge the least recently requested.
///
/// Cost: O(1) per notification (an intrusive list over pack indices); a purge walks from
/// the least recent end, O(victims + skipped packs that are held or of the other tier).
public final class LRUPolicy: PurgePolicy {
    public let name = "lru"
    @exclusivity(unchecked) private var order = PackLinks()
    /// Pack sizes, kept here so a purge need not ask the device for a snapshot per victim.
    @exclusivity(unchecked) private var size: [Int64] = []

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "lru", summary: "least recently used first (last request, arrival or release)"
    ) { _ in LRUPolicy() }

    public func packStored(_ pack: PurgeCandidate) {
        let p = Int(pack.pack.rawValue)
        if p >= size.count { size.append(contentsOf: repeatElement(0, count: Swift.max(p + 1, size.count * 2) - size.count)) }
        size[p] = pack.size
        order.pushBack(pack.pack.rawValue)
    }
    public func packRequested(_ pack: PurgeCandidate) { order.pushBack(pack.pack.rawValue) }
    public func packReleased(_ pack: PurgeCandidate) { order.pushBack(pack.pack.rawValue) }
    public func packRemoved(_ pack: PurgeCandidate) { order.remove(pack.pack.rawValue) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var victims: [PackID] = []
        var freed: Int64 = 0
        var cursor = order.first()
        while let p = cursor, freed < bytes {
            let id = PackID(rawValue: p)
            if view.isCandidate(id) {
                victims.append(id)
                freed += size[Int(p)]
            }
            cursor = order.after(p)
        }
        return victims
    }
}
