import ODRCore

/// ARC, the Adaptive Replacement Cache (Megiddo and Modha, FAST 2003), in bytes, as
/// libCacheSim 0.3.5's `ARC.c` runs it: two LRU lists of packs, T1 (seen once) and T2 (seen
/// again), two ghost lists of the ids they evicted, B1 and B2, and a target `p` for T1's bytes
/// that learns from ghost hits.
///
/// - An arrival joins T1's recent end; a request that finds a pack in T1 moves it to T2, in
///   T2 to T2's recent end.
/// - A request for an id in B1 raises `p` by max(B2 / B1, 1) bytes (at most the cache); in B2
///   lowers it by max(B1 / B2, 1) (at least 0). The id leaves its ghost, and the pack joins T2.
/// - To make room after a ghost hit, REPLACE: T1's oldest goes (its id to B1) when T1 holds
///   more than `p`, or exactly `p` and the hit was in B2, or T2 is empty; else T2's oldest (to
///   B2). After any other miss (the paper's case IV): when T1 and B1 with the arrival would
///   pass the cache, B1's oldest id is dropped and REPLACE runs, or, with B1 empty, T1's oldest
///   goes with no ghost; otherwise, when all four lists hold twice the cache, B2's oldest id is
///   dropped, and REPLACE runs.
///
/// The ghost hit is a trace replay's (``PurgePolicy/admission(of:needing:)``, which a miss
/// asks before room is made, as libCacheSim's lookup comes before its evictions); a request in
/// a scenario finds its ghost when the pack is stored, after the room was made. Packs that are
/// not candidates (held, another tier) are passed over within their list.
///
/// Cost: O(1) per notification and per victim (intrusive lists).
public final class ARCPolicy: DescribedPolicy {
    private static let t1 = 0, t2 = 1, b1 = 2, b2 = 3
    private let lists = SizedLists(lists: 4)
    /// T1's target in bytes.
    private var p: Double = 0
    /// The arrival whose id was in a ghost list (libCacheSim's `vtime_last_req_in_ghost`): its
    /// purge replaces, and it joins T2.
    private var ghostArrival: PackID?
    /// Whether the last ghost hit was in B2 (REPLACE's tie rule); cleared by a lookup that finds
    /// a pack, as libCacheSim's flags are.
    private var lastGhostInB2 = false
    /// The size of the arrival being made room for (case IV compares it), from admission.
    private var arrivalSize: Int64?

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "arc", summary: "ARC: recency and frequency lists with ghosts and an adaptive target (libCacheSim's ARC)"
    ) { _ in ARCPolicy() }

    /// A ghost hit: `p` learns, and the id leaves its ghost list.
    private func ghostHit(_ pack: PackID, cacheBytes: Int64) {
        guard let list = lists.list(of: pack), list == Self.b1 || list == Self.b2 else { return }
        let (b1, b2) = (Double(lists.bytes(Self.b1)), Double(lists.bytes(Self.b2)))
        if list == Self.b1 {
            p = Swift.min(p + Swift.max(b2 / b1, 1), Double(cacheBytes))
        } else {
            p = Swift.max(p - Swift.max(b1 / b2, 1), 0)
        }
        lastGhostInB2 = list == Self.b2
        lists.drop(pack)
        ghostArrival = pack
    }

    public var decidesAdmission: Bool { true }

    public func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission {
        lists.cover(pack)
        ghostArrival = nil
        arrivalSize = pack.size
        ghostHit(pack.pack, cacheBytes: pack.cacheBytes)
        return .keep
    }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        lists.cover(pack)
        let p = pack.pack
        // In a scenario no admission came first: a ghost hit is found now.
        if arrivalSize == nil { ghostHit(p, cacheBytes: pack.cacheBytes) }
        lists.drop(p)
        lists.sizes[p] = pack.size
        if ghostArrival == p {
            lists.push(p, Self.t2)
            lastGhostInB2 = false
        } else {
            lists.push(p, Self.t1)
        }
        ghostArrival = nil
        arrivalSize = nil
    }

    public func packRequested(_ pack: PurgeCandidate) {
        guard let list = lists.list(of: pack.pack), list == Self.t1 || list == Self.t2 else { return }
        lastGhostInB2 = false
        lists.push(pack.pack, Self.t2)
    }

    public func packRemoved(_ pack: PurgeCandidate) {
        if let list = lists.list(of: pack.pack), list == Self.t1 || list == Self.t2 { lists.drop(pack.pack) }
    }

    public func selectVictims(toFree needed: Int64, from view: PurgeView) -> [PackID] {
        let cache = view.cacheBytes
        let incoming = arrivalSize ?? needed
        var victims: [PackID] = []
        var freed: Int64 = 0
        while freed < needed {
            let victim: (PackID, Int64)?
            if ghostArrival != nil {
                victim = replace(view)
            } else if lists.bytes(Self.t1) + lists.bytes(Self.b1) + incoming > cache {
                if let oldest = lists.first(Self.b1) {
                    lists.drop(oldest)
                    victim = replace(view)
                } else if let (pack, size) = lists.oldestCandidate(Self.t1, of: view) {
                    lists.drop(pack)  // no ghost
                    victim = (pack, size)
                } else {
                    // T1 holds no candidate (a scenario's held packs): REPLACE finds T2's.
                    victim = replace(view)
                }
            } else {
                if lists.totalBytes >= 2 * cache, let oldest = lists.first(Self.b2) { lists.drop(oldest) }
                victim = replace(view)
            }
            guard let (pack, size) = victim else { break }
            victims.append(pack)
            freed += size
        }
        return victims
    }

    /// REPLACE: T1's oldest candidate to B1, or T2's to B2.
    private func replace(_ view: PurgeView) -> (PackID, Int64)? {
        let t1 = lists.bytes(Self.t1)
        let fromT1 =
            (t1 > 0 && (Double(t1) > p || (Double(t1) == p && lastGhostInB2))) || lists.bytes(Self.t2) == 0
        let (source, other) = fromT1 ? (Self.t1, Self.t2) : (Self.t2, Self.t1)
        guard let (pack, size) = lists.oldestCandidate(source, of: view) ?? lists.oldestCandidate(other, of: view)
        else { return nil }
        // Its id to the ghost of the list it left.
        lists.push(pack, lists.list(of: pack) == Self.t1 ? Self.b1 : Self.b2)
        return (pack, size)
    }
}
