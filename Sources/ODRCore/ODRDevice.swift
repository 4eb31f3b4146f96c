import CPrefetch
/// One device running the On-Demand Resources machinery: a sans-I/O state machine.
///
/// The device never reads a clock, a disk or a network. Every call carries the time it
/// happens at; bandwidth is the caller's business (it reports bytes with
/// ``receive(_:for:at:)``); and everything the device did is appended to ``events``.
///
/// ```swift
/// let device = ODRDevice(capacity: 64_000_000_000, otherData: 58_000_000_000, policy: ApplePolicy())
/// let game = device.addApp(name: "game", catalog: catalog)
/// device.install(game, at: 0)
/// let outcome = device.beginAccessing(game, tags: [level2], at: 120)
/// for download in device.downloads() { /* deliver bytes at the link's pace */ }
/// device.receive(40_000_000, for: pack, at: 130)     // finishing a pack grants waiting requests
/// device.endAccessing(outcome.request!, at: 1800)
/// ```
///
/// Space: a download reserves its pack's full size when it starts. When free space is short
/// the device purges what the ``PurgePolicy`` chooses among purgeable packs (leftover partial
/// downloads first, then packs of apps not running, then packs of running apps; never a pack
/// held or awaited by a request). Each space demand answered by purging is one purge
/// episode. If purging cannot free enough, the device posts a low-disk warning, lets each
/// app react per its ``LowDiskResponse``, tries once more, and otherwise refuses the demand
/// without purging anything (purging could not have satisfied it).
public final class ODRDevice {
    /// Total disk bytes.
    public let capacity: Int64
    public let settings: DeviceSettings
    public let policy: any PurgePolicy
    // Performance: the mutable state below is marked `@exclusivity(unchecked)`. Swift checks
    // exclusive access to a class's stored properties at run time (a thread-local access set
    // updated on every `packs[i].x = …`), which cost more than half of a trace replay's time.
    // The device is single-threaded, and it never keeps an access to these properties open
    // across a call out (to a policy, say): every access is a single statement. So the
    // dynamic check can never fire, and dropping it changes nothing but speed.
    /// Bytes of everything that is not ODR content.
    @exclusivity(unchecked) public internal(set) var otherBytes: Int64
    /// Bytes of ODR content on disk, partial downloads included.
    @exclusivity(unchecked) public internal(set) var odrBytes: Int64 = 0
    /// Bytes reserved for the rest of running downloads.
    @exclusivity(unchecked) public internal(set) var reservedBytes: Int64 = 0
    @exclusivity(unchecked) public internal(set) var link: LinkState = .wifi
    /// The latest time the device was given.
    @exclusivity(unchecked) public internal(set) var now: Double = 0
    /// Everything that happened since the caller last cleared the list.
    @exclusivity(unchecked) public internal(set) var events: [ODREvent] = []
    /// Turn off to skip building events when only the ``ledger`` matters (trace replay).
    @exclusivity(unchecked) public var recordsEvents = true
    /// With ``recordsEvents``, keep only ``ODREvent/Kind/requestGranted(_:_:waited:hit:)``
    /// events: all that wait statistics need, at a fraction of the cost of the full record.
    @exclusivity(unchecked) public var recordsOnlyGrants = false
    @exclusivity(unchecked) public internal(set) var ledger = Ledger()
    /// Requests begun so far; the ordinal of the latest.
    @exclusivity(unchecked) public internal(set) var requestOrdinal: Int64 = 0
    /// Changes whenever the set of downloads, their priorities or their runnability change,
    /// so a network model knows when to re-plan bandwidth shares.
    public var downloadsRevision: UInt64 { revision }
    // Performance: stored apart, and read by other modules through the computed property
    // above: their direct reads of a stored property pay a dynamic exclusivity check (the
    // attribute does not carry across modules), and a network model reads it after every event.
    @exclusivity(unchecked) var revision: UInt64 = 0

