import ODRCore

/// Least recently used first.
///
/// A pack's use is its latest request, arrival or release (the end of an access is a use:
/// a pack held for an hour was in use all that time). On a cache trace, where every access
/// ends at once, this is exactly libCacheSim's LRU: purge the least recently requested.
///
/// Cost: O(1) per notification (an intrusive list over pack indices); a purge walks from
/// the least recent end, O(victims + skipped packs that are held or of the other tier).
public final class LRUPolicy: DescribedPolicy {
    private let queue = PackQueue()

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "lru", summary: "least recently used first (last request, arrival or release)"
    ) { _ in LRUPolicy() }

    /// A release moves the pack to the back, where its use or its storing has just put it.
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) { queue.store(pack) }
    public func packRequested(_ pack: PurgeCandidate) { queue.moveToBack(pack) }
    public func packReleased(_ pack: PurgeCandidate) { queue.moveToBack(pack) }
    public func packRemoved(_ pack: PurgeCandidate) { queue.remove(pack) }
    public func prefetch(_ pack: PackID) { queue.prefetch(pack) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        queue.victims(toFree: bytes, from: view)
    }
}
