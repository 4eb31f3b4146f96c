import CPrefetch

/// The purgeable packs one purge step may choose from, read-only.
///
/// Building ``candidates`` costs time proportional to the packs on the device; incremental
/// policies test their own entries with ``isCandidate(_:)`` instead.
public struct PurgeView {
    unowned(unsafe) let device: ODRDevice
    /// Whose packs this step chooses from: a tier of apps (the system purges), or one app
    /// whose own code removes its packs.
    public let scope: PurgeScope
    /// The time of the space demand.
    public let time: Double
    // Performance: the device's pack and app tables as they are during this step (no pack or
    // app is added while a policy chooses), so that ``isCandidate(_:)``, asked for every pack
    // a policy passes over, reads two records and touches no reference count; and the scope
    // unpacked once, as the running state its packs' apps have and the app that evicts.
    @usableFromInline let packs: RecordTable<PackRecord>
    @usableFromInline let apps: RecordTable<AppRecord>
    @usableFromInline let running: Bool
    private let evictor: AppID?
    /// Whose packs the system may take in this step, where the device's apps have different
    /// platforms (``RoomMaker``); nil: any app's of the tier (a device of one platform).
    private let groups: PurgeGroups?
    /// Neither `groups` nor `evictor`: the step may take any candidate of the tier.
    @usableFromInline let takesWholeTier: Bool

    init(device: ODRDevice, scope: PurgeScope, groups: PurgeGroups, time: Double) {
        self.device = device
        self.scope = scope
        self.time = time
        packs = device.state.packs
        apps = device.state.apps
        self.groups = device.coversAllApps(groups) ? nil : groups
        switch scope {
        case .tier(let tier):
            running = tier == .runningApps
            evictor = nil
        case .app(let app):
            running = device.state.apps[app].running
            evictor = app
        }
        takesWholeTier = self.groups == nil && evictor == nil
    }

    /// Whether `pack` may be purged in this step.
    public func isCandidate(_ pack: PackID) -> Bool { admits(pack) }

    /// The bytes purging `pack` would free if it may be purged in this step; nil if it may not.
    ///
    /// Performance: one question for a policy's two about the pack it passes over (is it a
    /// candidate, and how much would it free), answered from the one record line the first
    /// reads, so a policy need keep no column of sizes of its own; inlinable into a policy's
    /// walk over its queue, where a step of the system's over a device of one platform (every
    /// trace replay) reads two records and calls nothing.
    @inlinable
    public func candidateSize(_ pack: PackID) -> Int64? {
        guard Self.isCandidate(pack, running: running, packs: packs, apps: apps) else { return nil }
        if _slowPath(!takesWholeTier) { return admitsInScope(pack) ? packs[pack].size : nil }
        return packs[pack].size
    }

    /// Whether `pack` may be purged in this step: ``candidateSize(_:)`` not nil, inline for
    /// the device's check of every victim.
    @inline(__always)
    func admits(_ pack: PackID) -> Bool {
        guard Self.isCandidate(pack, running: running, packs: packs, apps: apps) else { return false }
        return takesWholeTier || admitsInScope(pack)
    }

    /// Whether the candidate `pack` is of an app whose packs this step may take: of the
    /// groups the system may purge here, and the evicting app's own removable pack.
    @usableFromInline @inline(never)
    func admitsInScope(_ pack: PackID) -> Bool {
        if let groups, !groups.contains(apps[packs[pack].app].rules.group) { return false }
        if let evictor, !device.isRemovable(pack, by: evictor) { return false }
        return true
    }

    /// A hint that `pack` is likely among the victims of the next purge (the front of a
    /// queue once this step's victims are gone): starts loading the device's record of it,
    /// which that purge reads first (a resident victim's detail is not read). Changes nothing.
    ///
    /// Performance: on traces of millions of objects, where nearly every request misses, the
    /// victim's records are otherwise the one trip to memory of a purge that nothing hides.
    @inline(__always)
    public func prefetch(_ pack: PackID) {
        guard pack.index >= 0 && pack.index < packs.count else { return }
        odr_prefetch(packs.base + pack.index)
    }

    /// Whether pack `p` is purgeable and of an app whose running state is `running`.
    @inlinable
    static func isCandidate(_ p: PackID, running: Bool, packs: RecordTable<PackRecord>, apps: RecordTable<AppRecord>)
        -> Bool
    {
        guard p.index >= 0, p.index < packs.count, packs[p].purgeable else { return false }
        return apps[packs[p].app].running == running
    }

    /// Whether `app`'s packs may be among this step's: apps of the tier, or the evicting app.
    public func isInScope(_ app: AppID) -> Bool {
        switch scope {
        case .tier:
            device.state.apps[app].running == running && (groups?.contains(device.state.apps[app].rules.group) ?? true)
        case .app(let evictor): app == evictor
        }
    }

    /// Any pack of the device as a policy sees it, candidate or not (read it during the call).
    public func info(_ pack: PackID) -> PurgeCandidate {
        device.candidate(at: pack)
    }

    /// Every candidate of this step, in pack order.
    public var candidates: [PurgeCandidate] {
        device.residentPacks().filter(isCandidate).map { device.candidate(at: $0) }
    }

    /// The bytes packs may take on the device now: its capacity less other data (the whole
    /// disk in a trace replay). A policy that sizes its queues in proportion to the cache
    /// reads it (S3-FIFO's small queue is a tenth of it).
    public var cacheBytes: Int64 { device.capacity - device.otherBytes }

    /// The device's whole disk, and what is free on it now (before this step's victims go):
    /// Android sizes its cache quotas from the free space.
    public var capacity: Int64 { device.capacity }
    public var freeBytes: Int64 { device.freeBytes }

    /// How many apps the device knows (every app ID is below it).
    public var appCount: Int { device.appCount }
    /// Whether `app` is on the device (installed or installing).
    public func isPresent(_ app: AppID) -> Bool { device.state.apps[app].isPresent }
    /// The app's name (its scenario id), for options given per app.
    public func name(of app: AppID) -> String { device.name(of: app) }
    /// How long `app` has run so far (``ODRDevice/foregroundSeconds(of:)``).
    public func foregroundSeconds(of app: AppID) -> Double { device.foregroundSeconds(of: app) }

    /// The number of requests begun on the device so far (the ordinal of the latest one).
    public var requestOrdinal: Int64 { device.requestOrdinal }

    /// Total bytes of all candidates.
    public var candidateBytes: Int64 {
        switch scope {
        case .tier(let tier): device.purgeableBytes(in: tier, groups: groups ?? .all)
        case .app(let app): device.removableBytes(of: app).bytes
        }
    }

    /// The number of candidates.
    public var candidateCount: Int {
        switch scope {
        case .tier(let tier): device.candidateCount(in: tier, groups: groups ?? .all)
        case .app(let app): device.removableBytes(of: app).count
        }
    }
}