    @exclusivity(unchecked) var apps = RecordTable<AppRecord>()
    @exclusivity(unchecked) var appContents: [AppContent] = []
    @exclusivity(unchecked) var packs = RecordTable<PackRecord>(alignment: 64)
    /// Per pack, beside ``packs``: what only downloads, admissions and purges touch.
    @exclusivity(unchecked) var packDetails = RecordTable<PackDetail>()
    /// Per download slot (``PackRecord/download`` of a running download), the requests
    /// waiting for it. Slots are reused and keep their list's storage, so a miss allocates
    /// nothing, and these few lists stay in cache.
    @exclusivity(unchecked) var downloadWaiters: [[RequestID]] = []
    @exclusivity(unchecked) var freeDownloadSlots: [Int32] = []
    /// Per download slot, the pack's bytes on disk when its download started: what a
    /// download fetched is its bytes on disk minus this.
    @exclusivity(unchecked) var downloadBase: [Int64] = []
    @exclusivity(unchecked) var requests = RecordTable<RequestRecord>()
    /// Per request slot, the packs of a multi-pack request (empty for single-pack ones).
    @exclusivity(unchecked) var requestPackArrays: [[Int32]] = []
    @exclusivity(unchecked) var freeSlots = RecordTable<Int32>()
    /// Packs with a download under way, in start order.
    @exclusivity(unchecked) var downloadOrder: [Int32] = []
    @exclusivity(unchecked) var useTick: UInt64 = 0
    @exclusivity(unchecked) var episode = 0
    @exclusivity(unchecked) var markEpoch: UInt32 = 0
    /// Packs that are leftovers (partial, no longer downloading), in no order: a purge takes
    /// them first, and reading them here rather than scanning every pack record matters
    /// with ten thousand packs.
    @exclusivity(unchecked) var leftoverPacks: [Int32] = []
    @exclusivity(unchecked) var leftoverBytes: Int64 = 0
    /// Purgeable packs of running apps and of the others, in bytes and in number: the sums
    /// over apps, kept as they change, since a purge asks for them per tier.
    @exclusivity(unchecked) var runningAppsPurgeable: (bytes: Int64, count: Int) = (0, 0)
    @exclusivity(unchecked) var otherAppsPurgeable: (bytes: Int64, count: Int) = (0, 0)

    /// A device with `capacity` bytes, `otherData` of them taken by non-ODR data.
    public init(
        capacity: Int64, otherData: Int64 = 0, policy: any PurgePolicy,
        settings: DeviceSettings = DeviceSettings()
    ) {
        precondition(capacity >= 0 && otherData >= 0, "capacity and other data must not be negative")
        self.capacity = capacity
        self.otherBytes = min(otherData, capacity)
        self.policy = policy
        self.settings = settings
        ledger.peakUsedBytes = usedBytes
    }

    deinit {
        packs.deallocate()
        packDetails.deallocate()
        requests.deallocate()
        apps.deallocate()
        freeSlots.deallocate()
    }

    /// Other data, ODR content and reservations.
    public var usedBytes: Int64 { otherBytes + odrBytes + reservedBytes }
    public var freeBytes: Int64 { capacity - usedBytes }
    /// Bytes of packs held by granted requests, all apps together.
    public var inUseBytes: Int64 { apps.reduce(0) { $0 + $1.inUseBytes } }
    /// Bytes still to download for running downloads.
    public var downloadingBytes: Int64 { reservedBytes }

    /// Empties ``events`` keeping its storage.
    public func removeAllEvents() { events.removeAll(keepingCapacity: true) }

    // MARK: Apps

