/// Who makes room for a demand on the device: the one place a platform's ``Evictor`` is
/// read (a source test holds it). The device asks it, whatever the platforms of its apps,
/// when a demand needs free space (``makeRoom(_:mayWarn:for:on:)``, an app's request kept
/// within the app's budget first) and when other data grows (``reclaimableForOtherData(on:)``).
/// For an app's demand it calls the app's ``Reclaimer``, chosen by its ``AppRules``: the
/// system purging (``SystemPurge``) or the app's own code evicting (``AppEviction``).
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

    /// Makes `bytes` free for `demand`; false, having removed nothing, when that cannot be done.
    /// An app's request first keeps the app within its budget where its code evicts (its
    /// strategy removing its own unused packs before it downloads `bytes` more).
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
            return device.state.apps[app].rules.reclaimer.makeRoom(
                bytes, mayWarn: mayWarn, for: demand, of: app, on: device)
        }
    }

    /// What the system may still remove for other data that does not fit.
    static func reclaimableForOtherData(on device: ODRDevice) -> Int64 {
        device.reclaimableBytes(in: .forOtherData)
    }
}

/// Who reclaims space for one app's demand, the system or the app's own code: one answer to
/// "make `bytes` free", whatever the platform.
protocol Reclaimer {
    /// Makes `bytes` free for `demand` of `app`; false, having removed nothing, when that
    /// cannot be done.
    static func makeRoom(
        _ bytes: Int64, mayWarn: Bool, for demand: RoomMaker.Demand, of app: AppID, on device: ODRDevice
    ) -> Bool
}

extension AppRules {
    /// Who reclaims space for the app: its own code where it evicts, else the system.
    var reclaimer: any Reclaimer.Type { appEvicts ? AppEviction.self : SystemPurge.self }

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
