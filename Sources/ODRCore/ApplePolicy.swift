import HeapModule

/// The documented iOS behaviour, odr-sim's default purge policy (ODR-SPEC §4, §6).
///
/// Across apps, least recently used first: the app whose least recently used candidate is
/// oldest gives up a pack. Within that app, the pack with the lowest preservation priority
/// goes first, then the least recently used. Because the app is chosen by recency alone,
/// raising a preservation priority reorders only the app's own packs and never shifts the
/// cost to another app. (Running apps come last and held packs never: the device enforces both.)
///
/// Cost: per app, a list of its noted packs in recency order (a use moves a pack to the
/// end in O(1)); across apps, a heap of apps keyed by a lower bound of their oldest entry
/// finds the app to purge from in O(log n) amortized. An app that ever gives a pack a
/// preservation priority above 0 also keeps a heap by (preservation, recency), with lazy
/// deletion, to pick its victim.
public final class ApplePolicy: PurgePolicy {
    public let name = "apple"

    /// A pack's place in its app's recency list, and its key there.
    private struct Link {
        var previous: Int32 = -1
        var next: Int32 = -1
        /// The use tick of the pack's latest note.
        var tick: UInt64 = 0
        /// Bumped at every note and removal, so that heap entries of older notes are stale.
        var version: UInt32 = 0
        var listed = false
    }

    private struct Entry: Comparable {
        let preservation: Double
        let tick: UInt64
        let pack: Int32
        let version: UInt32
        static func < (a: Entry, b: Entry) -> Bool {
            (a.preservation, a.tick, a.pack) < (b.preservation, b.tick, b.pack)
        }
    }

    /// One app's packs. A class, so that a purge works on its list and heap in place.
    private final class App {
        // Unchecked exclusivity, as for the policy's own state: one access at a time.
        /// Oldest and newest listed pack (by tick, then pack index), or -1.
        @exclusivity(unchecked) var head: Int32 = -1
        @exclusivity(unchecked) var tail: Int32 = -1
        /// Listed packs.
        @exclusivity(unchecked) var count = 0
        /// During a selection, the first listed pack not yet found to be a non-candidate
        /// (-1 for the head): packs before it are held or awaited for the rest of the selection.
        @exclusivity(unchecked) var cursor: Int32 = -1
        @exclusivity(unchecked) var scanned = false
        /// Whether any of the app's packs was ever noted with a preservation priority above 0.
        /// Until then the recency list alone orders the app's packs.
        @exclusivity(unchecked) var usesPreservation = false
        /// By (preservation, tick, pack); kept only once `usesPreservation`.
        @exclusivity(unchecked) var byPreservation = Heap<Entry>()
        /// Whether the app is in ``ApplePolicy/appOrder`` (it is whenever its list is not empty).
        @exclusivity(unchecked) var queued = false
    }

    /// An app in the order of apps, keyed by a tick no later than its oldest entry's (ticks
    /// are unique to one use of one pack, so keys of exact entries never tie).
    private struct AppKey: Comparable {
        let tick: UInt64
        let app: Int32
        static func < (a: AppKey, b: AppKey) -> Bool { a.tick < b.tick }
    }

    // Performance: mutated only from the device's calls, one at a time (see ODRDevice).
    @exclusivity(unchecked) private var apps: [App] = []
    @exclusivity(unchecked) private var appOrder = Heap<AppKey>()
    /// Per pack. A plain table: reading it around calls to the view would otherwise retain
    /// and release an array each time.
    @exclusivity(unchecked) private var links = RecordTable<Link>()

    public init() {}

    deinit { links.deallocate() }

    public func packStored(_ pack: PurgeCandidate) { note(pack) }
    public func packRequested(_ pack: PurgeCandidate) { note(pack) }
    public func packReleased(_ pack: PurgeCandidate) { note(pack) }
    public func packPreservationChanged(_ pack: PurgeCandidate) { note(pack) }

    public func packRemoved(_ pack: PurgeCandidate) {
        grow(pack)
        let p = Int(pack.pack.rawValue)
        links[p].version &+= 1
        if links[p].listed { unlink(p, from: apps[Int(pack.app.rawValue)]) }
    }

    private func grow(_ pack: PurgeCandidate) {
        let p = Int(pack.pack.rawValue), a = Int(pack.app.rawValue)
        if p >= links.count {
            links.reserveCapacity(p + 1)
            while links.count <= p { links.append(Link()) }
        }
        while apps.count <= a { apps.append(App()) }
    }

    /// Records the pack's current key: it moves to its place by recency in its app's list.
    private func note(_ pack: PurgeCandidate) {
        grow(pack)
        let p = Int(pack.pack.rawValue), a = Int(pack.app.rawValue)
        let app = apps[a]
        let tick = pack.lastUseTick
        let preservation = pack.preservation
        if links[p].listed { unlink(p, from: app) }
        links[p].version &+= 1
        links[p].tick = tick
        insert(p, into: app)
        if preservation != 0 && !app.usesPreservation {
            // Every other listed pack was noted with preservation 0 (a change is always
            // noted), so their entries are their recency keys.
            app.usesPreservation = true
            var q = app.head
            while q >= 0 {
                let link = links[Int(q)]
                if Int(q) != p { app.byPreservation.insert(Entry(preservation: 0, tick: link.tick, pack: q, version: link.version)) }
                q = link.next
            }
        }
        if app.usesPreservation {
            app.byPreservation.insert(Entry(preservation: preservation, tick: tick, pack: Int32(p), version: links[p].version))
            if app.byPreservation.count > 2 * app.count + 64 { compact(app) }
        }
        if !app.queued {
            app.queued = true
            appOrder.insert(AppKey(tick: links[Int(app.head)].tick, app: Int32(a)))
        }
    }

