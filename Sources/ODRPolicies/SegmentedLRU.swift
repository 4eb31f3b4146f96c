import ODRCore

/// libCacheSim 0.3.5's segmented LRU (`SLRU.c`) over packs, in bytes: the state of
/// ``SLRUPolicy`` and of ``WTinyLFUPolicy``'s main cache.
///
/// Segment 0 is the lowest. An arrival joins the newest end of the first segment with room
/// for it, or segment 0 when none has. A request that finds a pack in the top segment moves
/// it to that segment's newest end; in a lower one promotes it to the next segment's newest
/// end, and while that segment holds more than its share its oldest pack cools to the
/// segment below (its newest end), down to segment 0, whose overflow is evicted. Eviction
/// takes the oldest pack of the lowest segment holding any bytes.
///
/// A pack evicted by cooling (on a request, when nobody asked for room) waits in a
/// *leaving* list until the owner hands it to the device (``takeLeaving()``).
final class SegmentedLRU {
    /// Relative shares of the segments (libCacheSim's `seg-size=1:4`), or nil for equal
    /// segments of `cache / n` bytes each (its default, integer division).
    private let shares: [Int]?
    let segments: Int
    private(set) var limits: [Int64]
    private(set) var bytes: [Int64]
    /// Bytes in all segments.
    private(set) var occupied: Int64 = 0
    /// The bytes the segments were sized for.
    private(set) var cacheBytes: Int64 = -1
    private let links = PackLinks()
    private let sizes = Column<Int64>(initial: 0)
    /// The list of packs evicted by cooling, not yet removed from the device.
    private var leaving: Int { segments }

    init(segments: Int, shares: [Int]? = nil) {
        precondition(segments >= 1 && (shares == nil || shares!.count == segments), "bad segments")
        self.segments = segments
        self.shares = shares
        limits = Array(repeating: 0, count: segments)
        bytes = Array(repeating: 0, count: segments)
        for list in 0...segments { links.ensureList(list) }
    }

    /// Sizes the segments for a cache of `cache` bytes, as `SLRU_init` does.
    func resize(cache: Int64) {
        guard cache != cacheBytes else { return }
        cacheBytes = cache
        if let shares {
            let sum = Double(shares.reduce(0, +))
            limits = shares.map { Int64(Double($0) / sum * Double(cache)) }
        } else {
            limits = Array(repeating: cache / Int64(segments), count: segments)
        }
    }

    func cover(_ pack: PurgeCandidate) {
        links.cover(pack)
        sizes.cover(pack)
    }

    /// `SLRU_can_insert`: an object fits segment 0 and the cache.
    func canInsert(size: Int64) -> Bool { size <= limits[0] && size <= cacheBytes }

    /// The segment holding `pack`, or nil.
    func segment(of pack: PackID) -> Int? {
        guard let list = links.list(of: pack), list < segments else { return nil }
        return list
    }

    func isLeaving(_ pack: PackID) -> Bool { links.list(of: pack) == leaving }

    func size(of pack: PackID) -> Int64 { sizes[pack] }

    private func push(_ pack: PackID, _ segment: Int) {
        if let from = self.segment(of: pack) {
            bytes[from] -= sizes[pack]
            occupied -= sizes[pack]
        }
        links.pushBack(pack, list: segment)
        bytes[segment] += sizes[pack]
        occupied += sizes[pack]
    }

    /// Takes `pack` out of its segment (or the leaving list).
    func remove(_ pack: PackID) {
        if let from = segment(of: pack) {
            bytes[from] -= sizes[pack]
            occupied -= sizes[pack]
        }
        links.remove(pack)
    }

    /// An arrival of `size` bytes, after room was made: the first segment with room, else 0.
    func insert(_ pack: PackID, size: Int64) {
        sizes[pack] = size
        let segment = (0..<segments).first { bytes[$0] + size <= limits[$0] } ?? 0
        push(pack, segment)
    }

    /// `SLRU_insert` as a caller inside another cache calls it (W-TinyLFU admitting to its main
    /// cache): when no segment has room, it first evicts until the arrival fits the cache.
    /// Returns the evicted packs.
    func insertMakingRoom(_ pack: PackID, size: Int64, view: PurgeView?) -> [PackID] {
        var evicted: [PackID] = []
        if !(0..<segments).contains(where: { bytes[$0] + size <= limits[$0] }) {
            while occupied + size > cacheBytes, let victim = evict(view) { evicted.append(victim) }
        }
        insert(pack, size: size)
        return evicted
    }

    /// A request that found `pack` in a segment: promoted, and the segments cooled.
    func hit(_ pack: PackID) {
        guard let segment = segment(of: pack) else { return }
        if segment == segments - 1 {
            push(pack, segment)
            return
        }
        push(pack, segment + 1)
        // libCacheSim reads the pack's segment again each time round (cooling may move it).
        while let now = self.segment(of: pack), bytes[now] > limits[now] { cool(now) }
    }

    /// `SLRU_cool`: segment `id`'s oldest pack to the segment below; segment 0's overflow
    /// leaves the cache.
    private func cool(_ id: Int) {
        if id == 0 {
            if let victim = oldest(nil) {
                remove(victim)
                links.pushBack(victim, list: leaving)
            }
            return
        }
        guard let pack = links.first(id) else { return }
        push(pack, id - 1)
        while bytes[id - 1] > limits[id - 1] { cool(id - 1) }
    }

    /// `SLRU_to_evict`: the oldest pack of the lowest segment holding bytes (a candidate of
    /// `view`, when one is given; the next one up when that segment has none).
    func oldest(_ view: PurgeView?) -> PackID? {
        for segment in 0..<segments where bytes[segment] > 0 {
            var cursor = links.first(segment)
            while let pack = cursor {
                if view == nil || view!.candidateSize(pack) != nil { return pack }
                cursor = links.after(pack)
            }
        }
        return nil
    }

    /// `SLRU_evict`: ``oldest(_:)`` taken out.
    func evict(_ view: PurgeView?) -> PackID? {
        guard let victim = oldest(view) else { return nil }
        remove(victim)
        return victim
    }

    /// The packs cooling evicted, oldest first, handed over (and forgotten).
    func takeLeaving() -> [PackID] {
        var taken: [PackID] = []
        while let pack = links.first(leaving) {
            links.remove(pack)
            taken.append(pack)
        }
        return taken
    }

    /// The leaving packs that are candidates of `view`, handed over (a purge the device asked
    /// for where nobody took them: a scenario's).
    func takeLeaving(candidatesOf view: PurgeView) -> [PackID] {
        var taken: [PackID] = []
        var cursor = links.first(leaving)
        while let pack = cursor {
            cursor = links.after(pack)
            if view.candidateSize(pack) != nil {
                links.remove(pack)
                taken.append(pack)
            }
        }
        return taken
    }
}
