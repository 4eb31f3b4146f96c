import ODRCore

/// Least frequently used first.
///
/// A pack's count starts at 1 when it arrives, grows by 1 per request that finds it on the
/// device, and is forgotten when it is purged. Among equal counts the pack that reached its
/// count earliest goes first. This is libCacheSim's LFU (frequency, then the time of the
/// last update).
///
/// Cost: O(log n) per arrival, request and removal (an indexed heap keyed by count and a
/// policy-local tick); a purge pops O(victims + skipped) entries at O(log n) each.
public final class LFUPolicy: DescribedPolicy {
    private let heap = PackHeap<Int64>()

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "lfu", summary: "fewest requests since download first; ties: reached that count earliest"
    ) { _ in LFUPolicy() }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        heap.set(pack.pack, rank: 1)
    }

    public func packRequested(_ pack: PurgeCandidate) {
        let p = pack.pack
        guard let key = heap.key(of: p) else { return }
        heap.set(p, rank: key.rank + 1)
    }

    public func packRemoved(_ pack: PurgeCandidate) { heap.remove(pack.pack) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        heap.popVictims(toFree: bytes, from: view).map(\.pack)
    }
}