    /// Puts a pack into its app's list after every pack with an earlier (tick, pack). A
    /// use is the latest tick, so the search stops at once but for preservation changes.
    private func insert(_ p: Int, into app: App) {
        let tick = links[p].tick
        var after = app.tail
        while after >= 0 && (links[Int(after)].tick > tick || (links[Int(after)].tick == tick && Int(after) > p)) {
            after = links[Int(after)].previous
        }
        let before = after >= 0 ? links[Int(after)].next : app.head
        links[p].previous = after
        links[p].next = before
        links[p].listed = true
        if after >= 0 { links[Int(after)].next = Int32(p) } else { app.head = Int32(p) }
        if before >= 0 { links[Int(before)].previous = Int32(p) } else { app.tail = Int32(p) }
        app.count += 1
    }

    private func unlink(_ p: Int, from app: App) {
        let previous = links[p].previous, next = links[p].next
        if previous >= 0 { links[Int(previous)].next = next } else { app.head = next }
        if next >= 0 { links[Int(next)].previous = previous } else { app.tail = previous }
        if app.cursor == Int32(p) { app.cursor = next }
        links[p].listed = false
        app.count -= 1
    }

    /// Drops stale heap entries (each listed pack keeps exactly one current entry).
    private func compact(_ app: App) {
        app.byPreservation = Heap(app.byPreservation.unordered.filter { links[Int($0.pack)].version == $0.version })
    }

    /// The last answer and scratch lists, kept so that their storage serves the next purge.
    @exclusivity(unchecked) private var answer: [PackID] = []
    @exclusivity(unchecked) private var scannedApps: [App] = []
    @exclusivity(unchecked) private var outOfOrder: [Int] = []
    @exclusivity(unchecked) private var setAside: [(app: App, entry: Entry)] = []

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        answer.removeAllKeepingCapacity()
        var freed: Int64 = 0
        while freed < bytes {
            // The app whose oldest candidate is oldest: keys are lower bounds, so an app whose
            // key is exact when it reaches the top is the one.
            var chosen: App?
            var oldest: Int32 = -1
            while let top = appOrder.min {
                let a = Int(top.app)
                let app = apps[a]
                let candidate = view.isInTier(AppID(rawValue: top.app)) ? oldestCandidate(app, view) : -1
                guard candidate >= 0 else {
                    appOrder.removeMin()
                    app.queued = false
                    outOfOrder.append(a)
                    continue
                }
                let tick = links[Int(candidate)].tick
                if tick > top.tick {
                    appOrder.replaceMin(with: AppKey(tick: tick, app: top.app))
                    continue
                }
                (chosen, oldest) = (app, candidate)
                break
            }
            guard let app = chosen else { break }
            let victim: Int32
            if app.usesPreservation {
                guard let entry = preservationTop(app, view) else { break }
                app.byPreservation.removeMin()
                victim = entry.pack
            } else {
                victim = oldest
            }
            links[Int(victim)].version &+= 1
            unlink(Int(victim), from: app)
            let id = PackID(rawValue: victim)
            answer.append(id)
            freed += view.info(id).size
        }
        for item in setAside { item.app.byPreservation.insert(item.entry) }
        setAside.removeAllKeepingCapacity()
        for app in scannedApps {
            app.cursor = -1
            app.scanned = false
        }
        scannedApps.removeAllKeepingCapacity()
        for a in outOfOrder where !apps[a].queued && apps[a].head >= 0 {
            apps[a].queued = true
            appOrder.insert(AppKey(tick: links[Int(apps[a].head)].tick, app: Int32(a)))
        }
        outOfOrder.removeAllKeepingCapacity()
        return answer
    }

    /// The app's least recently used candidate, or -1. Packs passed over stay passed over
    /// for the rest of the selection: the device does not change while a policy selects.
    private func oldestCandidate(_ app: App, _ view: PurgeView) -> Int32 {
        if !app.scanned {
            app.scanned = true
            app.cursor = app.head
            scannedApps.append(app)
        }
        var p = app.cursor
        while p >= 0 && !view.isCandidate(PackID(rawValue: p)) { p = links[Int(p)].next }
        app.cursor = p
        return p
    }

    /// The first current candidate by (preservation, tick, pack), discarding stale entries
    /// and setting aside current non-candidates until the selection ends.
    private func preservationTop(_ app: App, _ view: PurgeView) -> Entry? {
        while let top = app.byPreservation.min {
            if links[Int(top.pack)].version != top.version {
                app.byPreservation.removeMin()
            } else if !view.isCandidate(PackID(rawValue: top.pack)) {
                app.byPreservation.removeMin()
                setAside.append((app, top))
            } else {
                return top
            }
        }
        return nil
    }
}