    /// Registers an app and its catalog; it is not installed yet.
    public func addApp(
        name: String, catalog: Catalog, allowsCellular: Bool = true,
        lowDiskResponse: LowDiskResponse = .ignore
    ) -> AppID {
        let id = Int32(apps.count)
        let first = Int32(packs.count)
        // Performance: no temporary arrays per pack or tag, so that catalogs of a million
        // packs (trace replay) are added in a fraction of a second.
        packs.reserveCapacity(packs.count + catalog.packs.count)
        packDetails.reserveCapacity(packs.count + catalog.packs.count)
        let numbered: Bool
        if case .numbered(_, let sizes) = catalog.storage {
            numbered = true
            for size in sizes {
                packs.append(PackRecord(app: id, size: size))
                packDetails.append(PackDetail(category: .onDemand, preservation: 0))
            }
        } else {
            numbered = false
            for pack in catalog.packs {
                var preservation = 0.0
                for tag in pack.tags { preservation = max(preservation, catalog.tags[Int(tag)].preservation) }
                packs.append(PackRecord(app: id, size: pack.size))
                packDetails.append(PackDetail(category: pack.category, preservation: preservation))
            }
        }
        apps.append(AppRecord(
            firstPack: first, catalog: catalog, allowsCellular: allowsCellular,
            lowDiskResponse: lowDiskResponse))
        appContents.append(AppContent(
            name: name, catalog: catalog,
            // A numbered catalog's tag `i` is pack `i`: ``AppRecord/tagsArePacks`` finds it
            // with no table. The first app's global pack indices equal its catalog's: share those arrays.
            tagPacks: numbered ? [] : first == 0 ? catalog.tags.map(\.packs) : catalog.tags.map { $0.packs.map { first + $0 } },
            singlePackOfTag: numbered ? [] : catalog.tags.map { $0.packs.count == 1 ? first + $0.packs[0] : -1 },
            tagPreservation: numbered ? [] : catalog.tags.map(\.preservation)))
        return AppID(rawValue: id)
    }

    public func name(of app: AppID) -> String { appContents[Int(app.rawValue)].name }
    public func catalog(of app: AppID) -> Catalog { appContents[Int(app.rawValue)].catalog }
    public func isInstalled(_ app: AppID) -> Bool { apps[Int(app.rawValue)].installed }
    public func isRunning(_ app: AppID) -> Bool { apps[Int(app.rawValue)].running }
    public func inUseBytes(of app: AppID) -> Int64 { apps[Int(app.rawValue)].inUseBytes }

    // MARK: Packs

    public var packCount: Int { packs.count }
    /// The device-wide ID of pack `index` of `app`'s catalog.
    public func pack(_ index: Int, of app: AppID) -> PackID {
        PackID(rawValue: apps[Int(app.rawValue)].firstPack + Int32(index))
    }
    public func app(of pack: PackID) -> AppID { AppID(rawValue: packs[Int(pack.rawValue)].app) }
    public func size(of pack: PackID) -> Int64 { packs[Int(pack.rawValue)].size }

    /// A hint that `pack` is about to be requested: starts loading its record into the cache.
    /// Changes nothing; a replay that knows its next requests calls it a few ahead, so that
    /// each request finds its record loaded (on traces of millions of objects every record
    /// is a trip to memory otherwise).
    @inline(__always)
    public func prefetch(_ pack: PackID) {
        let p = Int(pack.rawValue)
        guard p >= 0 && p < packs.count else { return }
        odr_prefetch(packs.base + p)
        policy.prefetch(pack)
    }
    /// The pack's name in its app's catalog.
    public func name(of pack: PackID) -> String {
        let app = Int(packs[Int(pack.rawValue)].app)
        return appContents[app].catalog.packs[Int(pack.rawValue - apps[app].firstPack)].name
    }

    public func state(of pack: PackID) -> PackState {
        let p = packs[Int(pack.rawValue)]
        if p.downloading {
            return isRunnable(Int(pack.rawValue)) ? .downloading(bytes: p.bytesOnDisk) : .partiallyDownloaded(bytes: p.bytesOnDisk)
        }
        switch p.phase {
        case .notDownloaded: return .notDownloaded
        case .partial: return .partiallyDownloaded(bytes: p.bytesOnDisk)
        case .purged: return .purged
        case .resident: return p.retain > 0 ? .inUse(retainCount: Int(p.retain)) : .downloaded
        }
    }

    /// How many granted requests hold the pack.
    public func retainCount(of pack: PackID) -> Int { Int(packs[Int(pack.rawValue)].retain) }

    /// Whether the pack may be purged now (on the device, held and awaited by no request).
    public func isPurgeable(_ pack: PackID) -> Bool { packs[Int(pack.rawValue)].purgeable }

    /// The pack as a purge policy sees it (read its properties now: they follow the pack).
    public func candidate(_ pack: PackID) -> PurgeCandidate { candidate(at: Int(pack.rawValue)) }

    // MARK: Internal helpers shared by the extensions

