import ODRCore

/// 2Q (Johnson and Shasha, VLDB 1994), in bytes, as libCacheSim 0.3.5's `TwoQ.c` runs it:
/// A1in, a FIFO of first arrivals (a quarter of the cache); A1out, a FIFO of the ids A1in
/// evicted (ghosts, half the cache in their bytes); Am, an LRU of packs seen again (the rest).
///
/// - An arrival whose id is in A1out leaves the ghost and joins Am's newest end, after which
///   Am alone evicts its oldest packs until it holds at most its share
///   (``PurgePolicy/takeOwnEvictions()``); any other arrival joins A1in. An arrival larger than
///   A1in's share is delivered and not kept.
/// - A request that finds a pack in Am moves it to Am's newest end; in A1in, nothing moves.
/// - To purge: Am's oldest pack when Am holds any and A1in is within its share (it leaves no
///   ghost); else A1in's oldest, whose id joins A1out (which drops its oldest ids to fit).
///
/// Options `in_share` (0.25) and `out_share` (0.5), libCacheSim's `Ain-size-ratio` and
/// `Aout-size-ratio`. In a scenario, where no admission is asked, a ghost is found when the
/// pack is stored, and the packs Am evicts on its own go first at the next purge; packs that
/// are not candidates (held, another tier) are passed over.
///
/// Cost: O(1) per notification and per victim (intrusive lists).
public final class TwoQPolicy: DescribedPolicy {
    private static let ain = 0, am = 1, aout = 2, leaving = 3
    private let lists = SizedLists(lists: 4)
    private let inShare: Double, outShare: Double
    private var ainLimit: Int64 = 0, aoutLimit: Int64 = 0, amLimit: Int64 = 0
    private var cacheBytes: Int64 = -1
    /// The arrival whose id was in A1out (libCacheSim's `hit_on_ghost`): it joins Am.
    private var ghostArrival: PackID?
    /// Whether an admission came first for the arrival being stored (a trace replay's miss).
    private var admitted = false

    public init(inShare: Double = 0.25, outShare: Double = 0.5) {
        self.inShare = inShare
        self.outShare = outShare
    }

    private static func share(_ value: Double) -> String? {
        value > 0 && value < 1 ? nil : "must be a share of the cache between 0 and 1"
    }

    public static let descriptor = PolicyDescriptor(
        name: "2q",
        summary: "2Q: a FIFO of first arrivals, a ghost FIFO of its evictions, an LRU for the rest (libCacheSim's)",
        options: [
            PolicyOption("in_share", .number, summary: "A1in's share of the cache (default 0.25)", check: share),
            PolicyOption("out_share", .number, summary: "A1out's share, in its ids' bytes (default 0.5)", check: share),
        ]
    ) { context in
        TwoQPolicy(
            inShare: context.options.values["in_share"] ?? 0.25, outShare: context.options.values["out_share"] ?? 0.5)
    }

    public var decidesAdmission: Bool { true }
    public var evictsOnItsOwn: Bool { true }

    /// Sizes the queues as `TwoQ_init` does for a cache of `cache` bytes.
    private func resize(cache: Int64) {
        guard cache != cacheBytes else { return }
        cacheBytes = cache
        ainLimit = Int64(Double(cache) * inShare)
        aoutLimit = Int64(Double(cache) * outShare)
        amLimit = cache - ainLimit
    }

    /// `TwoQ_find`'s ghost step: an id in A1out leaves it and marks the arrival.
    private func findGhost(_ pack: PackID) {
        ghostArrival = nil
        if lists.list(of: pack) == Self.aout {
            lists.drop(pack)
            ghostArrival = pack
        }
    }

    public func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission {
        lists.cover(pack)
        resize(cache: pack.cacheBytes)
        findGhost(pack.pack)
        admitted = pack.size <= ainLimit
        return admitted ? .keep : .decline(afterFreeing: 0)
    }

    public func packStored(_ pack: PurgeCandidate) {
        lists.cover(pack)
        resize(cache: pack.cacheBytes)
        let p = pack.pack
        if !admitted { findGhost(p) }
        admitted = false
        lists.drop(p)
        lists.sizes[p] = pack.size
        guard ghostArrival == p else {
            lists.push(p, Self.ain)
            return
        }
        ghostArrival = nil
        lists.push(p, Self.am)
        // `Am->get`: Am makes room within its own share.
        while lists.bytes(Self.am) > amLimit, let oldest = lists.first(Self.am), oldest != p {
            lists.drop(oldest)
            lists.push(oldest, Self.leaving)
        }
    }

    public func packRequested(_ pack: PurgeCandidate) {
        switch lists.list(of: pack.pack) {
        case Self.am, Self.leaving: lists.push(pack.pack, Self.am)
        default: break
        }
    }

    public func packRemoved(_ pack: PurgeCandidate) {
        if let list = lists.list(of: pack.pack), list != Self.aout { lists.drop(pack.pack) }
    }

    public func takeOwnEvictions() -> [PackID] {
        var taken: [PackID] = []
        while let pack = lists.first(Self.leaving) {
            lists.drop(pack)
            taken.append(pack)
        }
        return taken
    }

    public func selectVictims(toFree needed: Int64, from view: PurgeView) -> [PackID] {
        resize(cache: view.cacheBytes)
        var victims: [PackID] = []
        var freed: Int64 = 0
        var cursor = lists.first(Self.leaving)
        while let pack = cursor {
            cursor = lists.after(pack)
            if let size = view.candidateSize(pack) {
                lists.drop(pack)
                victims.append(pack)
                freed += size
            }
        }
        while freed < needed {
            let fromAm = lists.bytes(Self.am) > 0 && lists.bytes(Self.ain) <= ainLimit
            let (source, other) = fromAm ? (Self.am, Self.ain) : (Self.ain, Self.am)
            guard let (pack, size) = lists.oldestCandidate(source, of: view) ?? lists.oldestCandidate(other, of: view)
            else { break }
            let list = lists.list(of: pack)
            lists.drop(pack)
            if list == Self.ain { remember(pack) }
            victims.append(pack)
            freed += size
        }
        return victims
    }

    /// `Aout->get`: the evicted id joins A1out, which drops its oldest ids to fit.
    private func remember(_ pack: PackID) {
        guard lists.sizes[pack] <= aoutLimit else { return }
        while lists.bytes(Self.aout) + lists.sizes[pack] > aoutLimit, let oldest = lists.first(Self.aout) {
            lists.drop(oldest)
        }
        lists.push(pack, Self.aout)
    }
}
