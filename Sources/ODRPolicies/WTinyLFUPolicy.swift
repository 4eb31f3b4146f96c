import ODRCore

/// W-TinyLFU (Einziger, Friedman and Manes, ACM TOS 2017), in bytes, as libCacheSim 0.3.5's
/// `WTinyLFU.c` runs it with its defaults: a window LRU of 1 % of the cache, a main cache
/// that is a segmented LRU of two segments (1:4, ``SegmentedLRU``) over the rest, and a
/// frequency sketch (``CountingBloomFilter``) that decides which of two victims stays.
///
/// - An arrival joins the window's newest end and is counted; one larger than the window or
///   than the main cache's first segment is delivered and not kept. A request that finds a
///   pack in the window moves it to the window's newest end (not counted); in the main cache
///   promotes it there (whose cooling may evict, ``PurgePolicy/takeOwnEvictions()``) and
///   counts it; the sketch halves itself every 32 × the main cache's bytes of such counts.
/// - To purge, the window's oldest pack moves to the main cache while it fits there; once it
///   does not, the pack with the higher estimate stays: the window's goes in place of the main
///   cache's oldest, or is evicted itself. Each candidate looked at is counted once more. With
///   an empty window the main cache evicts its oldest.
///
/// The sketch hashes a trace's object IDs as libCacheSim does (a scenario's packs by their
/// index). In a scenario, where no admission is asked and nobody takes the packs the main
/// cache evicts on a hit, those go first at the next purge; a victim that is not a candidate
/// (held, another tier) is replaced by the oldest candidate of the window, then of the main
/// cache.
///
/// Cost: O(1) per notification and per victim, plus the sketch's 10 hashes.
public final class WTinyLFUPolicy: DescribedPolicy {
    private let window = PackLinks()
    private var windowBytes: Int64 = 0
    private let main = SegmentedLRU(segments: 2, shares: [1, 4])
    private let sizes = Column<Int64>(initial: 0)
    private let keys = Column<UInt64>(initial: 0)
    private var sketch = CountingBloomFilter(entries: 0)
    private var windowLimit: Int64 = 0
    private var cacheBytes: Int64 = -1
    private var counted: Int64 = 0
    private var decayEvery: Int64 = 0
    private let windowShare: Double

    public init(window: Double = 0.01) { windowShare = window }

    public static let descriptor = PolicyDescriptor(
        name: "wtinylfu",
        summary: "W-TinyLFU: a 1 % LRU window, an SLRU main cache, a frequency sketch at its door (libCacheSim's)",
        options: [
            PolicyOption(
                "window", .number, summary: "the window's share of the cache (default 0.01, libCacheSim's window-size)",
                check: { $0 > 0 && $0 < 1 ? nil : "must be a share of the cache between 0 and 1" })
        ]
    ) { context in WTinyLFUPolicy(window: context.options.values["window"] ?? 0.01) }

    public var decidesAdmission: Bool { true }
    public var evictsOnItsOwn: Bool { true }

    /// Sizes the window, the main cache and the sketch as `WTinyLFU_init` does.
    private func resize(cache: Int64) {
        guard cache != cacheBytes else { return }
        cacheBytes = cache
        windowLimit = Int64(Double(cache) * windowShare)
        let mainBytes = cache - windowLimit
        main.resize(cache: mainBytes)
        sketch = CountingBloomFilter(entries: mainBytes)
        decayEvery = 32 * mainBytes
        counted = 0
    }

    private func cover(_ pack: PurgeCandidate) {
        window.cover(pack)
        main.cover(pack)
        sizes.cover(pack)
        keys.cover(pack)
        resize(cache: pack.cacheBytes)
    }

    public func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission {
        cover(pack)
        let fits = pack.size <= cacheBytes && pack.size <= windowLimit && main.canInsert(size: pack.size)
        return fits ? .keep : .decline(afterFreeing: 0)
    }

    public func packStored(_ pack: PurgeCandidate) {
        cover(pack)
        let p = pack.pack
        main.remove(p)
        dropFromWindow(p)
        sizes[p] = pack.size
        keys[p] = pack.objectID ?? UInt64(p.rawValue)
        window.pushBack(p)
        windowBytes += pack.size
        sketch.add(keys[p])
    }

    public func packRequested(_ pack: PurgeCandidate) {
        let p = pack.pack
        if window.contains(p) {
            window.pushBack(p)
        } else if main.segment(of: p) != nil || main.isLeaving(p) {
            if main.isLeaving(p) {
                main.remove(p)
                main.insert(p, size: sizes[p])
            } else {
                main.hit(p)
            }
            sketch.add(keys[p])
            counted += 1
            if counted >= decayEvery {
                counted = 0
                sketch.decay()
            }
        }
    }

    public func packRemoved(_ pack: PurgeCandidate) {
        dropFromWindow(pack.pack)
        main.remove(pack.pack)
    }

    private func dropFromWindow(_ p: PackID) {
        guard window.contains(p) else { return }
        window.remove(p)
        windowBytes -= sizes[p]
    }

    public func takeOwnEvictions() -> [PackID] { main.takeLeaving() }

    public func selectVictims(toFree needed: Int64, from view: PurgeView) -> [PackID] {
        resize(cache: view.cacheBytes)
        var victims = main.takeLeaving(candidatesOf: view)
        var freed = victims.reduce(0) { $0 + (view.candidateSize($1) ?? 0) }
        while freed < needed {
            let evicted = evictOnce(view)
            guard !evicted.isEmpty else { break }
            for victim in evicted {
                victims.append(victim)
                freed += sizes[victim]
            }
        }
        return victims
    }

    /// `WTinyLFU_evict`: moves window packs to the main cache until one eviction decides.
    private func evictOnce(_ view: PurgeView) -> [PackID] {
        while let candidate = window.first() {
            let size = sizes[candidate]
            defer { sketch.add(keys[candidate]) }
            if main.occupied + size <= main.cacheBytes {
                dropFromWindow(candidate)
                main.insert(candidate, size: size)
                continue
            }
            guard let mainVictim = main.oldest(nil) else { return fallback(view) }
            if sketch.estimate(keys[candidate]) > sketch.estimate(keys[mainVictim]) {
                guard view.candidateSize(mainVictim) != nil else { return fallback(view) }
                main.remove(mainVictim)
                dropFromWindow(candidate)
                return [mainVictim] + main.insertMakingRoom(candidate, size: size, view: view)
            }
            guard view.candidateSize(candidate) != nil else { return fallback(view) }
            dropFromWindow(candidate)
            return [candidate]
        }
        return main.evict(view).map { [$0] } ?? []
    }

    /// A scenario's purge whose chosen victim is held: the oldest candidate of the window,
    /// else of the main cache.
    private func fallback(_ view: PurgeView) -> [PackID] {
        if let (pack, _) = window.oldestCandidate(of: view) {
            dropFromWindow(pack)
            return [pack]
        }
        return main.evict(view).map { [$0] } ?? []
    }
}
