import HeapModule
import ODRCore

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
public final class ApplePolicy: DescribedPolicy {

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

    // Per pack a column, per app a list: a note is a few loads and stores, with no
    // reference counting and no copy-on-write checks (see Column, PolicyState).
    private let links = Column<Link>(initial: Link())
    private let apps = Column<AppState>(initial: AppState())
    /// Per app, by (preservation, tick, pack); kept only once the app `usesPreservation`.
    private let byPreservation = PolicyState<[Heap<Entry>]>([])
    private let appOrder = PolicyState(Heap<AppKey>())

    public init() {}

    /// The registry entry of the documented iOS behaviour.
    public static let descriptor = PolicyDescriptor(
        name: "apple",
        summary:
            "iOS default: across apps least recently used first, within an app lowest preservation priority, then LRU"
    ) { _ in ApplePolicy() }

    public func packStored(_ pack: PurgeCandidate) { note(pack) }
    public func packRequested(_ pack: PurgeCandidate) { note(pack) }
    public func packReleased(_ pack: PurgeCandidate) { note(pack) }
    public func packPreservationChanged(_ pack: PurgeCandidate) { note(pack) }

    public func packRemoved(_ pack: PurgeCandidate) {
        let a = Int(pack.app.rawValue)
        grow(pack, app: a)
        let p = pack.pack.index
        links[p].version &+= 1
        if links[p].listed { unlink(p, from: a) }
    }

    private func grow(_ pack: PurgeCandidate, app a: Int) {
        links.cover(pack)
        guard a >= apps.count else { return }
        apps.grow(to: a + 1)
        while byPreservation.value.count < apps.count { byPreservation.value.append(Heap()) }
    }

    /// Records the pack's current key: it moves to its place by recency in its app's list.
    private func note(_ pack: PurgeCandidate) {
        let p = pack.pack.index
        let a = Int(pack.app.rawValue)
        grow(pack, app: a)
        let tick = pack.lastUseTick
        let preservation = pack.preservation
        // A pack already last stays last under a later key, and the list does not change
        // (an app's next note often finds its previous one there: a request, then its end).
        let listed = links[p].listed
        let staysLast = listed && apps[a].tail == Int32(p) && tick >= links[p].tick
        if listed && !staysLast { unlink(p, from: a) }
        links[p].version &+= 1
        links[p].tick = tick
        if !staysLast { insert(p, into: a) }
        if preservation != 0 && !apps[a].usesPreservation {
            // Every other listed pack was noted with preservation 0 (a change is always
            // noted), so their entries are their recency keys.
            apps[a].usesPreservation = true
            var q = apps[a].head
            while q >= 0 {
                let link = links[q]
                if Int(q) != p {
                    byPreservation.value[a].insert(
                        Entry(preservation: 0, tick: link.tick, pack: q, version: link.version))
                }
                q = link.next
            }
        }
        if apps[a].usesPreservation {
            byPreservation.value[a].insert(
                Entry(preservation: preservation, tick: tick, pack: Int32(p), version: links[p].version))
            if byPreservation.value[a].count > 2 * Int(apps[a].count) + 64 { compact(a) }
        }
        if !apps[a].queued {
            apps[a].queued = true
            appOrder.value.insert(AppKey(tick: links[apps[a].head].tick, app: Int32(a)))
        }
    }

    /// Puts a pack into its app's list after every pack with an earlier (tick, pack). A
    /// use is the latest tick, so the search stops at once but for preservation changes.
    private func insert(_ p: Int, into a: Int) {
        let tick = links[p].tick
        var after = apps[a].tail
        while after >= 0 && (links[after].tick > tick || (links[after].tick == tick && Int(after) > p)) {
            after = links[after].previous
        }
        let before = after >= 0 ? links[after].next : apps[a].head
        links[p].previous = after
        links[p].next = before
        links[p].listed = true
        if after >= 0 { links[after].next = Int32(p) } else { apps[a].head = Int32(p) }
        if before >= 0 { links[before].previous = Int32(p) } else { apps[a].tail = Int32(p) }
        apps[a].count += 1
    }

    private func unlink(_ p: Int, from a: Int) {
        let previous = links[p].previous
        let next = links[p].next
        if previous >= 0 { links[previous].next = next } else { apps[a].head = next }
        if next >= 0 { links[next].previous = previous } else { apps[a].tail = previous }
        if apps[a].cursor == Int32(p) { apps[a].cursor = next }
        links[p].listed = false
        apps[a].count -= 1
    }

    /// Drops stale heap entries (each listed pack keeps exactly one current entry).
    private func compact(_ a: Int) {
        byPreservation.value[a] = Heap(
            byPreservation.value[a].unordered.filter { links[$0.pack].version == $0.version })
    }

