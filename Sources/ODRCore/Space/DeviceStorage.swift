/// Internal per-app state of an ``ODRDevice`` that changes as it runs (plain data: see
/// ``RecordTable``); what is fixed per app lives in ``AppContent``.
struct AppRecord: BitwiseCopyable {
    /// The app's first pack; its packs are contiguous.
    let firstPack: PackID
    let packCount: Int32
    let tagCount: Int32
    /// Tag `i` is exactly pack `i` (a catalog of single-resource tags, as in trace replay),
    /// so a tag's pack is found without reading the catalog.
    let tagsArePacks: Bool
    let allowsCellular: Bool
    var lowDiskResponse: LowDiskResponse
    /// The app's own platform's rules (``PlatformProfile``), as the device reads them: who
    /// may remove its packs (``RoomMaker/group(of:)``), and its limits.
    let rules: AppRules

    /// Absent, installing or installed, and running (see ``AppPhase`` for what moves it).
    var phase = AppPhase.absent
    var pendingInitial = 0
    var prefetchCursor = 0
    var prefetchActive = PackID.none
    /// Bytes of the app's packs held by granted requests.
    var inUseBytes: Int64 = 0
    /// Bytes of the app's packs held or awaited by its requests (retain or pins above 0):
    /// what its requests will hold once granted, which the in-use limit counts.
    var committedBytes: Int64 = 0
    /// Bytes and number of the app's packs that may be purged.
    var purgeableBytes: Int64 = 0
    var purgeableCount = 0
    /// The user let the app's large downloads use cellular data (``ODRDevice/confirmCellular(_:at:)``).
    var cellularConfirmed = false
    /// The app was not installed through Google Play: its asset-pack downloads (all but
    /// install-time ones) wait for the user's consent, Play's `REQUIRES_USER_CONFIRMATION`,
    /// until ``ODRDevice/confirmCellular(_:at:)`` (the same dialog answers both).
    var awaitsUserConfirmation = false

    init(firstPack: PackID, catalog: Catalog, allowsCellular: Bool, lowDiskResponse: LowDiskResponse, rules: AppRules) {
        self.firstPack = firstPack
        self.rules = rules
        packCount = Int32(catalog.packs.count)
        tagCount = Int32(catalog.tags.count)
        tagsArePacks = catalog.tagsArePacks
        self.allowsCellular = allowsCellular
        self.lowDiskResponse = lowDiskResponse
    }

    var isPresent: Bool { phase.isPresent }
    var installing: Bool { phase.isInstalling }
    var installed: Bool { phase.isInstalled }
    var running: Bool { phase.isRunning }
    /// The app's packs, in order.
    var packs: PackRange { PackRange(first: firstPack.rawValue, count: packCount) }
    /// The app's pack that is its catalog's pack `local`.
    func pack(_ local: Int32) -> PackID { firstPack.advanced(by: local) }
}

/// What the device reads of an app's ``PlatformProfile`` while it runs, as plain data: an app
/// may have a platform of its own beside the device's (an ODR app and a Background Assets
/// app on one iPhone).
struct AppRules: BitwiseCopyable {
    /// Who removes the app's packs (see ``PurgeGroup``).
    let group: PurgeGroup
    /// ``PlatformProfile/appEvictsWhenFull``.
    let evictsWhenFull: Bool
    /// ``PlatformProfile/systemPurgesBeforeAppEvicts``.
    let systemFirst: Bool
    /// ``PlatformProfile/initialPacksRemovable``.
    let initialPacksRemovable: Bool
    /// ``PlatformProfile/installFailsWithoutInitialSpace``.
    let installFailsWithoutInitialSpace: Bool
    /// ``PlatformProfile/maxInUseSize``; `Int64.max`: no limit.
    let maxInUseBytes: Int64
    /// ``PlatformProfile/cellularConfirmationBytes``; `Int64.max`: no download waits.
    let cellularConfirmationBytes: Int64

    /// Whether the app's own code removes its packs (Background Assets, Play).
    var appEvicts: Bool { group != .system }
}

