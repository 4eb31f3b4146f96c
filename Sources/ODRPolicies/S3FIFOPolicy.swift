import ODRCore

/// S3-FIFO (Yang et al., "FIFO queues are all you need for cache eviction", SOSP 2023), as
/// libCacheSim's `S3FIFO.c` runs it with its defaults: a small FIFO of a tenth of the cache,
/// a main FIFO of the rest, and a ghost FIFO of ids (nine tenths of the cache in bytes).
///
/// - A request that finds its pack adds one to its frequency (in either queue).
/// - An arrival joins the small queue with frequency 0, or the main queue if its id is in the
///   ghost (taken out of it).
/// - One eviction: from the main queue when it holds more than its share or the small queue
///   is empty, else from the small queue. The small queue's oldest moves to the main queue
///   (frequency 0) if it was requested twice or more, else it is evicted and its id joins the
///   ghost; the next oldest is tried until one is evicted. The main queue's oldest is
///   reinserted at its back with frequency min(f, 3) − 1 if f ≥ 1, else evicted.
/// - Evictions repeat until the arrival fits. The ghost drops its oldest ids to stay within
///   its bytes, checked when the arrival is stored (so that its own id counts as found, as
///   libCacheSim finds it before evicting).
/// - Before the first eviction, an arrival joins the main queue once the small one is full.
///
/// On a trace replay it decides admission as libCacheSim 0.3.5 does (``Admission``): a
/// request that misses takes its id out of the ghost first, before any eviction; an object
/// larger than the small queue is declined (delivered, not kept, nothing evicted for it), and
/// one exactly its size is declined after the room is made, unless its id was in the ghost.
/// A request in a scenario always keeps its pack (an app reads it from the disk).
/// Packs that are not candidates (held, another tier) stay where they are.
///
/// Cost: O(1) per notification; an eviction O(moves + victims).
public final class S3FIFOPolicy: DescribedPolicy {
    private static let small = 0, main = 1, ghost = 2
    private let queues = PackLinks()
    private let frequency = Column<Int32>(initial: 0)
    private let sizes = Column<Int64>(initial: 0)
    private var bytes = [Int64](repeating: 0, count: 3)
    /// The cache's bytes at the last eviction (``PurgeView/cacheBytes``).
    private var cacheBytes: Int64 = 0
    /// Whether anything was evicted yet (libCacheSim's `has_evicted`).
    private var hasEvicted = false
    /// The arrival whose id admission took out of the ghost: it joins the main queue.
    private var ghostHit: PackID?
    /// Whether admission is asked (a trace replay): arrivals' ids leave the ghost before the
    /// evictions made for them, so the ghost is kept within its share at every eviction, as
    /// libCacheSim's is; otherwise only when a pack is stored, once its own id is out.
    private var admits = false

    public init() {
        for list in [Self.small, Self.main, Self.ghost] { queues.ensureList(list) }
    }

    public static let descriptor = PolicyDescriptor(
        name: "s3-fifo",
        summary: "S3-FIFO: a small FIFO (10 %), a main FIFO and a ghost of ids (SOSP 2023, libCacheSim's S3FIFO)"
    ) { _ in S3FIFOPolicy() }

    private func push(_ p: PackID, _ list: Int, size: Int64) {
        if let from = queues.list(of: p) { bytes[from] -= sizes[p] }
        queues.pushBack(p, list: list)
        bytes[list] += size
    }

