import ODRCore

/// Belady's MIN, the offline optimum for hit count with equal sizes: purge the pack whose
/// next request is farthest away; packs never requested again go first (least recently
/// requested first among them). Sizes are ignored, as in libCacheSim's `belady`.
///
/// It needs the future: ``PolicyContext/future`` lists, per pack, the ordinals of the requests
/// that include it. The device numbers its requests 1, 2, … and records in
/// ``PurgeCandidate/lastRequestOrdinal`` the latest one that included a pack, so on every
/// arrival and request the policy looks up the pack's next request after that ordinal.
///
/// Where the future comes from:
/// - trace replay reads the trace once ahead of the run;
/// - scenarios and stochastic workloads are generated from seeded random streams before the
///   run starts, so the kernel knows the whole request stream in advance and builds the
///   ``FutureRequests`` from it. A request's ordinal is its position in that stream, so the
///   stream must list every `beginAccessing` and `conditionallyBeginAccessing` in the order
///   the device will see them (requests that fail still take an ordinal).
///
/// A request can include a pack without notifying the policy (it failed before access, or a
/// conditional request missed): the pack's predicted request then passes unseen. Each purge
/// first re-plans such stale packs, found through a second heap ordered by predicted request,
/// so the choice is still made on true next uses.
///
/// Without a future every pack counts as never requested again, which degrades to LRU by
/// arrival and request.
///
/// Cost: O(log n) per notification (two indexed heaps) plus one binary search in the future.
public final class BeladyPolicy: DescribedPolicy {
    private let future: FutureRequests?
    /// Farthest next request first: rank is the negated next ordinal.
    private let farthest = PackHeap<Int64>()
    /// Soonest next request first, to find predictions that have passed.
    private let soonest = PackHeap<Int64>()

    public init(future: FutureRequests?) {
        self.future = future
    }

    /// It plans from each pack's last request's ordinal.
    public var readsPackHistory: Bool { true }

    public static let descriptor = PolicyDescriptor(
        name: "belady", summary: "offline optimum: the pack whose next request is farthest away first",
        needsFuture: true
    ) { context in BeladyPolicy(future: context.future) }

    private func plan(_ p: PackID, after ordinal: Int64) {
        let next = future?.nextRequest(of: p, after: ordinal) ?? .max
        farthest.set(p, rank: -next)
        if next == .max {
            soonest.remove(p)
        } else {
            soonest.set(p, rank: next)
        }
    }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        plan(pack.pack, after: pack.lastRequestOrdinal)
    }

    public func packRequested(_ pack: PurgeCandidate) {
        guard farthest.contains(pack.pack) else { return }
        plan(pack.pack, after: pack.lastRequestOrdinal)
    }

    public func packRemoved(_ pack: PurgeCandidate) {
        farthest.remove(pack.pack)
        soonest.remove(pack.pack)
    }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        let now = view.requestOrdinal
        while let stale = soonest.min, stale.key.rank <= now {
            plan(stale.pack, after: now)
        }
        let victims = farthest.popVictims(toFree: bytes, from: view)
        for victim in victims { soonest.remove(victim.pack) }
        return victims.map(\.pack)
    }
}
