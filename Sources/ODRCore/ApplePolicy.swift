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

    /// One app's list, and its state during a selection.
    private struct AppState {
        /// Oldest and newest listed pack (by tick, then pack index), or -1.
        var head: Int32 = -1
        var tail: Int32 = -1
        /// Listed packs.
        var count: Int32 = 0
        /// During a selection, the first listed pack not yet found to be a non-candidate
        /// (packs before it are held or awaited for the rest of the selection), or -1 at the end.
        var cursor: Int32 = -1
        var scanned = false
        /// Whether any of the app's packs was ever noted with a preservation priority above 0.
        /// Until then the recency list alone orders the app's packs.
        var usesPreservation = false
        /// Whether the app is in ``ApplePolicy/appOrder``. An app with listed packs is either
        /// there or parked.
        var queued = false
    }

    /// An app in the order of apps, keyed by a tick no later than its oldest entry's (ticks
    /// are unique to one use of one pack, so keys of exact entries never tie).
    private struct AppKey: Comparable {
        let tick: UInt64
        let app: Int32
        static func < (a: AppKey, b: AppKey) -> Bool { a.tick < b.tick }
    }

    // Performance: mutated only from the device's calls, one at a time (see ODRDevice).
    // Per pack and per app, plain tables: a note is a few loads and stores, with no
    // reference counting and no copy-on-write checks.
    @exclusivity(unchecked) private var links = RecordTable<Link>()
    @exclusivity(unchecked) private var apps = RecordTable<AppState>()
    /// Per app, by (preservation, tick, pack); kept only once the app `usesPreservation`.
    @exclusivity(unchecked) private var byPreservation: [Heap<Entry>] = []
    @exclusivity(unchecked) private var appOrder = Heap<AppKey>()

    public init() {}

    deinit {
        links.deallocate()
        apps.deallocate()
    }

    public func packStored(_ pack: PurgeCandidate) { note(pack) }
    public func packRequested(_ pack: PurgeCandidate) { note(pack) }
    public func packReleased(_ pack: PurgeCandidate) { note(pack) }
    public func packPreservationChanged(_ pack: PurgeCandidate) { note(pack) }

    public func packRemoved(_ pack: PurgeCandidate) {
        grow(pack)
        let p = Int(pack.pack.rawValue)
        links[p].version &+= 1
        if links[p].listed { unlink(p, from: Int(pack.app.rawValue)) }
    }

    private func grow(_ pack: PurgeCandidate) {
        let p = Int(pack.pack.rawValue), a = Int(pack.app.rawValue)
        guard p >= links.count || a >= apps.count else { return }
        if p >= links.count {
            links.reserveCapacity(p + 1)
            while links.count <= p { links.append(Link()) }
        }
        while apps.count <= a {
            apps.append(AppState())
            byPreservation.append(Heap())
        }
    }

    /// Records the pack's current key: it moves to its place by recency in its app's list.
    private func note(_ pack: PurgeCandidate) {
        grow(pack)
        let p = Int(pack.pack.rawValue), a = Int(pack.app.rawValue)
        let tick = pack.lastUseTick
        let preservation = pack.preservation
        // Performance: the records through their addresses, checked once (see RecordTable).
        let link = links.address(p), app = apps.address(a)
        // A pack already last stays last under a later key, and the list does not change
        // (an app's next note often finds its previous one there: a request, then its end).
        let staysLast = link.pointee.listed && app.pointee.tail == Int32(p) && tick >= link.pointee.tick
        if link.pointee.listed && !staysLast { unlink(p, from: a) }
        link.pointee.version &+= 1
        link.pointee.tick = tick
        if !staysLast { insert(p, into: a) }
        if preservation != 0 && !app.pointee.usesPreservation {
            // Every other listed pack was noted with preservation 0 (a change is always
            // noted), so their entries are their recency keys.
            app.pointee.usesPreservation = true
            var q = app.pointee.head
            while q >= 0 {
                let link = links[Int(q)]
                if Int(q) != p { byPreservation[a].insert(Entry(preservation: 0, tick: link.tick, pack: q, version: link.version)) }
                q = link.next
            }
        }
        if app.pointee.usesPreservation {
            byPreservation[a].insert(Entry(preservation: preservation, tick: tick, pack: Int32(p), version: link.pointee.version))
            if byPreservation[a].count > 2 * Int(app.pointee.count) + 64 { compact(a) }
        }
        if !app.pointee.queued {
            app.pointee.queued = true
            appOrder.insert(AppKey(tick: links[Int(app.pointee.head)].tick, app: Int32(a)))
        }
    }

    /// Puts a pack into its app's list after every pack with an earlier (tick, pack). A
    /// use is the latest tick, so the search stops at once but for preservation changes.
    private func insert(_ p: Int, into a: Int) {
        let link = links.address(p), app = apps.address(a)
        let tick = link.pointee.tick
        var after = app.pointee.tail
        while after >= 0 && (links[Int(after)].tick > tick || (links[Int(after)].tick == tick && Int(after) > p)) {
            after = links[Int(after)].previous
        }
        let before = after >= 0 ? links[Int(after)].next : app.pointee.head
        link.pointee.previous = after
        link.pointee.next = before
        link.pointee.listed = true
        if after >= 0 { links[Int(after)].next = Int32(p) } else { app.pointee.head = Int32(p) }
        if before >= 0 { links[Int(before)].previous = Int32(p) } else { app.pointee.tail = Int32(p) }
        app.pointee.count += 1
    }

    private func unlink(_ p: Int, from a: Int) {
        let link = links.address(p), app = apps.address(a)
        let previous = link.pointee.previous, next = link.pointee.next
        if previous >= 0 { links[Int(previous)].next = next } else { app.pointee.head = next }
        if next >= 0 { links[Int(next)].previous = previous } else { app.pointee.tail = previous }
        if app.pointee.cursor == Int32(p) { app.pointee.cursor = next }
        link.pointee.listed = false
        app.pointee.count -= 1
    }

    /// Drops stale heap entries (each listed pack keeps exactly one current entry).
    private func compact(_ a: Int) {
        byPreservation[a] = Heap(byPreservation[a].unordered.filter { links[Int($0.pack)].version == $0.version })
    }

    /// The last answer and scratch lists, kept so that their storage serves the next purge.
    @exclusivity(unchecked) private var answer: [PackID] = []
    @exclusivity(unchecked) private var scannedApps: [Int32] = []
    /// Apps taken out of the order because they had no candidate in a selection's tier (a
    /// running app, in the usual selection among apps not running; or every pack held).
    /// They are put back at the start of the next selection that finds them in its tier
    /// (nothing reads the order between selections; a note puts its app back itself), rather
    /// than at the end of every selection: a running app stays parked, at the cost of one
    /// check per selection instead of two heap operations.
    @exclusivity(unchecked) private var parked: [Int32] = []
    @exclusivity(unchecked) private var setAside: [(app: Int32, entry: Entry)] = []

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        answer.removeAllKeepingCapacity()
        unpark(view)
        // Whether an app's key was raised past packs that are not candidates now: a key
        // above the app's oldest listed pack holds for this selection only (that pack may
        // become a candidate without a note, as when a hold ends), so the order is rebuilt.
        var raisedPastNonCandidates = false
        var freed: Int64 = 0
        while freed < bytes {
            // The app whose oldest candidate is oldest: keys are lower bounds, so an app whose
            // key is exact when it reaches the top is the one.
            var chosen = -1
            var oldest: Int32 = -1
            while let top = appOrder.min {
                let a = Int(top.app)
                let candidate = view.isInTier(AppID(rawValue: top.app)) ? oldestCandidate(a, view) : -1
                guard candidate >= 0 else {
                    appOrder.removeMin()
                    apps[a].queued = false
                    parked.append(top.app)
                    continue
                }
                let tick = links[Int(candidate)].tick
                if tick > top.tick {
                    if candidate != apps[a].head { raisedPastNonCandidates = true }
                    appOrder.replaceMin(with: AppKey(tick: tick, app: top.app))
                    continue
                }
                (chosen, oldest) = (a, candidate)
                break
            }
            guard chosen >= 0 else { break }
            let victim: Int32
            if apps[chosen].usesPreservation {
                guard let entry = preservationTop(chosen, view) else { break }
                byPreservation[chosen].removeMin()
                victim = entry.pack
            } else {
                victim = oldest
            }
            links[Int(victim)].version &+= 1
            unlink(Int(victim), from: chosen)
            let id = PackID(rawValue: victim)
            answer.append(id)
            freed += view.info(id).size
        }
        for item in setAside { byPreservation[Int(item.app)].insert(item.entry) }
        setAside.removeAllKeepingCapacity()
        for a in scannedApps {
            apps[Int(a)].cursor = -1
            apps[Int(a)].scanned = false
        }
        scannedApps.removeAllKeepingCapacity()
        if raisedPastNonCandidates {
            var keys: [AppKey] = []
            for a in apps.indices where apps[a].queued {
                // An app whose list emptied leaves the order; its next note puts it back.
                if apps[a].head >= 0 {
                    keys.append(AppKey(tick: links[Int(apps[a].head)].tick, app: Int32(a)))
                } else {
                    apps[a].queued = false
                }
            }
            appOrder = Heap(keys)
        }
        return answer
    }

    /// Puts parked apps back in the order if they have packs and are in the view's tier.
    private func unpark(_ view: PurgeView) {
        var kept = 0
        for i in parked.indices {
            let a32 = parked[i], a = Int(a32)
            // A queued app was put back by a note; an app without packs will be by its next.
            guard !apps[a].queued && apps[a].head >= 0 else { continue }
            if view.isInTier(AppID(rawValue: a32)) {
                apps[a].queued = true
                appOrder.insert(AppKey(tick: links[Int(apps[a].head)].tick, app: a32))
            } else {
                parked[kept] = a32
                kept += 1
            }
        }
        while parked.count > kept { parked.removeLast() }
    }

    /// App `a`'s least recently used candidate, or -1. Packs passed over stay passed over
    /// for the rest of the selection: the device does not change while a policy selects.
    private func oldestCandidate(_ a: Int, _ view: PurgeView) -> Int32 {
        if !apps[a].scanned {
            apps[a].scanned = true
            apps[a].cursor = apps[a].head
            scannedApps.append(Int32(a))
        }
        var p = apps[a].cursor
        while p >= 0 && !view.isCandidate(PackID(rawValue: p)) { p = links[Int(p)].next }
        apps[a].cursor = p
        return p
    }

    /// App `a`'s first current candidate by (preservation, tick, pack), discarding stale
    /// entries and setting aside current non-candidates until the selection ends.
    private func preservationTop(_ a: Int, _ view: PurgeView) -> Entry? {
        while let top = byPreservation[a].min {
            if links[Int(top.pack)].version != top.version {
                byPreservation[a].removeMin()
            } else if !view.isCandidate(PackID(rawValue: top.pack)) {
                byPreservation[a].removeMin()
                setAside.append((Int32(a), top))
            } else {
                return top
            }
        }
        return nil
    }
}
