/// A purge strategy: decides which asset packs to purge when the device needs space.
///
/// The device keeps the policy informed with the four notifications (all optional), so an
/// incremental policy can keep its own index and answer in time proportional to the victims;
/// a simple one can ignore them and read ``PurgeView/candidates`` instead.
///
/// The device verifies every answer: each victim must be a candidate of the view, listed
/// once, and together they must free the bytes asked for, or be every candidate there is.
/// A wrong answer stops the program with a message naming the policy, since a silently
/// corrected policy would make every comparison built on it wrong.
public protocol PurgePolicy: AnyObject {
    /// The name used on the command line and in reports.
    var name: String { get }
    /// The pack finished downloading and is now on the device (admission).
    func packStored(_ pack: PurgeCandidate)
    /// A request included the pack while it was on the device (a hit for this pack).
    func packRequested(_ pack: PurgeCandidate)
    /// The pack's last holder ended access.
    func packReleased(_ pack: PurgeCandidate)
    /// The pack left the device (purged or its app uninstalled).
    func packRemoved(_ pack: PurgeCandidate)
    /// The pack's preservation priority changed (one of its tags was given a new one).
    func packPreservationChanged(_ pack: PurgeCandidate)
    /// Victims, in purge order, to free at least `bytes` among the view's candidates.
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID]
    /// A hint that the pack will be requested soon (``ODRDevice/prefetch(_:)``): a policy
    /// with an entry per pack may start loading it into the cache. It must change nothing.
    func prefetch(_ pack: PackID)
    /// Whether the policy answers ``admission(of:needing:)``; a device asks only a policy that
    /// does (read once, when the device is made).
    var decidesAdmission: Bool { get }
    /// On a single-pack access's miss (a trace replay's request), before any room is made:
    /// keep the arriving `pack`, or decline it (``Admission``). `bytes` is what the device
    /// must free to store it (0 when it fits). It must change nothing but the policy's own
    /// state for this arrival.
    func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission
    /// Whether the policy evicts on its own (``takeOwnEvictions()``); read once, when the
    /// device is made.
    var evictsOnItsOwn: Bool { get }
    /// The packs the policy chose to evict since it was last asked, beyond any purge the
    /// device asked for: a cache that evicts on a hit (SLRU cooling its segments) or within a
    /// part of itself that an arrival joins (2Q's main queue). A trace replay's access asks
    /// after the notifications it makes and removes them at once, in one purge episode that
    /// needed nothing. Elsewhere nobody asks: the packs stay until the next purge, and a policy
    /// names them first there. Each must be a resident pack that no request holds, listed once.
    func takeOwnEvictions() -> [PackID]
    /// Whether the policy reads a pack's history: ``PurgeCandidate/lastUse``,
    /// ``PurgeCandidate/storedTick``, ``PurgeCandidate/lastRequestOrdinal`` and
    /// ``PurgeCandidate/purgeCount``. A device keeps them (32 bytes a pack) only where a
    /// policy says so (read once, when the device is made or the app whose strategy it is
    /// added); reading them otherwise stops the program.
    var readsPackHistory: Bool { get }
    /// Whether ``packReleased(_:)`` changes nothing when it comes right after
    /// ``packRequested(_:)`` or ``packStored(_:)`` of the same pack, with no other notification
    /// between (a default ``packReleased(_:)`` that does nothing, or an LRU's move to the back
    /// of a pack already there). A device then leaves it out of an access that begins and
    /// ends at one instant (``ODRDevice/access(_:tag:at:)``, a trace replay's line), unless the
    /// policy evicts on its own, whose evictions come between. Read once, when the device is
    /// made; false unless the policy says so.
    var ignoresReleaseAfterUse: Bool { get }
}

extension PurgePolicy {
    public func packStored(_ pack: PurgeCandidate) {}
    public func packRequested(_ pack: PurgeCandidate) {}
    public func packReleased(_ pack: PurgeCandidate) {}
    public func packRemoved(_ pack: PurgeCandidate) {}
    public func packPreservationChanged(_ pack: PurgeCandidate) {}
    public func prefetch(_ pack: PackID) {}
    public var decidesAdmission: Bool { false }
    public func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission { .keep }
    public var evictsOnItsOwn: Bool { false }
    public func takeOwnEvictions() -> [PackID] { [] }
    public var readsPackHistory: Bool { false }
    public var ignoresReleaseAfterUse: Bool { false }
}
