import CPrefetch

/// One device whose apps fetch content on demand, each on its own platform (On-Demand
/// Resources, Background Assets, Play Asset Delivery: ``PlatformProfile``): a sans-I/O state
/// machine.
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
/// Space: a download reserves its pack's full size when it starts. When free space is short,
/// who makes room depends on the app's platform (``RoomMaker``). Where the system purges
/// (ODR), the device purges what its ``PurgePolicy`` chooses among purgeable packs (leftover
/// partial downloads first, then packs of apps not running, then packs of running apps; never
/// a pack held or awaited by a request); if that cannot free enough, it posts a low-disk
/// warning, lets each app react per its ``LowDiskResponse``, tries once more, and otherwise
/// refuses the demand without purging anything. Where the app evicts (Background Assets,
/// Play), the app's own strategy removes its packs within its budget (``EvictionRules``).
/// Each demand answered by removing packs is one purge episode.
///
/// ## What a driver calls, by group
///
/// As quinn-proto's `Connection`, the device is driven from outside; every input carries its
/// time, and outputs are read, not pushed.
///
/// - **Setup**: ``init(capacity:otherData:policy:settings:)``,
///   ``addApp(name:catalog:allowsCellular:lowDiskResponse:eviction:profile:)``,
///   ``recordsEvents``, ``recordsOnlyGrants``.
/// - **Apps** (the user's actions): ``install(_:at:)``, ``launch(_:at:)``, ``terminate(_:at:)``,
///   ``uninstall(_:at:)``, ``updateApp(_:at:)``; the app's own choices where a platform gives
///   them, ``setAutomaticDownloadFilter(of:_:)`` and ``checkForUpdates(_:at:)``; the user's
///   consent, ``requireUserConfirmation(of:)`` and ``confirmCellular(_:at:)``.
/// - **The store's inputs**: ``updatePack(_:at:)``, ``retirePack(_:at:)``.
/// - **Requests** (`NSBundleResourceRequest`): ``beginAccessing(_:tags:priority:optional:requireLatest:at:)``,
///   ``conditionallyBeginAccessing(_:tags:at:)``, ``endAccessing(_:at:)``,
///   ``setLoadingPriority(_:for:at:)``, ``pause(_:at:)``, ``resume(_:at:)``, ``cancel(_:at:)``,
///   ``setPreservationPriority(_:for:of:at:)``; a cache access in one step, ``access(_:tag:at:)``.
/// - **The world's inputs**: the network (``setLink(_:at:)``, ``receive(_:for:at:)``) and the
///   disk (``changeOtherData(by:at:)``).
/// - **Outputs**: ``events`` (cleared with ``removeAllEvents()``), ``ledger`` (started over
///   with ``restartLedger()`` at a warm-up's end), ``recordOutstanding(at:)`` at the end of a run.
/// - **What a network model reads**: ``downloads(into:)`` (or ``downloads()``),
///   ``downloadsRevision``, ``downloadCount``, ``bytesReceived(by:)``.
/// - **Queries** (reports, tests, policies): space (``capacity``, ``usedBytes``, ``freeBytes``,
///   ``otherBytes``, ``odrBytes``, ``inUseBytes``, ``downloadingBytes``),
///   apps (``isInstalled(_:)``, ``isRunning(_:)``, ``foregroundSeconds(of:)``, ``inUseBytes(of:)``, `name(of:)`,
///   ``catalog(of:)``), packs (``pack(_:of:)``, ``state(of:)``, ``size(of:)``, ``app(of:)``,
///   ``candidate(_:)``, ``prefetch(_:)``) and requests (``isLive(_:)``, ``progress(of:)``,
///   ``packs(ofRequest:)``,
///   ``waitingRequests``); ``checkInvariants()`` in debug builds.
///
/// Its lives are tables: an app's (``AppPhase``), a pack's (``PackLife``) and a request's
/// (``RequestLife``), each moved by one function.
public final class ODRDevice {
    /// Total disk bytes.
    public let capacity: Int64
    public let settings: DeviceSettings
    /// The policy the system purges under; an app's own strategy is in its ``EvictionRules``.
    public let policy: any PurgePolicy
    /// Whether ``policy`` decides admission (``PurgePolicy/decidesAdmission``), read once:
    /// a replay under any other policy makes no call for it.
    let policyDecidesAdmission: Bool
    /// Whether ``policy`` evicts on its own (``PurgePolicy/evictsOnItsOwn``), read once.
    let policyEvictsOnItsOwn: Bool
    /// Whether ``policy`` need not hear a release right after a use
    /// (``PurgePolicy/ignoresReleaseAfterUse``, and it does not evict on its own), read once.
    let policySkipsReleaseAfterUse: Bool
    /// Bytes of everything that is not ODR content.
    public var otherBytes: Int64 { state.otherBytes }
    /// Bytes of ODR content on disk, partial downloads included.
    public var odrBytes: Int64 { state.odrBytes }
    /// Bytes reserved for the rest of running downloads.
    var reservedBytes: Int64 { state.reservedBytes }
    public var link: LinkState { state.link }
    /// The latest time the device was given.
    public var now: Double { state.now }
    /// Everything that happened since the caller last cleared the list (``removeAllEvents()``).
    public var events: [ODREvent] { state.events }
    /// Turn off to skip building events when only the ``ledger`` matters (trace replay).
    public var recordsEvents: Bool {
        get { state.recordsEvents }
        set { state.recordsEvents = newValue }
    }
    /// With ``recordsEvents``, keep only ``ODREvent/Kind/requestGranted(_:_:waited:hit:)``
    /// events: all that wait statistics need, at a fraction of the cost of the full record.
    public var recordsOnlyGrants: Bool {
        get { state.recordsOnlyGrants }
        set { state.recordsOnlyGrants = newValue }
    }
    public var ledger: Ledger { closingBudgets(state.ledger) }

