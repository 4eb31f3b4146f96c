import ODRCore

/// SIEVE (Zhang et al., NSDI 2024): a FIFO queue with one "visited" bit per pack and a hand.
///
/// Arrivals join the new end of the queue with the bit clear; a request that finds the pack
/// on the device sets its bit (nothing moves, so hits cost O(1) and need no lock in a real
/// system). To purge, the hand walks from where it stopped towards the new end, wrapping to
/// the old end: a visited pack has its bit cleared and is passed over (it survives this
/// round), the first unvisited pack is purged and the hand stays at its place. New packs
/// therefore get one round to prove themselves, while popular old ones stay put, which is
/// why SIEVE beats LRU on skewed web and block workloads.
///
/// Packs that are not candidates (held, other tier) are passed over with their bit kept.
/// A walk gives up after two full turns without finding a candidate.
///
/// Cost: O(1) per notification; a purge is O(victims) amortized, O(n) at worst.
public final class SievePolicy: DescribedPolicy {
    /// Front: oldest arrival; back: newest.
    private let queue = PackLinks()
    private let visited = Column<Bool>(initial: false)
    /// The next pack the hand examines; nil means the oldest.
    private var hand: PackID?

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "sieve", summary: "SIEVE: FIFO with a visited bit and a moving hand (NSDI 2024)"
    ) { _ in SievePolicy() }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        visited.cover(pack)
        visited[pack.pack] = false
        if hand == pack.pack { hand = queue.after(pack.pack) }
        queue.pushBack(pack.pack)
    }

    public func packRequested(_ pack: PurgeCandidate) {
        if queue.contains(pack.pack) { visited[pack.pack] = true }
    }

    public func prefetch(_ pack: PackID) {
        visited.prefetch(pack)
        queue.prefetch(pack)
    }

    public func packRemoved(_ pack: PurgeCandidate) {
        let p = pack.pack
        guard queue.contains(p) else { return }
        if hand == p { hand = queue.after(p) }
        queue.remove(p)
    }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var victims: [PackID] = []
        var freed: Int64 = 0
        while freed < bytes, let (victim, victimSize) = sweep(view) {
            hand = queue.after(victim)
            // Out of the queue now so the next sweep cannot pick it again.
            queue.remove(victim)
            victims.append(victim)
            freed += victimSize
        }
        // Where the hand rests: the next purge's first look.
        if let hand { view.prefetch(hand) }
        return victims
    }

    /// Moves the hand to the first unvisited candidate, clearing bits on the way; that
    /// candidate and its size.
    private func sweep(_ view: PurgeView) -> (PackID, Int64)? {
        let limit = 2 * queue.count(0) + 2
        var steps = 0
        var cursor = hand ?? queue.first()
        while let p = cursor, steps <= limit {
            steps += 1
            if let size = view.candidateSize(p) {
                if !visited[p] { return (p, size) }
                visited[p] = false
            }
            cursor = queue.after(p) ?? queue.first()
        }
        return nil
    }
}