/// Internal per-app content of an ``ODRDevice``: its catalog and what is derived from it.
struct AppContent {
    let name: String
    let catalog: Catalog
    /// The app's platform (the device's unless the app names its own).
    let profile: PlatformProfile
    /// Global pack indices of each tag, shared by single-tag requests without copying; empty
    /// for a numbered catalog (see ``packs(ofTag:)``).
    let tagPacks: [[PackID]]
    /// For each tag made of exactly one pack, that pack's global index; -1 otherwise. Empty
    /// when ``AppRecord/tagsArePacks``.
    let singlePackOfTag: [PackID]
    /// Each tag's preservation priority; empty for a numbered catalog, whose tag is its pack.
    var tagPreservation: [Double]
    var prefetchQueue: [PackID] = []
    /// Most bytes the app's own code lets its packs take (``Evictor/app``); nil: no budget.
    var budget: Int64? = nil
    /// Bytes above the budget now, and since when (``ODRDevice/noteBudget(of:)``).
    var overBudget: Int64 = 0
    var overBudgetSince: Double = 0
    /// The app's answer to Background Assets' `shouldDownload(_:)` for its automatic
    /// (essential and prefetch) downloads (``ODRDevice/setAutomaticDownloadFilter(of:_:)``).
    var automaticFilter: AutomaticDownloadFilter? = nil
    /// Packs the app's own code never removes (`apps[].keep`): the packs of those tags.
    var kept: Set<PackID> = []
    /// When a launch began waiting for the install to finish, while it waits.
    var launchWaitingSince: Double? = nil
    /// The install under way is an update of the app (``ODRDevice/updateApp(_:at:)``).
    var updating = false
    /// Seconds the app ran before its current run, and when the current run began: its
    /// foreground time (``ODRDevice/foregroundSeconds(of:)``).
    var foregroundSeconds: Double = 0
    var runningSince: Double = 0
}

/// Where a pack's bytes rest: the stored part of its life (``PackLife``, where the table of
/// what moves it is). The rest is in its ``PackRecord``: a running download (`download` ≥ 0,
/// with `stalled` in its ``PackDetail``), requests awaiting it (`pins`) or holding it
/// (`retain`), and the two flags derived from all of these by `refresh` (`purgeable`,
/// `leftover`). As the public ``PackState`` says it: `notDownloaded` and `purged` (must be
/// fetched again: a re-download) are not on the device; `partial` is partially downloaded,
/// a *leftover* unless pinned, purged first; `resident` is downloaded, in use while
/// `retain` > 0, purgeable when neither held nor awaited and its app is on the device.
enum PackPhase: UInt8 {
    case notDownloaded, partial, resident, purged
}

/// Internal per-pack record of an ``ODRDevice`` (plain data: see ``RecordTable``): what a
/// request reads or writes, and what purging a victim reads.
///
/// Performance: it fills one 64-byte cache line exactly, and the table aligns records to
/// cache lines, so a hit touches one line (a test pins this layout). The rest of a pack's
/// state, which only downloads, admissions and purge episodes touch, is its ``PackDetail``
/// in a table of its own: 104 bytes a pack in all, where one two-line record took 128, which
/// counts when a trace replay holds a pack per object of millions.
struct PackRecord: BitwiseCopyable {
    let app: AppID
    var retain: Int32 = 0
    /// Requests waiting for their other packs hold this one so it is not purged under them.
    var pins: Int32 = 0
    /// The slot of the pack's running download (its waiters' list), or -1.
    var download: Int32 = -1
    let size: Int64
    var bytesOnDisk: Int64 = 0
    var lastUse: Double = 0
    var lastUseTick: UInt64 = 0
    var lastRequestOrdinal: Int64 = 0
    /// Saturates at `Int32.max` (2 billion requests of one pack) to fit this line.
    var requestCount: Int32 = 0
    var phase: PackPhase = .notDownloaded
    var purgeable = false
    /// A partial download nobody continues: the first thing to purge.
    var leftover = false
    /// `purgeCount > 0`, here so that counting re-downloaded bytes reads only this line.
    var purgedBefore = false

