/// Who makes room for a demand on the device: the one place a platform's ``Evictor`` is
/// read (a source test holds it). The device asks it, whatever the platforms of its apps,
/// before an app downloads (``beforeDownload(of:adding:on:)``), when a demand needs free
/// space (``makeRoom(_:mayWarn:for:on:)``) and when other data grows
/// (``reclaimableForOtherData(on:)``).
///
/// Each app has its own platform (an ODR game beside a Background Assets game on one
/// iPhone), and so a ``PurgeGroup``: whether the system purges its packs (On-Demand
/// Resources, Android's cache: under the run's policy, with a low-disk warning as a last
/// resort), or its own code removes them within its budget (Background Assets, Play Asset
/// Delivery), the system only for other data where the platform says so. A demand is met
/// by the system first, from the packs it may purge for that demand, then, for an app that
/// evicts, by that app's own packs.
///
/// Why the system first: on iOS, ODR content is purgeable space, which the system frees
/// for any write before the writer sees a full disk (ODR-SPEC §3: "the system purges when
/// space is needed"); an app's code learns of a full disk only from a download that fails.
/// On a device of one platform only one of the two ever has packs to remove, so the order
/// decides nothing there.
enum RoomMaker {
    /// What a demand for space is for.
    enum Demand {
        /// Other data grows (photos, other apps' files).
        case otherData
        /// An app's install, update or prefetch: the system's download, which the app's own
        /// code does not see fail (it removes nothing for it).
        case system(AppID)
        /// An app's request: the app's code removes its own packs if the platform lets it.
        case request(AppID)
    }

    /// Who may remove the packs of an app of platform `profile`.
    static func group(of profile: PlatformProfile) -> PurgeGroup {
        switch profile.evictor {
        case .system: .system
        case .app: profile.systemRemovesForOtherData ? .systemForOtherData : .appOnly
        }
    }

    /// Before `app` downloads `bytes` more: where the app evicts, its code keeps within its
    /// budget.
    @inline(__always)
    static func beforeDownload(of app: AppID, adding bytes: Int64, on device: ODRDevice) {
        // Performance: a device where no app evicts (every trace replay) asks nothing more.
        guard device.state.someAppsEvict, device.state.apps[app].rules.appEvicts else { return }
        device.enforceBudget(of: app, adding: bytes)
    }

    /// Makes `bytes` free for `demand`; false, having removed nothing, when that cannot be done.
    @inline(__always)
    static func makeRoom(_ bytes: Int64, mayWarn: Bool, for demand: Demand, on device: ODRDevice) -> Bool {
        switch demand {
        case .otherData:
            // Other data may take what the system purges and, where an app's platform says
            // so, its unused packs; the low-disk warning is ODR's, posted where ODR apps are.
            let warns = mayWarn && device.state.groupsPresent.contains(.system)
            return SystemPurge.makeRoom(bytes, mayWarn: warns, groups: .forOtherData, on: device)
        case .system(let app), .request(let app):
            // Performance: on a device where the system purges every app's packs (every
            // trace replay), no app's rules are read.
            guard device.state.someAppsEvict else {
                return SystemPurge.makeRoom(bytes, mayWarn: mayWarn, groups: .all, on: device)
            }
            let rules = device.state.apps[app].rules
            guard rules.appEvicts else {
                return SystemPurge.makeRoom(bytes, mayWarn: mayWarn, groups: .system, on: device)
            }
            var ownEviction = false
            if case .request = demand { ownEviction = rules.evictsWhenFull }
            return AppEviction.makeRoom(
                bytes, for: app, ownEviction: ownEviction, systemFirst: rules.systemFirst, on: device)
        }
    }

    /// What the system may still remove for other data that does not fit.
    static func reclaimableForOtherData(on device: ODRDevice) -> Int64 {
        device.reclaimableBytes(in: .forOtherData)
    }
}