    /// App `app`'s share of the ledger: the counts that belong to one app (see
    /// `DeviceState.appLedgers`); summed over the apps they give the device's.
    public func ledger(of app: AppID) -> Ledger {
        state.tracksApps ? closingBudgets(state.appLedgers[Int(app.rawValue)], app: app) : ledger
    }

    /// Starts the ledger over: every count from zero, the peak from the disk use now. What
    /// happened before (packs purged, so a later download of them is a re-download) stays
    /// in the device's state; only the counting restarts. The end of a warm-up.
    public func restartLedger() {
        state.ledger = Ledger()
        state.ledger.peakUsedBytes = usedBytes
        state.appLedgers = state.appLedgers.map { _ in Ledger() }
        // An app above its budget at the end of the warm-up: counted from here.
        for k in state.appContents.indices where state.appContents[k].overBudget > 0 {
            state.appContents[k].overBudgetSince = state.now
            bookHighest(\.budgetExceededBytes, state.appContents[k].overBudget, for: AppID(k))
        }
    }
    /// Requests begun so far; the ordinal of the latest.
    public var requestOrdinal: Int64 { state.requestOrdinal }
    /// Changes whenever the set of downloads, their priorities or their runnability change,
    /// so a network model knows when to re-plan bandwidth shares.
    public var downloadsRevision: UInt64 { state.revision }

    /// Everything that changes (see ``DeviceState``).
    @exclusivity(unchecked) var state: DeviceState

    /// A device with `capacity` bytes, `otherData` of them taken by non-ODR data.
    public init(
        capacity: Int64, otherData: Int64 = 0, policy: any PurgePolicy,
        settings: DeviceSettings = DeviceSettings()
    ) {
        precondition(capacity >= 0 && otherData >= 0, "capacity and other data must not be negative")
        self.capacity = capacity
        state = DeviceState()
        self.policy = policy
        policyDecidesAdmission = policy.decidesAdmission
        policyEvictsOnItsOwn = policy.evictsOnItsOwn
        policySkipsReleaseAfterUse = policy.ignoresReleaseAfterUse && !policy.evictsOnItsOwn
        state.keepsHistory = policy.readsPackHistory
        state.otherBytes = min(otherData, capacity)
        self.settings = settings
        state.ledger.peakUsedBytes = usedBytes
    }

    deinit { state.deallocate() }

    /// Other data, ODR content and reservations.
    public var usedBytes: Int64 { otherBytes + odrBytes + reservedBytes }
    public var freeBytes: Int64 { capacity - usedBytes }
    /// Bytes of packs held by granted requests, all apps together.
    public var inUseBytes: Int64 { state.apps.reduce(0) { $0 + $1.inUseBytes } }
    /// Bytes still to download for running downloads.
    public var downloadingBytes: Int64 { reservedBytes }

