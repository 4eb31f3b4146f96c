/// The purgeable packs one purge step may choose from, read-only.
///
/// Building ``candidates`` costs time proportional to the packs on the device; incremental
/// policies test their own entries with ``isCandidate(_:)`` instead.
public struct PurgeView {
    unowned(unsafe) let device: ODRDevice
    /// The tier this step chooses from.
    public let tier: PurgeTier
    /// The time of the space demand.
    public let time: Double

    init(device: ODRDevice, tier: PurgeTier, time: Double) {
        self.device = device
        self.tier = tier
        self.time = time
    }

    /// Whether `pack` may be purged in this step.
    public func isCandidate(_ pack: PackID) -> Bool {
        // Performance: a method call on an unowned(unsafe) reference retains and releases
        // it; a policy asks this for every pack it passes over.
        Unmanaged.passUnretained(device)._withUnsafeGuaranteedRef { $0.isCandidate(Int(pack.rawValue), tier: tier) }
    }

    /// Whether `app`'s packs belong to this step's tier (running or not running).
    public func isInTier(_ app: AppID) -> Bool {
        device.state.apps[Int(app.rawValue)].running == (tier == .runningApps)
    }

    /// Any pack of the device as a policy sees it, candidate or not (read it during the call).
    public func info(_ pack: PackID) -> PurgeCandidate {
        device.candidate(at: Int(pack.rawValue))
    }

    /// Every candidate of this step, in pack order.
    public var candidates: [PurgeCandidate] {
        device.residentPackIndices().filter { device.isCandidate($0, tier: tier) }.map { device.candidate(at: $0) }
    }

    /// The number of requests begun on the device so far (the ordinal of the latest one).
    public var requestOrdinal: Int64 { device.requestOrdinal }

    /// Total bytes of all candidates.
    public var candidateBytes: Int64 { device.purgeableBytes(in: tier) }
}
