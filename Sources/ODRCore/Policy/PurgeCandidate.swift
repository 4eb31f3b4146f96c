/// What a purge policy may know about one asset pack, read from the device when asked.
///
/// A candidate is handed to a policy for the duration of one call (a notification, or a
/// purge step's ``PurgeView``); its properties read the pack's state at the moment they are
/// read. Read what you need during the call and keep values, not the candidate.
///
/// Performance: it is two words, and only the properties read cost anything: an LRU list
/// that needs only ``pack`` never touches the rest of the pack's record (a cache miss on
/// every request otherwise).
public struct PurgeCandidate {
    // unowned(unsafe): a candidate lives within a call made by its device.
    unowned(unsafe) let device: ODRDevice
    public let pack: PackID

    init(device: ODRDevice, pack: PackID) {
        self.device = device
        self.pack = pack
    }

    /// How many packs the device has (every pack ID is below it): a policy's per-pack table
    /// grows to this once, rather than doubling as packs arrive one by one.
    public var packCount: Int { device.state.packs.count }

    /// The bytes packs may take on the device now (``PurgeView/cacheBytes``): a policy that
    /// sizes its queues in proportion to the cache reads it when a pack arrives too.
    public var cacheBytes: Int64 { device.capacity - device.otherBytes }

    /// The object ID the pack stands for in a trace replay (``Catalog/objectID(ofPack:)``): what
    /// a policy that hashes objects hashes, as libCacheSim hashes the trace's IDs. Nil for a
    /// scenario's named packs.
    public var objectID: UInt64? {
        let app = device.state.packs[pack].app
        let local = pack.index - device.state.apps[app].firstPack.index
        return device.state.appContents[app.index].catalog.objectID(ofPack: local)
    }

    public var app: AppID { device.state.packs[pack].app }
    /// The app's name (its scenario id), for options given per app (``PolicyOptions``).
    public var appName: String { device.state.appContents[device.state.packs[pack].app.index].name }
    /// Bytes purging it would free.
    public var size: Int64 { device.state.packs[pack].size }
    /// Time of the last request, grant or end touching the pack (or when it was stored).
    /// Part of the pack's history: for a policy that reads it (``PurgePolicy/readsPackHistory``).
    public var lastUse: Double { history.lastUse }
    /// Device-wide order of that last use, to break ties between equal times.
    public var lastUseTick: UInt64 { device.state.packs[pack].lastUseTick }
    /// Device-wide order in which packs finished downloading (admission order). Part of the
    /// pack's history (``PurgePolicy/readsPackHistory``).
    public var storedTick: UInt64 { history.storedTick }
    /// Highest preservation priority among the pack's tags.
    public var preservation: Double { device.state.packDetails[pack].preservation }
    public var appIsRunning: Bool { device.state.apps[device.state.packs[pack].app].running }
    /// Its catalog's category (the lowest of its tags').
    public var category: TagCategory {
        let app = device.state.packs[pack].app
        let local = pack.index - device.state.apps[app].firstPack.index
        return device.state.appContents[app.index].catalog.packs[local].category
    }
    /// Requests that included the pack since its app was installed.
    public var requestCount: Int64 { Int64(device.state.packs[pack].requestCount) }
    /// Device-wide ordinal (1, 2, …) of the latest request that included the pack; 0 if none.
    /// Part of the pack's history (``PurgePolicy/readsPackHistory``).
    public var lastRequestOrdinal: Int64 { history.lastRequestOrdinal }
    /// How often the pack has been purged since its app was installed. Part of the pack's
    /// history (``PurgePolicy/readsPackHistory``).
    public var purgeCount: Int32 { history.purgeCount }

    /// The pack's history, which a device keeps only for a policy that says it reads it.
    private var history: PackHistory {
        precondition(
            device.state.keepsHistory,
            "a purge policy read a pack's lastUse, storedTick, lastRequestOrdinal or purgeCount, which a device "
                + "keeps only for a policy whose readsPackHistory is true")
        return device.state.history[pack]
    }
}

/// Which purgeable packs a purge step may choose from.
///
/// The device asks the policy twice at most: first among packs of apps that are not
/// running; only if those cannot free the space, among packs of running apps.
public enum PurgeTier: Hashable, Sendable {
    case appsNotRunning
    case runningApps
}
