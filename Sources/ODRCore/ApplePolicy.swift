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
/// recency alone) are fed by the notifications, so choosing a victim costs O(apps + log n)
/// rather than a sort of every candidate.
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

    private struct App {
        var byPreservation = Heap<Entry>()
        /// Same entries with preservation zeroed: ordered by recency alone.
        var byAge = Heap<Entry>()
        var resident = 0
    }

    // Performance: mutated only from the device's calls, one at a time (see ODRDevice).
    @exclusivity(unchecked) private var apps: [App] = []
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
        if a >= apps.count { apps += [App](repeating: App(), count: a + 1 - apps.count) }
    }

    /// Records the pack's current key; older entries of the pack become stale.
    private func note(_ pack: PurgeCandidate) {
        grow(pack)
        let p = Int(pack.pack.rawValue), a = Int(pack.app.rawValue)
        version[p] &+= 1
        let v = version[p]
        apps[a].byPreservation.insert(Entry(preservation: pack.preservation, tick: pack.lastUseTick, pack: pack.pack.rawValue, version: v))
        apps[a].byAge.insert(Entry(preservation: 0, tick: pack.lastUseTick, pack: pack.pack.rawValue, version: v))
        if apps[a].byAge.count > 2 * apps[a].resident + 64 { compact(a) }
    }

    /// Drops stale entries (each pack keeps exactly one current entry per heap).
    private func compact(_ a: Int) {
        apps[a].byPreservation = Heap(apps[a].byPreservation.unordered.filter { version[Int($0.pack)] == $0.version })
        apps[a].byAge = Heap(apps[a].byAge.unordered.filter { version[Int($0.pack)] == $0.version })
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
        var setAside: [(app: Int, byAge: Bool, entry: Entry)] = []
        var tierApps: [Int] = []
        for a in apps.indices where apps[a].resident > 0 && view.isInTier(AppID(rawValue: Int32(a))) { tierApps.append(a) }
        var oldest: [UInt64] = []
        oldest.reserveCapacity(tierApps.count)
        // Performance: the whole episode works on the apps' heaps in place, through one
        // buffer, rather than copying (and retaining) an app's two heaps on every look.
        apps.withUnsafeMutableBufferPointer { apps in
            // Each app's oldest candidate; only the app that gives up a pack needs a fresh look.
            for a in tierApps {
                let tick = validTop(apps.baseAddress! + a, a, byAge: true, view, &setAside)?.tick ?? .max
                oldest.append(tick)
            }
            while freed < bytes {
                var slot = -1
                for i in oldest.indices where oldest[i] != .max && (slot < 0 || oldest[i] < oldest[slot]) { slot = i }
                guard slot >= 0 else { break }
                let a = tierApps[slot]
                let app = apps.baseAddress! + a
                guard let victim = validTop(app, a, byAge: false, view, &setAside) else {
                    oldest[slot] = .max
                    continue
                }
                app.pointee.byPreservation.removeMin()
                version[Int(victim.pack)] &+= 1
                let id = PackID(rawValue: victim.pack)
                victims.append(id)
                freed += view.info(id).size
                let tick = validTop(app, a, byAge: true, view, &setAside)?.tick ?? .max
                oldest[slot] = tick
            }
            for item in setAside {
                if item.byAge { apps[item.app].byAge.insert(item.entry) } else { apps[item.app].byPreservation.insert(item.entry) }
            }
        }
        answer = victims
        return victims
    }

    /// The first entry of app `a`'s heap that is current and a candidate, discarding stale
    /// entries and setting aside current non-candidates.
    private func validTop(
        _ app: UnsafeMutablePointer<App>, _ a: Int, byAge: Bool, _ view: PurgeView,
        _ setAside: inout [(app: Int, byAge: Bool, entry: Entry)]
    ) -> Entry? {
        while let top = byAge ? app.pointee.byAge.min : app.pointee.byPreservation.min {
            if version[Int(top.pack)] != top.version {
                _ = byAge ? app.pointee.byAge.removeMin() : app.pointee.byPreservation.removeMin()
            } else if !view.isCandidate(PackID(rawValue: top.pack)) {
                _ = byAge ? app.pointee.byAge.removeMin() : app.pointee.byPreservation.removeMin()
                setAside.append((a, byAge, top))
            } else {
                return top
            }
        }
        return nil
    }
}
