import ODRCore

/// Largest pack first: the fewest purges per byte freed, whatever the over-purge; among
/// equal sizes the least recently used (latest request, arrival or release) goes first.
///
/// Cost: O(log n) per notification (an indexed heap keyed by size, then recency).
public final class LargestFirstPolicy: DescribedPolicy {
    private let heap = PackHeap<Int64>()

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "largest-first", summary: "largest pack first; ties: least recently used"
    ) { _ in LargestFirstPolicy() }

    private func touch(_ pack: PurgeCandidate) {
        heap.set(pack.pack, rank: -pack.size)
    }

    public func packStored(_ pack: PurgeCandidate) { touch(pack) }
    public func packRequested(_ pack: PurgeCandidate) { if heap.contains(pack.pack) { touch(pack) } }
    public func packReleased(_ pack: PurgeCandidate) { if heap.contains(pack.pack) { touch(pack) } }
    public func packRemoved(_ pack: PurgeCandidate) { heap.remove(pack.pack) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        heap.popVictims(toFree: bytes, from: view).map(\.pack)
    }
}
