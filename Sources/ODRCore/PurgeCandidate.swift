/// What a purge policy may know about one asset pack: a read-only snapshot.
public struct PurgeCandidate: Hashable, Sendable {
    public let pack: PackID
    public let app: AppID
    /// Bytes purging it would free.
    public let size: Int64
    /// Time of the last request, grant or end touching the pack (or when it was stored).
    public let lastUse: Double
    /// Device-wide order of that last use, to break ties between equal times.
    public let lastUseTick: UInt64
    /// Device-wide order in which packs finished downloading (admission order).
    public let storedTick: UInt64
    /// Highest preservation priority among the pack's tags.
    public let preservation: Double
    public let appIsRunning: Bool
    public let category: TagCategory
    /// Requests that included the pack since its app was installed.
    public let requestCount: Int64
    /// Device-wide ordinal (1, 2, …) of the latest request that included the pack; 0 if none.
    public let lastRequestOrdinal: Int64
    /// How often the pack has been purged.
    public let purgeCount: Int32
}

/// Which purgeable packs a purge step may choose from.
///
/// The device asks the policy twice at most: first among packs of apps that are not
/// running; only if those cannot free the space, among packs of running apps.
public enum PurgeTier: Hashable, Sendable {
    case appsNotRunning
    case runningApps
}
