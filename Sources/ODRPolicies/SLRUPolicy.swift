import ODRCore

/// Segmented LRU, as libCacheSim 0.3.5's `SLRU.c` runs it with its defaults: four LRU
/// segments of a quarter of the cache each (``SegmentedLRU``).
///
/// - An arrival joins the first segment with room for it (segment 0 when none has); one
///   larger than a segment is delivered and not kept (libCacheSim's `SLRU_can_insert`).
/// - A request that finds a pack promotes it one segment up (the top segment: to its newest
///   end); a segment over its share passes its oldest pack down, and segment 0's overflow
///   leaves the cache, even on a hit (``PurgePolicy/takeOwnEvictions()``).
/// - To purge: the oldest pack of the lowest segment holding any.
///
/// Option `segments` (1 to 16, default 4, libCacheSim's `n-seg`). In a scenario, where no
/// admission is asked and nobody takes the packs a hit evicts, those go first at the next
/// purge; packs that are not candidates (held, another tier) are passed over.
///
/// Cost: O(1) per notification and per victim, O(segments) per arrival.
public final class SLRUPolicy: DescribedPolicy {
    private let segments: SegmentedLRU

    public init(segments: Int = 4) {
        self.segments = SegmentedLRU(segments: segments)
    }

    public static let descriptor = PolicyDescriptor(
        name: "slru",
        summary: "Segmented LRU: 4 LRU segments, promoted on a hit, cooled down one by one (libCacheSim's SLRU)",
        options: [
            PolicyOption(
                "segments", .number, summary: "how many segments of equal size (default 4, libCacheSim's n-seg)",
                check: { $0 >= 1 && $0 <= 16 && $0 == $0.rounded() ? nil : "must be a whole number from 1 to 16" })
        ]
    ) { context in SLRUPolicy(segments: Int(context.options.values["segments"] ?? 4)) }

    public var decidesAdmission: Bool { true }
    public var evictsOnItsOwn: Bool { true }

    public func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission {
        segments.resize(cache: pack.cacheBytes)
        return segments.canInsert(size: pack.size) ? .keep : .decline(afterFreeing: 0)
    }

    public func packStored(_ pack: PurgeCandidate) {
        segments.cover(pack)
        segments.resize(cache: pack.cacheBytes)
        segments.remove(pack.pack)
        segments.insert(pack.pack, size: pack.size)
    }

    public func packRequested(_ pack: PurgeCandidate) {
        if segments.isLeaving(pack.pack) {
            // A scenario's pack that cooling evicted and nobody removed: it arrives again.
            segments.remove(pack.pack)
            segments.insert(pack.pack, size: pack.size)
            return
        }
        segments.hit(pack.pack)
    }

    public func packRemoved(_ pack: PurgeCandidate) { segments.remove(pack.pack) }

    public func takeOwnEvictions() -> [PackID] { segments.takeLeaving() }

    public func selectVictims(toFree needed: Int64, from view: PurgeView) -> [PackID] {
        segments.resize(cache: view.cacheBytes)
        var victims = segments.takeLeaving(candidatesOf: view)
        var freed = victims.reduce(0) { $0 + (view.candidateSize($1) ?? 0) }
        while freed < needed, let victim = segments.evict(view) {
            victims.append(victim)
            freed += view.candidateSize(victim) ?? 0
        }
        return victims
    }
}
