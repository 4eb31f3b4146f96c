import ODRCore

/// Packs in a queue order: the shared machinery of the queue-ordered policies (FIFO, LRU).
/// Victims are taken from the front, skipping non-candidates; their sizes come from the
/// view (``PurgeView/candidateSize(_:)``), which reads them from the record it checks.
///
/// Cost: O(1) to store, move or remove; a purge walks from the front, O(victims + skipped).
/// A class, so that a policy's call reaches the lists without copying (and retaining) them.
final class PackQueue {
    private let order = Links<QueueNode>()

    /// Appends a newly stored pack at the back.
    func store(_ pack: PurgeCandidate) {
        order.cover(pack)
        order.pushBack(pack.pack)
    }

    /// Moves a pack to the back (most recent).
    func moveToBack(_ pack: PurgeCandidate) { order.pushBack(pack.pack) }

    func remove(_ pack: PurgeCandidate) { order.remove(pack.pack) }

    /// Starts loading the pack's list node, which its next request will move.
    func prefetch(_ pack: PackID) { order.prefetch(pack) }

    /// The last answer, kept so that its storage serves the next purge.
    private let answer = PolicyState<[PackID]>([])

    /// Candidates from the front until `bytes` are freed (or the queue ends).
    func victims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        answer.value.removeAllKeepingCapacity()
        var freed: Int64 = 0
        var cursor = order.first()
        while let p = cursor, freed < bytes {
            if let size = view.candidateSize(p) {
                answer.value.append(p)
                freed += size
            }
            cursor = order.after(p)
        }
        // The front once these victims are gone: the next purge's first look.
        if let next = cursor { view.prefetch(next) }
        return answer.value
    }
}