    /// Empties ``events`` keeping its storage.
    public func removeAllEvents() { state.events.removeAll(keepingCapacity: true) }

    // MARK: Apps

    /// Registers an app and its catalog; it is not installed yet.
    ///
    /// `eviction` is read where the app owns eviction (``Evictor/app``): its budget, the tags
    /// it keeps and its own strategy (``EvictionRules``). `profile` is the app's own platform,
    /// where it differs from the device's.
    public func addApp(
        name: String, catalog: Catalog, allowsCellular: Bool = true,
        lowDiskResponse: LowDiskResponse = .ignore, eviction: EvictionRules = EvictionRules(),
        profile: PlatformProfile? = nil
    ) -> AppID {
        let profile = profile ?? settings.profile
        let rules = AppRules(profile)
        let id = AppID(state.apps.count)
        let first = PackID(state.packs.count)
        // Performance: no temporary arrays per pack or tag, so that catalogs of a million
        // packs (trace replay) are added in a fraction of a second.
        state.packs.reserveCapacity(state.packs.count + catalog.packs.count)
        state.packDetails.reserveCapacity(state.packs.count + catalog.packs.count)
        let numbered: Bool
        if case .numbered(_, let sizes) = catalog.storage {
            numbered = true
            for size in sizes {
                state.packs.append(PackRecord(app: id, size: size))
                state.packDetails.append(.plain)
            }
        } else {
            numbered = false
            for pack in catalog.packs {
                var preservation = 0.0
                for tag in pack.tags { preservation = max(preservation, catalog.tags[Int(tag)].preservation) }
                state.packs.append(PackRecord(app: id, size: pack.size))
                state.packDetails.append(
                    PackDetail(initialInstall: pack.category == .initialInstall, preservation: preservation))
            }
        }
        // An app's own strategy that reads the packs' history has it from here on, for every pack.
        if eviction.strategy?.readsPackHistory == true { state.keepsHistory = true }
        if state.keepsHistory {
            state.history.reserveCapacity(state.packs.count)
            while state.history.count < state.packs.count { state.history.append(PackHistory()) }
        }
        state.apps.append(
            AppRecord(
                firstPack: first, catalog: catalog, allowsCellular: allowsCellular,
                lowDiskResponse: lowDiskResponse, rules: rules))
        state.policies.add(eviction.strategy)
        state.groupsPresent.insert(PurgeGroups(rules.group))
        if rules.appEvicts { state.someAppsEvict = true }
        if rules.cellularConfirmationBytes != .max { state.someAppsConfirmCellular = true }
        state.appLedgers.append(Ledger())
        if state.appLedgers.count == 2 && !state.tracksApps {
            // From the second app on, each app's counts are kept apart; until now everything
            // was the first app's (the device's own counts aside).
            state.tracksApps = true
            state.appLedgers[0] = state.ledger
        }
        state.appContents.append(
            AppContent(
                name: name, catalog: catalog, profile: profile,
                // A numbered catalog's tag `i` is pack `i`: ``AppRecord/tagsArePacks`` finds it
                // with no table. The first app's global pack indices equal its catalog's: share those arrays.
                tagPacks: numbered ? [] : catalog.tags.map { $0.packs.map(first.advanced(by:)) },
                singlePackOfTag: numbered
                    ? [] : catalog.tags.map { $0.packs.count == 1 ? first.advanced(by: $0.packs[0]) : .none },
                tagPreservation: numbered ? [] : catalog.tags.map(\.preservation), budget: eviction.budget,
                kept: Set(eviction.keep.flatMap { catalog.tag($0).packs.map(first.advanced(by:)) })))
        return id
    }