    func emit(_ kind: ODREvent.Kind) {
        guard recordsEvents else { return }
        if recordsOnlyGrants { guard case .requestGranted = kind else { return } }
        events.append(ODREvent(time: now, kind: kind))
    }

    func advance(to time: Double) {
        precondition(time >= now, "time went backwards: \(time) < \(now)")
        now = time
    }

    func touch(_ p: Int) {
        useTick &+= 1
        let record = packs.address(p)
        record.pointee.lastUse = now
        record.pointee.lastUseTick = useTick
    }

    func notePeak() {
        let used = usedBytes
        if used > ledger.peakUsedBytes { ledger.peakUsedBytes = used }
    }

    func fail(_ app: Int32, _ error: RequestError, request: RequestID? = nil) -> RequestOutcome {
        ledger.failures[error, default: 0] += 1
        emit(.requestFailed(request, AppID(rawValue: app), error))
        return .failed(error)
    }

    /// Recomputes the cached purgeability of pack `p` and its app's totals.
    func refresh(_ p: Int) {
        // Performance: one bounds check and one load of the table's address, rather than a
        // dozen: the compiler must assume a store to a record may change the table fields.
        let record = packs.address(p)
        let app = apps.address(Int(record.pointee.app))
        let settled = record.pointee.pins == 0 && !record.pointee.downloading
        let phase = record.pointee.phase
        let purgeable = settled && phase == .resident && record.pointee.retain == 0 && app.pointee.isPresent
        let leftover = settled && phase == .partial
        if purgeable != record.pointee.purgeable {
            record.pointee.purgeable = purgeable
            let size = record.pointee.size
            app.pointee.purgeableBytes += purgeable ? size : -size
            app.pointee.purgeableCount += purgeable ? 1 : -1
            addToTier(ofRunning: app.pointee.running, bytes: purgeable ? size : -size, count: purgeable ? 1 : -1)
        }
        if leftover != record.pointee.leftover {
            record.pointee.leftover = leftover
            let bytes = record.pointee.bytesOnDisk
            if leftover { leftoverPacks.append(Int32(p)) } else { removeLeftover(p) }
            leftoverBytes += leftover ? bytes : -bytes
        }
    }

    func removeLeftover(_ p: Int) {
        guard let i = leftoverPacks.firstIndex(of: Int32(p)) else { return }
        leftoverPacks.swapAt(i, leftoverPacks.count - 1)
        leftoverPacks.removeLast()
    }

    /// The pack as a policy sees it: a live view of its record, not a copy.
    func candidate(at p: Int) -> PurgeCandidate {
        PurgeCandidate(device: self, pack: p)
    }

    func isCandidate(_ p: Int, tier: PurgeTier) -> Bool {
        guard p >= 0, p < packs.count, packs[p].purgeable else { return false }
        return apps[Int(packs[p].app)].running == (tier == .runningApps)
    }

    func residentPackIndices() -> [Int] {
        packs.indices.filter { packs[$0].phase == .resident }
    }

    func purgeableBytes(in tier: PurgeTier) -> Int64 {
        tier == .runningApps ? runningAppsPurgeable.bytes : otherAppsPurgeable.bytes
    }

    func candidateCount(in tier: PurgeTier) -> Int {
        tier == .runningApps ? runningAppsPurgeable.count : otherAppsPurgeable.count
    }

    /// Everything the device could free by purging.
    var reclaimableBytes: Int64 {
        leftoverBytes + runningAppsPurgeable.bytes + otherAppsPurgeable.bytes
    }

    /// Starts or stops app `a`, moving its purgeable packs to the other tier's totals.
    func setRunning(_ a: Int, _ running: Bool) {
        guard apps[a].running != running else { return }
        let bytes = apps[a].purgeableBytes, count = apps[a].purgeableCount
        addToTier(ofRunning: !running, bytes: -bytes, count: -count)
        addToTier(ofRunning: running, bytes: bytes, count: count)
        apps[a].running = running
    }

    private func addToTier(ofRunning running: Bool, bytes: Int64, count: Int) {
        if running {
            runningAppsPurgeable.bytes += bytes
            runningAppsPurgeable.count += count
        } else {
            otherAppsPurgeable.bytes += bytes
            otherAppsPurgeable.count += count
        }
    }
}
