/// Internal per-app state of an ``ODRDevice`` that changes as it runs (plain data: see
/// ``RecordTable``); what is fixed per app lives in ``AppContent``.
@usableFromInline
struct AppRecord: BitwiseCopyable {
    /// The app's first pack; its packs are contiguous.
    let firstPack: PackID
    /// The app's packs and tags: fixed by its catalog, but for a numbered catalog's packs
    /// added later (``ODRDevice/appendPacks(sizes:names:to:)``).
    var packCount: Int32
    var tagCount: Int32
    /// Tag `i` is exactly pack `i` (a catalog of single-resource tags, as in trace replay),
    /// so a tag's pack is found without reading the catalog.
    let tagsArePacks: Bool
    let allowsCellular: Bool
    var lowDiskResponse: LowDiskResponse
    /// The app's own platform's rules (``PlatformProfile``), as the device reads them: who
    /// may remove its packs (``RoomMaker/group(of:)``), and its limits.
    let rules: AppRules

    /// Absent, installing or installed, and running (see ``AppPhase`` for what moves it).
    @usableFromInline var phase = AppPhase.absent
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
    @inlinable var running: Bool { phase.isRunning }
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
    var catalog: Catalog
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

extension Array where Element == AppContent {
    /// The content of `app`: the device's per-app tables are indexed by ``AppID``.
    subscript(app: AppID) -> AppContent {
        get { self[app.index] }
        set { self[app.index] = newValue }
    }
}
