/// The mutable state of an ``ODRDevice``: its record tables (apps, packs, requests), the
/// clock and link, the byte accounts, download and request slots, counters, and what the
/// device outputs (events and the ledger). The device's public properties read it.
///
/// Performance: the device holds all of it in one stored property, ``ODRDevice/state``, and
/// that property is the one place where Swift's run-time exclusivity check is switched off.
/// The check (a thread-local access set updated on every `state.odrBytes += …` of a class's
/// stored property) cost a quarter of a scenario run's time when these were separate
/// properties of the device. The device is single-threaded and never keeps an access to its
/// state open across a call out (to a policy, say): every access is a single statement, so
/// the check could never fire, and dropping it changes nothing but speed.
struct DeviceState {
    /// The own strategies of the apps that run one (the system's policy is the device's).
    var policies = PolicyTable()
    /// Per app, what changes as it is installed, launched and used.
    var apps = RecordTable<AppRecord>()
    /// Per pack, what a request touches: two to a cache line.
    var packs = RecordTable<PackRecord>(alignment: 64)
    /// Per pack, beside ``packs``: what only downloads, updates and preservation write.
    var packDetails = PagedRecordTable<PackDetail>(fill: .plain)
    /// Per pack, with ``keepsHistory``: what only some policies read (empty otherwise).
    var history = RecordTable<PackHistory>()
    /// Whether a policy of the device reads its packs' history (``PurgePolicy/readsPackHistory``).
    var keepsHistory = false
    /// Per request slot (slots are reused once a request ends).
    var requests = RecordTable<RequestRecord>()
    /// The victims of the purge step under way, copied out of the policy's answer
    /// (``ODRDevice/purge(_:groups:)`` says why).
    var victims = RecordTable<PackID>()
    /// Which request slots are free for reuse.
    var requestSlots = SlotPool()
    /// Bytes of everything that is not ODR content.
    var otherBytes: Int64 = 0
    /// Bytes of ODR content on disk, partial downloads included.
    var odrBytes: Int64 = 0
    /// Bytes reserved for the rest of running downloads.
    var reservedBytes: Int64 = 0
    var link: LinkState = .wifi
    /// The latest time the device was given.
    var now: Double = 0
    /// Everything that happened since the caller last cleared the list (output).
    var events: [ODREvent] = []
    var recordsEvents = true
    var recordsOnlyGrants = false
    /// The counts the device keeps as it goes (output).
    var ledger = Ledger()
    /// The same counts per app (by app ID), for what belongs to one app: its requests, its
    /// packs' downloads and purges, its failures and launches (not purge episodes, low-disk
    /// warnings, other data or the disk's peak, which are the device's).
    var appLedgers: [Ledger] = []
    /// Whether the device has more than one app, so that per-app counts differ from the
    /// device's. Performance: a trace replay's device has one app, whose ledger is the
    /// device's; counting twice cost 7 % of its instructions.
    var tracksApps = false
    /// The ``PurgeGroup``s of the device's apps: one on a device of one platform.
    var groupsPresent: PurgeGroups = []
    /// Whether any app's own code removes its packs (``PurgeGroups`` beyond the system's).
    var someAppsEvict = false
    /// Whether any app's platform makes large cellular downloads wait for the user.
    var someAppsConfirmCellular = false
    /// Whether any pack was ever retired (``ODRDevice/retirePack(_:at:)``): requests check
    /// for obsolete packs only then.
    var somePacksObsolete = false
    /// Whether any app awaits the user's consent to its downloads (``AppRecord/awaitsUserConfirmation``).
    var someAppsAwaitConfirmation = false
    /// Whether every transfer on the link is stalled (``ODRDevice/setTransferStalled(_:_:at:)``).
    var linkStalled = false
    /// Packs whose own transfer is stalled; with `linkStalled`, whether stalls are looked at.
    var stalledTransfers: Set<PackID> = []
    var someTransfersStalled: Bool { linkStalled || !stalledTransfers.isEmpty }
    /// Requests begun so far; the ordinal of the latest.
    var requestOrdinal: Int64 = 0
    /// Bumped whenever the set of downloads, their priorities or their runnability change.
    var revision: UInt64 = 0
    /// Per app, what is fixed at ``ODRDevice/addApp(name:catalog:)``: its catalog and packs.
    var appContents: [AppContent] = []
    /// Per download slot (``PackRecord/download`` of a running download), the requests
    /// waiting for it. Slots are reused and keep their lists' storage, so a miss allocates
    /// nothing, and these few lists stay in cache.
    var downloadWaiters: [DownloadWaiters] = []
    /// Which download slots are free for reuse.
    var downloadSlots = SlotPool()
    /// Per download slot, the pack's bytes on disk when its download started: what a
    /// download fetched is its bytes on disk minus this.
    var downloadBase: [Int64] = []
    /// Per download slot: the space reserved beside the pack for its compressed download while
    /// it is fetched and extracted (``PlatformProfile/unpackShare``).
    var downloadUnpack: [Int64] = []
    /// Per request slot, the packs of a multi-pack request (empty for single-pack ones).
    var requestPackArrays: [[PackID]] = []
    /// Packs with a download under way, in start order.
    var downloadOrder: [PackID] = []
    /// Device-wide order of pack uses (``PurgeCandidate/lastUseTick``).
    var useTick: UInt64 = 0
    /// Purge episodes so far.
    var episode = 0
    /// Packs that are leftovers (partial, no longer downloading), in no order: a purge takes
    /// them first, and reading them here rather than scanning every pack record matters
    /// with ten thousand packs.
    var leftoverPacks: [PackID] = []
    var leftoverBytes: Int64 = 0
    /// Purgeable packs of running apps and of the others, in bytes and in number: the sums
    /// over apps, kept as they change, since a purge asks for them per tier.
    var runningAppsPurgeable: (bytes: Int64, count: Int) = (0, 0)
    var otherAppsPurgeable: (bytes: Int64, count: Int) = (0, 0)

    /// Frees the record tables; called once, by the device's `deinit`.
    func deallocate() {
        packs.deallocate()
        packDetails.deallocate()
        victims.deallocate()
        history.deallocate()
        requests.deallocate()
        apps.deallocate()
        requestSlots.deallocate()
        downloadSlots.deallocate()
    }
}
