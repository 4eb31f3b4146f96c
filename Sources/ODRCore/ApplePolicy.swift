import HeapModule

/// The documented iOS behaviour, odr-sim's default purge policy (ODR-SPEC §4, §6).
///
/// Across apps, least recently used first: the app whose least recently used candidate is
/// oldest gives up a pack. Within that app, the pack with the lowest preservation priority
/// goes first, then the least recently used. Because the app is chosen by recency alone,
/// raising a preservation priority reorders only the app's own packs and never shifts the
/// cost to another app. (Running apps come last and held packs never: the device enforces both.)
///
/// Cost: per app, two heaps with lazy deletion (by preservation then recency, and by
/// recency alone) are fed by the notifications; across apps, a heap of apps keyed by a lower
/// bound of their oldest entry finds the app to purge from. Choosing a victim costs
/// O(log n) amortized, rather than a look at every app or a sort of every candidate.
public final class ApplePolicy: PurgePolicy {
    public let name = "apple"

    private struct Entry: Comparable {
        let preservation: Double
        let tick: UInt64
        let pack: Int32
        let version: UInt32
        static func < (a: Entry, b: Entry) -> Bool {
            (a.preservation, a.tick, a.pack) < (b.preservation, b.tick, b.pack)
        }
    }

    /// One app's entries. A class, so that a purge works on its heaps in place.
    private final class App {
        // Unchecked exclusivity, as for the policy's own state: one access at a time.
        @exclusivity(unchecked) var byPreservation = Heap<Entry>()
        /// Same entries with preservation zeroed: ordered by recency alone.
        @exclusivity(unchecked) var byAge = Heap<Entry>()
        @exclusivity(unchecked) var resident = 0
        /// Whether any of the app's packs was ever noted with a preservation priority above 0.
        /// Until then both heaps would hold the same order, so only `byAge` is kept and
        /// serves for both (half the heap work on every use of a pack).
        @exclusivity(unchecked) var usesPreservation = false
        /// Whether the app is in ``ApplePolicy/appOrder`` (it is whenever `byAge` is not empty).
        @exclusivity(unchecked) var queued = false
    }

    /// An app in the order of apps, keyed by a tick no later than its oldest entry's (ticks
    /// are unique to one use of one pack, so keys never tie).
    private struct AppKey: Comparable {
        let tick: UInt64
        let app: Int32
        static func < (a: AppKey, b: AppKey) -> Bool { a.tick < b.tick }
    }

    // Performance: mutated only from the device's calls, one at a time (see ODRDevice).
    @exclusivity(unchecked) private var apps: [App] = []
    @exclusivity(unchecked) private var appOrder = Heap<AppKey>()
    /// Per pack, the version of its current heap entries. A plain table: reading it around
    /// calls to the view would otherwise retain and release an array each time.
    @exclusivity(unchecked) private var version = RecordTable<UInt32>()

    public init() {}

    deinit { version.deallocate() }

    public func packStored(_ pack: PurgeCandidate) {
        note(pack)
        apps[Int(pack.app.rawValue)].resident += 1
    }
    public func packRequested(_ pack: PurgeCandidate) { note(pack) }
    public func packReleased(_ pack: PurgeCandidate) { note(pack) }
    public func packPreservationChanged(_ pack: PurgeCandidate) { note(pack) }

    public func packRemoved(_ pack: PurgeCandidate) {
        grow(pack)
        version[Int(pack.pack.rawValue)] &+= 1
        apps[Int(pack.app.rawValue)].resident -= 1
    }

    private func grow(_ pack: PurgeCandidate) {
        let p = Int(pack.pack.rawValue), a = Int(pack.app.rawValue)
        if p >= version.count {
            version.reserveCapacity(Swift.max(p + 1, version.count * 2))
            while version.count <= p { version.append(0) }
        }
        while apps.count <= a { apps.append(App()) }
    }