    /// Adds packs at the end of `app`'s catalog, as if it had held them from the start: the
    /// catalog must be numbered (``Catalog/init(numberedTags:names:profile:)``, every pack one
    /// tag) and `app` the last app added, since an app's packs are contiguous. The new packs
    /// are not on the device; they are requested like the others. Nothing else changes, so a
    /// device given its packs a piece at a time, each before its first request, runs as one
    /// given them all at once (a test holds it so).
    ///
    /// A trace replay that reads its trace while it replays it learns its objects as it goes,
    /// and adds each piece's new ones before their requests.
    /// - Throws: ``CatalogError`` when the catalog with the new packs fails the checks of
    ///   ``Catalog/init(numberedTags:names:profile:)``; the device is then unchanged.
    public func appendPacks(sizes: [Int64], names: [UInt64], to app: AppID) throws(CatalogError) {
        precondition(app.index == state.apps.count - 1, "only the last app's packs can grow: its packs are contiguous")
        try state.appContents[app.index].catalog.appendNumbered(sizes: sizes, names: names)
        state.packs.reserveCapacity(state.packs.count + sizes.count)
        state.packDetails.reserveCapacity(state.packs.count + sizes.count)
        for size in sizes {
            state.packs.append(PackRecord(app: app, size: size))
            state.packDetails.append(.plain)
        }
        if state.keepsHistory {
            while state.history.count < state.packs.count { state.history.append(PackHistory()) }
        }
        state.apps[app].packCount += Int32(sizes.count)
        state.apps[app].tagCount += Int32(sizes.count)
    }

    public func name(of app: AppID) -> String { state.appContents[app.index].name }
    public func catalog(of app: AppID) -> Catalog { state.appContents[app.index].catalog }
    public func isInstalled(_ app: AppID) -> Bool { state.apps[app].installed }
    public func isRunning(_ app: AppID) -> Bool { state.apps[app].running }
    /// How long the app has run (launch to termination, the current run included): the
    /// foreground time Android ranks apps by when it shares out cache quotas.
    public func foregroundSeconds(of app: AppID) -> Double {
        let content = state.appContents[app.index]
        return content.foregroundSeconds + (state.apps[app].running ? state.now - content.runningSince : 0)
    }
    /// How many apps the device knows (every app ID is below it), installed or not.
    public var appCount: Int { state.appContents.count }
    public func inUseBytes(of app: AppID) -> Int64 { state.apps[app].inUseBytes }

    // MARK: Packs

    public var packCount: Int { state.packs.count }
    /// The device-wide ID of pack `index` of `app`'s catalog.
    public func pack(_ index: Int, of app: AppID) -> PackID {
        state.apps[app].pack(Int32(index))
    }
    public func app(of pack: PackID) -> AppID { state.packs[pack].app }
    public func size(of pack: PackID) -> Int64 { state.packs[pack].size }

    /// A hint that `pack` is about to be requested: starts loading its record into the cache.
    /// Changes nothing; a replay that knows its next requests calls it a few ahead, so that
    /// each request finds its record loaded (on traces of millions of objects every record
    /// is a trip to memory otherwise).
    @inline(__always)
    public func prefetch(_ pack: PackID) {
        guard pack.index >= 0 && pack.index < state.packs.count else { return }
        odr_prefetch(state.packs.base + pack.index)
        // The hint reads no record: only a device whose apps run strategies of their own (never
        // a trace replay's) looks up the pack's app to find its policy.
        if _slowPath(state.policies.routes) { return tellRouted(pack) { policy, _ in policy.prefetch(pack) } }
        policy.prefetch(pack)
    }
    /// The pack's name in its app's catalog.
    public func name(of pack: PackID) -> String {
        let app = state.packs[pack].app
        return state.appContents[app.index].catalog.packs[Int(pack.rawValue - state.apps[app].firstPack.rawValue)].name
    }

    public func state(of pack: PackID) -> PackState {
        let p = state.packs[pack]
        let bytes = bytesOnDisk(pack)
        if p.downloading {
            return isRunnable(pack) ? .downloading(bytes: bytes) : .partiallyDownloaded(bytes: bytes)
        }
        switch p.phase {
        case .notDownloaded: return .notDownloaded
        case .partial: return .partiallyDownloaded(bytes: bytes)
        case .purged: return .purged
        case .resident: return p.retain > 0 ? .inUse(retainCount: Int(p.retain)) : .downloaded
        }
    }

    /// How many granted requests hold the pack.
    func retainCount(of pack: PackID) -> Int { Int(state.packs[pack].retain) }

    /// Whether the pack may be purged now (on the device, held and awaited by no request).
    func isPurgeable(_ pack: PackID) -> Bool { state.packs[pack].purgeable }