    private func drop(_ p: PackID) {
        guard let from = queues.list(of: p) else { return }
        bytes[from] -= sizes[p]
        queues.remove(p)
    }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        frequency.cover(pack)
        sizes.cover(pack)
        queues.cover(pack)
        let p = pack.pack
        let wasGhost = ghostHit == p || queues.list(of: p) == Self.ghost
        ghostHit = nil
        drop(p)
        sizes[p] = pack.size
        frequency[p] = 0
        // Shares as libCacheSim computes them: a byte count times a ratio, truncated.
        let smallFull = bytes[Self.small] >= Int64(Double(pack.cacheBytes) * 0.1)
        push(p, wasGhost || (!hasEvicted && smallFull) ? Self.main : Self.small, size: pack.size)
        // The ghost within its share, now that the arrival's own id is out of it.
        trimGhost()
    }

    private func trimGhost() {
        let limit = Int64(Double(cacheBytes) * 0.9)
        while bytes[Self.ghost] > limit, let oldest = queues.first(Self.ghost) { drop(oldest) }
    }

    public var decidesAdmission: Bool { true }

    public func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission {
        frequency.cover(pack)
        sizes.cover(pack)
        queues.cover(pack)
        admits = true
        cacheBytes = pack.cacheBytes
        // libCacheSim's lookup of a missing object takes its id out of the ghost at once.
        ghostHit = nil
        if queues.list(of: pack.pack) == Self.ghost {
            drop(pack.pack)
            ghostHit = pack.pack
        }
        let smallShare = Int64(Double(cacheBytes) * 0.1)
        if pack.size > smallShare { return .decline(afterFreeing: 0) }
        if pack.size == smallShare && ghostHit == nil { return .decline(afterFreeing: bytes) }
        return .keep
    }

    public func packRequested(_ pack: PurgeCandidate) {
        guard let list = queues.list(of: pack.pack), list != Self.ghost else { return }
        frequency[pack.pack] &+= 1
    }

    public func packRemoved(_ pack: PurgeCandidate) {
        // An eviction of ours already left its queue (and put a small one's id in the ghost).
        if let list = queues.list(of: pack.pack), list != Self.ghost { drop(pack.pack) }
    }

    public func selectVictims(toFree needed: Int64, from view: PurgeView) -> [PackID] {
        cacheBytes = view.cacheBytes
        hasEvicted = true
        let smallShare = Int64(Double(cacheBytes) * 0.1)
        let mainShare = cacheBytes - smallShare
        var victims: [PackID] = []
        var freed: Int64 = 0
        while freed < needed {
            let fromMain = bytes[Self.main] > mainShare || queues.count(Self.small) == 0
            guard let victim = fromMain ? evictMain(view) ?? evictSmall(view) : evictSmall(view) ?? evictMain(view)
            else { break }
            victims.append(victim.pack)
            freed += victim.size
        }
        return victims
    }

    /// The small queue's oldest candidates until one is evicted (its id to the ghost); those
    /// requested twice or more move to the main queue on the way. Nil if none is evictable.
    private func evictSmall(_ view: PurgeView) -> (pack: PackID, size: Int64)? {
        var cursor = queues.first(Self.small)
        while let p = cursor {
            cursor = queues.after(p)
            if frequency[p] >= 2 {
                frequency[p] = 0
                push(p, Self.main, size: sizes[p])
            } else if let size = view.candidateSize(p) {
                push(p, Self.ghost, size: size)
                if admits { trimGhost() }
                return (p, size)
            }
        }
        return nil
    }

    /// The main queue's oldest candidates until one is evicted; one requested since its last
    /// pass goes to the back with its frequency lowered. Nil if none is evictable.
    private func evictMain(_ view: PurgeView) -> (pack: PackID, size: Int64)? {
        // Every pass lowers a frequency or evicts: four passes over the queue find a victim
        // among the candidates, if there is one.
        var steps = 4 * queues.count(Self.main) + 4
        while steps > 0, let p = queues.first(Self.main) {
            steps -= 1
            let f = frequency[p]
            if f >= 1 {
                frequency[p] = min(f, 3) - 1
                push(p, Self.main, size: sizes[p])
            } else if let size = view.candidateSize(p) {
                drop(p)
                return (p, size)
            } else {
                push(p, Self.main, size: sizes[p])  // held: passed over, to the back
            }
        }
        return nil
    }
}
