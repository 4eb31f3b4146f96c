import CPrefetch

/// The purgeable packs one purge step may choose from, read-only.
///
/// Building ``candidates`` costs time proportional to the packs on the device; incremental
/// policies test their own entries with ``isCandidate(_:)`` instead.
public struct PurgeView {
    unowned(unsafe) let device: ODRDevice
    /// The tier this step chooses from.
    public let tier: PurgeTier
    /// The app whose own code removes packs in this step (Background Assets, Play Asset
    /// Delivery): only its removable packs are candidates. Nil when the system purges (ODR).
    public let app: AppID?
    /// The time of the space demand.
    public let time: Double
    // Performance: the device's pack and app tables as they are during this step (no pack or
    // app is added while a policy chooses), so that ``isCandidate(_:)``, asked for every pack
    // a policy passes over, reads two records and touches no reference count.
    private let packs: RecordTable<PackRecord>
    private let apps: RecordTable<AppRecord>

    init(device: ODRDevice, tier: PurgeTier, time: Double, app: AppID? = nil) {
        self.device = device
        self.tier = tier
        self.time = time
        self.app = app
        packs = device.state.packs
        apps = device.state.apps
    }

    /// Whether `pack` may be purged in this step.
    public func isCandidate(_ pack: PackID) -> Bool {
        guard Self.isCandidate(pack, tier: tier, packs: packs, apps: apps) else { return false }
        guard let app else { return true }
        return device.isRemovable(pack, by: app)
    }

    /// The bytes purging `pack` would free if it may be purged in this step; nil if it may not.
    ///
    /// Performance: one call for a policy's two questions about the pack it passes over (is it
    /// a candidate, and how much would it free), answered from the one record line the first
    /// reads, so a policy need keep no column of sizes of its own.
    public func candidateSize(_ pack: PackID) -> Int64? {
        guard Self.isCandidate(pack, tier: tier, packs: packs, apps: apps) else { return nil }
        if let app, !device.isRemovable(pack, by: app) { return nil }
        return packs[pack].size
    }

    /// A hint that `pack` is likely among the victims of the next purge (the front of a
    /// queue once this step's victims are gone): starts loading the device's records of it,
    /// which that purge reads first. Changes nothing.
    ///
    /// Performance: on traces of millions of objects, where nearly every request misses, the
    /// victim's records are otherwise the one trip to memory of a purge that nothing hides.
    @inline(__always)
    public func prefetch(_ pack: PackID) {
        guard pack.index >= 0 && pack.index < packs.count else { return }
        odr_prefetch(packs.base + pack.index)
        odr_prefetch(device.state.packDetails.base + pack.index)
    }

    /// Whether pack `p` is purgeable and of an app in `tier`.
    @inline(__always)
    static func isCandidate(_ p: PackID, tier: PurgeTier, packs: RecordTable<PackRecord>, apps: RecordTable<AppRecord>) -> Bool {
        guard p.index >= 0, p.index < packs.count, packs[p].purgeable else { return false }
        return apps[packs[p].app].running == (tier == .runningApps)
    }

    /// Whether `app`'s packs belong to this step's tier (running or not running).
    public func isInTier(_ app: AppID) -> Bool {
        device.state.apps[app].running == (tier == .runningApps)
    }

    /// Any pack of the device as a policy sees it, candidate or not (read it during the call).
    public func info(_ pack: PackID) -> PurgeCandidate {
        device.candidate(at: pack)
    }

    /// Every candidate of this step, in pack order.
    public var candidates: [PurgeCandidate] {
        device.residentPacks().filter(isCandidate).map { device.candidate(at: $0) }
    }

    /// The number of requests begun on the device so far (the ordinal of the latest one).
    public var requestOrdinal: Int64 { device.requestOrdinal }

    /// Total bytes of all candidates.
    public var candidateBytes: Int64 {
        guard let app else { return device.purgeableBytes(in: tier) }
        return device.removableBytes(of: app).bytes
    }

    /// The number of candidates.
    var candidateCount: Int {
        guard let app else { return device.candidateCount(in: tier) }
        return device.removableBytes(of: app).count
    }
}