    /// The pack as a purge policy sees it (read its properties now: they follow the pack).
    public func candidate(_ pack: PackID) -> PurgeCandidate { candidate(at: pack) }

    // MARK: Internal helpers shared by the extensions

    /// The policy that hears of, and chooses among, the packs of `app` (``PolicyTable``).
    func policy(of app: AppID) -> any PurgePolicy { state.policies.strategy(of: app) ?? policy }

    /// Tells the policy of pack `p`'s app something about `p`. Performance: on a device where
    /// no app has a strategy of its own, the device's policy is called as a `let`, with no
    /// retain of the existential per notification.
    @inline(__always)
    func tell(_ p: PackID, _ message: (any PurgePolicy, PurgeCandidate) -> Void) {
        if _slowPath(state.policies.routes) { return tellRouted(p, message) }
        message(policy, candidate(at: p))
    }

    /// ``tell(_:_:)`` where apps have strategies of their own: out of line, so that the usual
    /// path keeps its registers.
    @inline(never)
    func tellRouted(_ p: PackID, _ message: (any PurgePolicy, PurgeCandidate) -> Void) {
        message(policy(of: state.packs[p].app), candidate(at: p))
    }

    func emit(_ kind: ODREvent.Kind) {
        guard state.recordsEvents else { return }
        if state.recordsOnlyGrants { guard case .requestGranted = kind else { return } }
        state.events.append(ODREvent(time: state.now, kind: kind))
    }

    func advance(to time: Double) {
        precondition(time >= state.now, "time went backwards: \(time) < \(state.now)")
        state.now = time
    }

    /// `uses` uses of pack `p` now (each takes the next use tick).
    @inline(__always)
    func touch(_ p: PackID, uses: UInt64 = 1) {
        // Performance: the tick and the time read before the record is written, so that the
        // stores through the record's address need not be followed by reloads of the state.
        let tick = state.useTick &+ uses
        let now = state.now
        state.useTick = tick
        state.packs.record(p.index).lastUseTick = tick
        if state.keepsHistory { state.history[p].lastUse = now }
    }

    func notePeak() {
        let used = usedBytes
        if used > state.ledger.peakUsedBytes { state.ledger.peakUsedBytes = used }
    }

    func fail(_ app: AppID, _ error: RequestError, request: RequestID? = nil) -> RequestOutcome {
        book(error, for: app)
        emit(.requestFailed(request, app, error))
        return .failed(error)
    }

    /// Bytes of pack `p` on the disk: its size when resident, else what arrived of it
    /// (``PackDetail/received``).
    @inline(__always)
    func bytesOnDisk(_ p: PackID) -> Int64 {
        let record = state.packs[p]
        return record.phase == .resident ? record.size : state.packDetails[p].received
    }

    /// Recomputes the cached purgeability of pack `p` and its app's totals.
    @inline(__always)
    func refresh(_ p: PackID) {
        // Performance: the tables' storage read once (a store to a record cannot move it),
        // and fields read where they are, not the whole record copied.
        let packs = state.packs
        let apps = state.apps
        let a = packs[p].app
        let settled = packs[p].pins == 0 && !packs[p].downloading
        let phase = packs[p].phase
        let purgeable = settled && phase == .resident && packs[p].retain == 0 && apps[a].isPresent
        let leftover = settled && phase == .partial
        setPurgeable(p, purgeable)
        if leftover != packs[p].leftover {
            packs[p].leftover = leftover
            let bytes = bytesOnDisk(p)
            if leftover { state.leftoverPacks.append(p) } else { removeLeftover(p) }
            state.leftoverBytes += leftover ? bytes : -bytes
        }
    }

    func removeLeftover(_ p: PackID) {
        guard let i = state.leftoverPacks.firstIndex(of: p) else { return }
        state.leftoverPacks.swapAt(i, state.leftoverPacks.count - 1)
        state.leftoverPacks.removeLast()
    }

    /// The pack as a policy sees it: a live view of its record, not a copy.
    func candidate(at p: PackID) -> PurgeCandidate {
        PurgeCandidate(device: self, pack: p)
    }

    func isCandidate(_ p: PackID, tier: PurgeTier) -> Bool {
        PurgeView.isCandidate(p, running: tier == .runningApps, packs: state.packs, apps: state.apps)
    }