    /// The last answer and scratch lists, kept so that their storage serves the next purge.
    private let answer = PolicyState<[PackID]>([])
    private let scannedApps = PolicyState<[Int32]>([])
    /// Apps taken out of the order because they had no candidate in a selection's tier (a
    /// running app, in the usual selection among apps not running; or every pack held).
    /// They are put back at the start of the next selection that finds them in its tier
    /// (nothing reads the order between selections; a note puts its app back itself), rather
    /// than at the end of every selection: a running app stays parked, at the cost of one
    /// check per selection instead of two heap operations.
    private let parked = PolicyState<[Int32]>([])
    private let setAside = PolicyState<[(app: Int32, entry: Entry)]>([])

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        answer.value.removeAllKeepingCapacity()
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
            while let top = appOrder.value.min {
                let a = Int(top.app)
                let candidate = view.isInScope(AppID(rawValue: top.app)) ? oldestCandidate(a, view) : -1
                guard candidate >= 0 else {
                    appOrder.value.removeMin()
                    apps[a].queued = false
                    parked.value.append(top.app)
                    continue
                }
                let tick = links[candidate].tick
                if tick > top.tick {
                    if candidate != apps[a].head { raisedPastNonCandidates = true }
                    appOrder.value.replaceMin(with: AppKey(tick: tick, app: top.app))
                    continue
                }
                (chosen, oldest) = (a, candidate)
                break
            }
            guard chosen >= 0 else { break }
            let victim: Int32
            if apps[chosen].usesPreservation {
                guard let entry = preservationTop(chosen, view) else { break }
                byPreservation.value[chosen].removeMin()
                victim = entry.pack
            } else {
                victim = oldest
            }
            links[victim].version &+= 1
            unlink(Int(victim), from: chosen)
            let id = PackID(rawValue: victim)
            answer.value.append(id)
            freed += view.info(id).size
        }
        for item in setAside.value { byPreservation.value[Int(item.app)].insert(item.entry) }
        setAside.value.removeAllKeepingCapacity()
        for a in scannedApps.value {
            apps[Int(a)].cursor = -1
            apps[Int(a)].scanned = false
        }
        scannedApps.value.removeAllKeepingCapacity()
        if raisedPastNonCandidates {
            var keys: [AppKey] = []
            for a in 0..<apps.count where apps[a].queued {
                // An app whose list emptied leaves the order; its next note puts it back.
                if apps[a].head >= 0 {
                    keys.append(AppKey(tick: links[apps[a].head].tick, app: Int32(a)))
                } else {
                    apps[a].queued = false
                }
            }
            appOrder.value = Heap(keys)
        }
        return answer.value
    }

    /// Puts parked.value apps back in the order if they have packs and are in the view's tier.
    private func unpark(_ view: PurgeView) {
        var kept = 0
        for i in parked.value.indices {
            let a32 = parked.value[i]
            let a = Int(a32)
            // A queued app was put back by a note; an app without packs will be by its next.
            guard !apps[a].queued && apps[a].head >= 0 else { continue }
            if view.isInScope(AppID(rawValue: a32)) {
                apps[a].queued = true
                appOrder.value.insert(AppKey(tick: links[apps[a].head].tick, app: a32))
            } else {
                parked.value[kept] = a32
                kept += 1
            }
        }
        while parked.value.count > kept { parked.value.removeLast() }
    }

    /// App `a`'s least recently used candidate, or -1. Packs passed over stay passed over
    /// for the rest of the selection: the device does not change while a policy selects.
    private func oldestCandidate(_ a: Int, _ view: PurgeView) -> Int32 {
        if !apps[a].scanned {
            apps[a].scanned = true
            apps[a].cursor = apps[a].head
            scannedApps.value.append(Int32(a))
        }
        var p = apps[a].cursor
        while p >= 0 && !view.isCandidate(PackID(rawValue: p)) { p = links[p].next }
        apps[a].cursor = p
        return p
    }

    /// App `a`'s first current candidate by (preservation, tick, pack), discarding stale
    /// entries and setting aside current non-candidates until the selection ends.
    private func preservationTop(_ a: Int, _ view: PurgeView) -> Entry? {
        while let top = byPreservation.value[a].min {
            if links[top.pack].version != top.version {
                byPreservation.value[a].removeMin()
            } else if !view.isCandidate(PackID(rawValue: top.pack)) {
                byPreservation.value[a].removeMin()
                setAside.value.append((Int32(a), top))
            } else {
                return top
            }
        }
        return nil
    }
}