extension AppRules {
    /// The rules of an app of platform `profile`; who removes its packs is read here, in
    /// the room maker's file.
    init(_ profile: PlatformProfile) {
        self.init(
            group: RoomMaker.group(of: profile), evictsWhenFull: profile.appEvictsWhenFull,
            systemFirst: profile.systemPurgesBeforeAppEvicts,
            initialPacksRemovable: profile.initialPacksRemovable,
            installFailsWithoutInitialSpace: profile.installFailsWithoutInitialSpace,
            maxInUseBytes: profile.maxInUseSize ?? .max,
            cellularConfirmationBytes: profile.cellularConfirmationBytes ?? .max)
    }
}

extension PlatformProfile {
    /// Whether an app of this platform removes its own packs (its code runs a strategy, within
    /// a budget), rather than the system purging them: what a run's policy is to its packs.
    public var appRemovesPacks: Bool { evictor == .app }
}

/// Who may remove an app's packs when space is wanted (``RoomMaker/group(of:)``).
enum PurgeGroup: UInt8, BitwiseCopyable {
    /// The system purges them for any demand (On-Demand Resources; Android's cache).
    case system
    /// The app's code removes them; the system only for other data
    /// (``PlatformProfile/systemRemovesForOtherData``).
    case systemForOtherData
    /// Only the app's own code removes them.
    case appOnly
}

/// A set of ``PurgeGroup``s: whose packs one purge may take.
struct PurgeGroups: OptionSet, BitwiseCopyable {
    let rawValue: UInt8

    init(rawValue: UInt8) { self.rawValue = rawValue }
    init(_ group: PurgeGroup) { rawValue = 1 << group.rawValue }

    /// The packs the system purges for an app's demand.
    static let system = PurgeGroups(.system)
    /// The packs the system removes for other data.
    static let forOtherData: PurgeGroups = [.system, PurgeGroups(.systemForOtherData)]
    static let all: PurgeGroups = [.forOtherData, PurgeGroups(.appOnly)]

    @inline(__always)
    func contains(_ group: PurgeGroup) -> Bool { rawValue & (1 << group.rawValue) != 0 }
}

/// The system makes room: one purge episode under the device's policy among the packs of
/// `groups`, and if even purging every candidate would not do, a low-disk warning to the
/// apps first (ODR-SPEC).
enum SystemPurge {
    /// Makes `bytes` free, purging if needed. Returns false, having purged nothing, when even
    /// purging everything purgeable (after a low-disk warning, if allowed) would not do.
    static func makeRoom(_ bytes: Int64, mayWarn: Bool, groups: PurgeGroups, on device: ODRDevice) -> Bool {
        var deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        if device.reclaimableBytes(in: groups) >= deficit {
            device.purge(deficit, groups: groups)
            return true
        }
        guard mayWarn else { return false }
        device.postLowDiskWarning(needed: deficit)
        deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        if device.reclaimableBytes(in: groups) >= deficit {
            device.purge(deficit, groups: groups)
            return true
        }
        return false
    }
}

/// The app's own code makes room: it keeps within its budget before it downloads, and, when
/// a download finds the disk full, removes enough of its own unused packs if the platform
/// lets it (``PlatformProfile/appEvictsWhenFull``), after the system has purged what it
/// purges for any demand (the packs of ODR apps beside it).
enum AppEviction {
    static func makeRoom(_ bytes: Int64, for app: AppID, ownEviction: Bool, systemFirst: Bool, on device: ODRDevice)
        -> Bool
    {
        let deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        let system = device.reclaimableBytes(in: .system)
        let own = ownEviction ? device.removableBytes(of: app).bytes : 0
        guard system + own >= deficit else { return false }
        if systemFirst || own == 0 {
            if system > 0 { device.purge(min(deficit, system), groups: .system) }
            let rest = bytes - device.freeBytes
            if rest > 0 { device.evict(rest, of: app) }
        } else {
            // The alternative order: the app's own packs first, the system's for the rest.
            device.evict(min(deficit, own), of: app)
            let rest = bytes - device.freeBytes
            if rest > 0 { device.purge(rest, groups: .system) }
        }
        return true
    }
}