    /// Whether a purge among `groups` may take any pack of the device's apps (the rule on a
    /// device of one platform), so that the device's totals answer for it.
    @inline(__always)
    func coversAllApps(_ groups: PurgeGroups) -> Bool {
        groups == .all || groups.isSuperset(of: state.groupsPresent)
    }

    func residentPacks() -> [PackID] {
        state.packs.indices.map(PackID.init).filter { state.packs[$0].phase == .resident }
    }

    /// Bytes and number of the purgeable packs of the tier's apps in `groups`.
    func purgeable(in tier: PurgeTier, groups: PurgeGroups = .all) -> (bytes: Int64, count: Int) {
        if coversAllApps(groups) { return tier == .runningApps ? state.runningAppsPurgeable : state.otherAppsPurgeable }
        // A device whose apps have different platforms: its few apps summed.
        var total: (bytes: Int64, count: Int) = (0, 0)
        let running = tier == .runningApps
        for a in state.apps.indices.map(AppID.init)
        where groups.contains(state.apps[a].rules.group) && state.apps[a].running == running {
            total.bytes += state.apps[a].purgeableBytes
            total.count += state.apps[a].purgeableCount
        }
        return total
    }

    func purgeableBytes(in tier: PurgeTier, groups: PurgeGroups = .all) -> Int64 {
        purgeable(in: tier, groups: groups).bytes
    }

    func candidateCount(in tier: PurgeTier, groups: PurgeGroups = .all) -> Int {
        purgeable(in: tier, groups: groups).count
    }

    /// Everything the device could free by purging the packs of apps in `groups`.
    func reclaimableBytes(in groups: PurgeGroups) -> Int64 {
        if coversAllApps(groups) {
            return state.leftoverBytes + state.runningAppsPurgeable.bytes + state.otherAppsPurgeable.bytes
        }
        if state.groupsPresent.isDisjoint(with: groups) { return 0 }
        var bytes: Int64 = 0
        for p in state.leftoverPacks where groups.contains(state.apps[state.packs[p].app].rules.group) {
            bytes += bytesOnDisk(p)
        }
        return bytes + purgeableBytes(in: .appsNotRunning, groups: groups)
            + purgeableBytes(in: .runningApps, groups: groups)
    }

    /// Moves app `a` to its next phase on `event` (``AppPhase``); false if the event does
    /// nothing in its phase. When the app starts or stops running, its purgeable packs move
    /// to the other tier's totals.
    @discardableResult
    func move(_ a: AppID, _ event: AppPhase.Event) -> Bool {
        guard let next = state.apps[a].phase.after(event) else { return false }
        let wasRunning = state.apps[a].running
        state.apps[a].phase = next
        if next.isRunning != wasRunning {
            if next.isRunning {
                state.appContents[a.index].runningSince = state.now
            } else {
                state.appContents[a.index].foregroundSeconds += state.now - state.appContents[a.index].runningSince
            }
            let bytes = state.apps[a].purgeableBytes
            let count = state.apps[a].purgeableCount
            addToTier(ofRunning: wasRunning, bytes: -bytes, count: -count)
            addToTier(ofRunning: next.isRunning, bytes: bytes, count: count)
        }
        return true
    }

    /// Sets pack `p`'s purgeable flag, and its app's and tier's totals with it.
    @inline(__always)
    func setPurgeable(_ p: PackID, _ purgeable: Bool) {
        let packs = state.packs
        let apps = state.apps
        guard purgeable != packs[p].purgeable else { return }
        packs[p].purgeable = purgeable
        let a = packs[p].app
        let bytes = purgeable ? packs[p].size : -packs[p].size
        let count = purgeable ? 1 : -1
        apps[a].purgeableBytes += bytes
        apps[a].purgeableCount += count
        addToTier(ofRunning: apps[a].running, bytes: bytes, count: count)
    }

    @inline(__always)
    private func addToTier(ofRunning running: Bool, bytes: Int64, count: Int) {
        if running {
            state.runningAppsPurgeable.bytes += bytes
            state.runningAppsPurgeable.count += count
        } else {
            state.otherAppsPurgeable.bytes += bytes
            state.otherAppsPurgeable.count += count
        }
    }
}
