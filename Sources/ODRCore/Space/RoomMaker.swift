/// Who makes room for a demand on the device: the one place a platform's ``Evictor`` is
/// read (a source test holds it). The device asks it, whatever the platform, before an app
/// downloads (``beforeDownload(of:adding:on:)``), when a demand needs free space
/// (``makeRoom(_:mayWarn:for:on:)``) and when other data grows (``reclaimableForOtherData(on:)``).
///
/// Two implementations answer: ``SystemPurge`` (On-Demand Resources, Android's cache: the
/// system purges under the run's policy, with a low-disk warning as a last resort) and
/// ``AppEviction`` (Background Assets, Play Asset Delivery: the app's own code removes its
/// packs within its budget; the system purges nothing). An enum of the two, not an
/// existential, so that the call on every cache miss of a replay is a static one.
enum RoomMaker {
    case system(SystemPurge)
    case app(AppEviction)

    /// The room maker the platform profile names.
    init(_ profile: PlatformProfile) {
        switch profile.evictor {
        case .system:
            self = .system(SystemPurge())
        case .app:
            self = .app(AppEviction(whenFull: profile.appEvictsWhenFull,
                                    systemRemovesForOtherData: profile.systemRemovesForOtherData))
        }
    }

    /// Whether apps remove their own packs (and the system none, but for other data where
    /// the platform says so).
    var appEvicts: Bool {
        if case .app = self { return true }
        return false
    }

    @inline(__always)
    func beforeDownload(of app: AppID, adding bytes: Int64, on device: ODRDevice) {
        switch self {
        case .system: break
        case .app(let eviction): eviction.beforeDownload(of: app, adding: bytes, on: device)
        }
    }

    @inline(__always)
    func makeRoom(_ bytes: Int64, mayWarn: Bool, for app: AppID?, on device: ODRDevice) -> Bool {
        switch self {
        case .system(let purge): purge.makeRoom(bytes, mayWarn: mayWarn, on: device)
        case .app(let eviction): eviction.makeRoom(bytes, for: app, on: device)
        }
    }

    func reclaimableForOtherData(on device: ODRDevice) -> Int64 {
        switch self {
        case .system: device.reclaimableBytes
        case .app(let eviction): eviction.systemRemovesForOtherData ? device.reclaimableBytes : 0
        }
    }
}

/// The system makes room: one purge episode under the device's policy, and if even purging
/// every candidate would not do, a low-disk warning to the apps first (ODR-SPEC).
struct SystemPurge {
    /// Makes `bytes` free, purging if needed. Returns false, having purged nothing, when even
    /// purging everything purgeable (after a low-disk warning, if allowed) would not do.
    func makeRoom(_ bytes: Int64, mayWarn: Bool, on device: ODRDevice) -> Bool {
        var deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        if device.reclaimableBytes >= deficit {
            device.purge(deficit)
            return true
        }
        guard mayWarn else { return false }
        device.postLowDiskWarning(needed: deficit)
        deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        if device.reclaimableBytes >= deficit {
            device.purge(deficit)
            return true
        }
        return false
    }
}

/// The app's own code makes room: it keeps within its budget before it downloads, and, when
/// a download finds the disk full, removes enough of its own unused packs if the platform
/// lets it (``PlatformProfile/appEvictsWhenFull``); the system purges nothing, except for
/// other data where the platform says so (``PlatformProfile/systemRemovesForOtherData``).
struct AppEviction {
    let whenFull: Bool
    let systemRemovesForOtherData: Bool

    func beforeDownload(of app: AppID, adding bytes: Int64, on device: ODRDevice) {
        device.enforceBudget(of: app, adding: bytes)
    }

    func makeRoom(_ bytes: Int64, for app: AppID?, on device: ODRDevice) -> Bool {
        let deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        guard let app, whenFull, device.removableBytes(of: app).bytes >= deficit else { return false }
        device.evict(deficit, of: app)
        return true
    }
}