    /// Records the pack's current key; older entries of the pack become stale.
    private func note(_ pack: PurgeCandidate) {
        grow(pack)
        let p = Int(pack.pack.rawValue), a = Int(pack.app.rawValue)
        version[p] &+= 1
        let v = version[p]
        let app = apps[a]
        let tick = pack.lastUseTick
        let preservation = pack.preservation
        if preservation != 0 && !app.usesPreservation {
            // Every current entry has preservation 0 (a change is always noted), so the
            // recency heap is the preservation heap so far.
            app.usesPreservation = true
            app.byPreservation = app.byAge
        }
        if app.usesPreservation {
            app.byPreservation.insert(Entry(preservation: preservation, tick: tick, pack: pack.pack.rawValue, version: v))
        }
        app.byAge.insert(Entry(preservation: 0, tick: tick, pack: pack.pack.rawValue, version: v))
        // Its other entries are older, so this tick bounds the app's oldest from below only
        // when it was not queued (its heap was empty).
        if !app.queued {
            app.queued = true
            appOrder.insert(AppKey(tick: app.byAge.min!.tick, app: Int32(a)))
        }
        if app.byAge.count > 2 * app.resident + 64 { compact(app) }
    }

    /// Drops stale entries (each pack keeps exactly one current entry per heap). The app's
    /// key stays a lower bound: its oldest entry can only get younger.
    private func compact(_ app: App) {
        app.byPreservation = Heap(app.byPreservation.unordered.filter { version[Int($0.pack)] == $0.version })
        app.byAge = Heap(app.byAge.unordered.filter { version[Int($0.pack)] == $0.version })
    }

    /// The last answer, kept so that its storage serves the next purge (the device has let
    /// go of it by then, so clearing it keeps the storage instead of allocating anew).
    @exclusivity(unchecked) private var answer: [PackID] = []

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        answer.removeAll(keepingCapacity: true)
        var victims = answer
        answer = []
        var freed: Int64 = 0
        // Current entries of packs that are not candidates now (held, awaited): put back after.
        var setAside: [(app: App, byAge: Bool, entry: Entry)] = []
        // Apps taken out of the order (other tier, or no candidate now): put back after.
        var outOfOrder: [Int] = []
        while freed < bytes {
            // The app whose oldest candidate is oldest: keys are lower bounds, so an app whose
            // key is exact when it reaches the top is the one.
            var chosen: App?
            while let top = appOrder.min {
                let a = Int(top.app)
                let app = apps[a]
                guard view.isInTier(AppID(rawValue: top.app)),
                      let oldest = validTop(app, byAge: true, view, &setAside) else {
                    appOrder.removeMin()
                    app.queued = false
                    outOfOrder.append(a)
                    continue
                }
                if oldest.tick > top.tick {
                    appOrder.replaceMin(with: AppKey(tick: oldest.tick, app: top.app))
                    continue
                }
                chosen = app
                break
            }
            guard let app = chosen, let victim = validTop(app, byAge: !app.usesPreservation, view, &setAside) else { break }
            if app.usesPreservation { app.byPreservation.removeMin() } else { app.byAge.removeMin() }
            version[Int(victim.pack)] &+= 1
            let id = PackID(rawValue: victim.pack)
            victims.append(id)
            freed += view.info(id).size
        }
        for item in setAside {
            if item.byAge { item.app.byAge.insert(item.entry) } else { item.app.byPreservation.insert(item.entry) }
        }
        for a in outOfOrder where !apps[a].queued && !apps[a].byAge.isEmpty {
            apps[a].queued = true
            appOrder.insert(AppKey(tick: apps[a].byAge.min!.tick, app: Int32(a)))
        }
        answer = victims
        return victims
    }

    /// The first entry of the app's heap that is current and a candidate, discarding stale
    /// entries and setting aside current non-candidates.
    private func validTop(
        _ app: App, byAge: Bool, _ view: PurgeView, _ setAside: inout [(app: App, byAge: Bool, entry: Entry)]
    ) -> Entry? {
        while let top = byAge ? app.byAge.min : app.byPreservation.min {
            if version[Int(top.pack)] != top.version {
                _ = byAge ? app.byAge.removeMin() : app.byPreservation.removeMin()
            } else if !view.isCandidate(PackID(rawValue: top.pack)) {
                _ = byAge ? app.byAge.removeMin() : app.byPreservation.removeMin()
                setAside.append((app, byAge, top))
            } else {
                return top
            }
        }
        return nil
    }
}