    init(app: AppID, size: Int64) {
        self.app = app
        self.size = size
    }

    var downloading: Bool { download >= 0 }
    /// The download slot, as the per-download tables index it (valid while downloading).
    var downloadSlot: Int { Int(download) }
}

/// The rest of a pack's state beside its ``PackRecord`` (plain data, 40 bytes: the fields
/// in this order leave no padding but the tail's).
struct PackDetail: BitwiseCopyable {
    /// Device-wide order of admission.
    var storedTick: UInt64 = 0
    var preservation: Double
    let category: TagCategory
    var purgeCount: Int32 = 0
    /// The purge episode that last counted the pack (see `markEpoch`).
    var mark: UInt32 = 0
    var systemDownload = false
    var stalled = false
    /// Its versions' state, in one byte so that the record stays 40 bytes.
    private var versions: UInt8 = 0
    /// The pack's old version was removed by an update: its next download is the new version.
    var updatePending: Bool {
        get { versions & 1 != 0 }
        set { versions = newValue ? versions | 1 : versions & ~1 }
    }
    /// A newer version was published, and the device still holds this older one
    /// (``PlatformProfile/keepsOutdatedVersions``): a latest-version request fetches the new.
    var outdated: Bool {
        get { versions & 2 != 0 }
        set { versions = newValue ? versions | 2 : versions & ~2 }
    }
    /// Its publication was withdrawn (``ODRDevice/retirePack(_:at:)``): never fetched again.
    var obsolete: Bool {
        get { versions & 4 != 0 }
        set { versions = newValue ? versions | 4 : versions & ~4 }
    }

    init(category: TagCategory, preservation: Double) {
        self.category = category
        self.preservation = preservation
    }
}

/// The packs of a request: one pack inline (the common case: a tag that is one pack), or an
/// array. Performance: a single-pack request then touches no array at all.
struct PackList: RandomAccessCollection {
    /// The only pack when there is one, else ``PackID/none``.
    let single: PackID
    private let many: [PackID]?

    init() {
        single = .none
        many = nil
    }

    init(single pack: PackID) {
        single = pack
        many = nil
    }

    init(_ packs: [PackID]) {
        if packs.count == 1 {
            single = packs[0]
            many = nil
        } else {
            single = .none
            many = packs
        }
    }

    /// The packs when there are several (or none), else nil.
    var array: [PackID]? { many }

    var startIndex: Int { 0 }
    var endIndex: Int { single.isNone ? many?.count ?? 0 : 1 }
    subscript(position: Int) -> PackID { single.isNone ? many![position] : single }
}

/// An app's packs: consecutive identities, iterated without an array.
struct PackRange: RandomAccessCollection {
    let first: Int32
    let count: Int32
    var startIndex: Int { 0 }
    var endIndex: Int { Int(count) }
    subscript(position: Int) -> PackID { PackID(rawValue: first + Int32(truncatingIfNeeded: position)) }
}

/// Internal per-request record of an ``ODRDevice``; slots are reused. Plain data: the packs
/// of a multi-pack request live beside it, in the device's `requestPackArrays`.
struct RequestRecord: BitwiseCopyable {
    var generation: UInt32 = 0
    /// Written only by ``ODRDevice/move(request:_:)`` (``RequestLife``).
    var life = RequestLife.free
    var app = AppID(rawValue: 0)
    /// The request's only pack, or ``PackID/none`` when it has several (or none).
    var single = PackID.none
    var priority = LoadingPriority.normal
    var optional = false
    var begunAt: Double = 0
    var missing: Int32 = 0

    var live: Bool { life.isLive }
    var granted: Bool { life.isGranted }
    var paused: Bool { life.isPaused }
}

extension Array where Element == AppContent {
    /// The content of `app`: the device's per-app tables are indexed by ``AppID``.
    subscript(app: AppID) -> AppContent {
        get { self[app.index] }
        set { self[app.index] = newValue }
    }
}
