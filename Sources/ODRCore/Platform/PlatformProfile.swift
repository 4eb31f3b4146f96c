/// One platform's rules for downloadable app content: who removes packs to make room, what
/// each category does at install, the cellular rule, and the size limits (ODR-SPEC §1,
/// PLATFORMS.md). The device asks its profile; nothing in the core branches on a name.
///
/// Three families share one model of packs, downloads, disk and requests:
/// - **On-Demand Resources** (`ios17`, `ios18`, `tvos18`): the system purges packs under
///   its purge policy (``Evictor/system``).
/// - **Background Assets** managed asset packs (`background-assets`): the *app* removes
///   packs (``Evictor/app``): the run's policy is the app's own eviction strategy, applied
///   to the app's packs only, within the app's budget. `essential` packs block the launch
///   until they are on the device; if they cannot be stored the launch is unblocked.
/// - **Play Asset Delivery** (`play-asset-delivery`): the app removes packs, install-time
///   packs cannot be removed, and large downloads on a cellular link wait for the user's
///   confirmation (`WAITING_FOR_WIFI`).
///
/// A `nil` limit means "no limit". Sizes are per device slice and in bytes, with the
/// spec's decimal units (1 MB = 10^6 bytes). Use a preset or build a custom profile for
/// what-if studies:
///
/// ```swift
/// var profile = PlatformProfile.ios17
/// profile.maxPackSize = 64_000_000
/// ```
public struct PlatformProfile: Hashable, Sendable {
    /// Short name used in messages, such as `ios17`.
    public var name: String
    /// Largest app bundle.
    public var maxAppBundleSize: Int64?
    /// Largest single asset pack.
    public var maxPackSize: Int64?
    /// Largest total of the packs one tag maps to.
    public var maxTagSize: Int64?
    /// Most asset packs one app may have.
    public var maxPackCount: Int?
    /// Largest total of initial-install tags.
    public var maxInitialInstallSize: Int64?
    /// Largest total of initial-install and prefetch tags together.
    public var maxInitialAndPrefetchSize: Int64?
    /// Most bytes one app may hold in use at one time.
    public var maxInUseSize: Int64?
    /// Most bytes hosted for the app on the store.
    public var maxHostedSize: Int64?
    /// Apple's recommended size of one tag; advisory, never enforced.
    public var recommendedTagSize: Int64?
    /// Largest total of prefetch and on-demand packs (Play: fast-follow plus on-demand).
    public var maxPrefetchAndOnDemandSize: Int64? = nil

    /// Which platform family the profile describes: the names of its categories and errors.
    ///
    /// Source: the category names of each platform's own documentation ("Creating managed
    /// asset packs": essential, prefetch, onDemand; "Play Asset Delivery": install-time,
    /// fast-follow, on-demand).
    public var family: PlatformFamily = .onDemandResources
    /// Who removes downloaded packs to make room: read by the device through its
    /// `RoomMaker` only (ODRCore/Space/RoomMaker.swift).
    ///
    /// Source: ODR purges (ODR-SPEC §3); on Background Assets and Play the app does
    /// (`AssetPackManager.remove(assetPackWithID:)`, Play Core `removePack`).
    public var evictor: Evictor = .system
    /// Whether an install whose initial packs cannot get their space fails (ODR; Play's
    /// install-time packs are part of the install) rather than going ahead without them,
    /// the launch unblocked (Background Assets: when an essential download cannot proceed,
    /// "the system stops blocking the launch").
    ///
    /// Source: Apple developer forums thread 808927 (Background Assets); "Play Asset Delivery"
    /// (install-time packs are part of the install).
    public var installFailsWithoutInitialSpace = true
    /// Whether the app may remove its initial packs (Play's install-time packs stay until the
    /// app is uninstalled).
    ///
    /// Source: install-time packs "can't be modified or deleted" short of uninstalling
    /// (developer.android.com, "Play Asset Delivery").
    public var initialPacksRemovable = true
    /// With ``Evictor/app``: whether, when a download finds the disk full, the app removes
    /// its own unused packs (with its strategy) before the download fails for want of space.
    /// Neither platform documents what the app sees; `true` models an app that handles the
    /// failure (Play's `INSUFFICIENT_STORAGE`) by freeing its own space and retrying.
    public var appEvictsWhenFull = true
    /// With ``Evictor/app``, on a device whose other apps' packs the system purges (an ODR
    /// app beside): whether, for a request of this app, the system purges theirs before this
    /// app's code removes its own (`true`), or after (`false`). No source says; `true` is
    /// iOS's purgeable-space rule (ODR content is freed for any write before the writer sees a
    /// full disk), and `false` an alternative (`odr-sim assumptions`).
    public var systemPurgesBeforeAppEvicts = true
    /// With ``Evictor/app``: whether the system removes unused packs (under the run's policy,
    /// as ODR purges) when other data (photos, other apps) would not fit otherwise; `false`
    /// refuses the data (``Ledger/refusedOtherBytes``).
    ///
    /// Source: on Play it never does: asset packs live in the app's `files/assetpacks`, and
    /// Android's cache clearing (AOSP installd, `cmds/installd/CacheTracker.cpp`) only ever
    /// deletes from cache folders. Apple documents no removal of *managed* asset packs for
    /// other data (only obsolete packs, `AssetPackManager.checkForUpdates()`), so `false` is
    /// the default there too; `true` is an undocumented alternative (`odr-sim assumptions`),
    /// the older rule for unmanaged background downloads ("may remove them under critical
    /// circumstances").
    public var systemRemovesForOtherData = false
    /// Whether a single pack may get a new version without an app update (Background Assets:
    /// packs are versioned apart from app builds, App Store Connect API "Background assets").
    ///
    /// Source (Play, `false`): asset packs change only with a new app bundle: install-time packs
    /// update with the base, and downloaded fast-follow and on-demand packs must be fetched
    /// again for the new version (developer.android.com, Play Asset Delivery, "Update asset
    /// packs"). A scenario's `update:` of one pack is refused there; `app-update` is the way.
    public var packUpdatesApartFromApp = true
    /// Whether the older version of a pack stays usable when its newer one cannot be fetched at
    /// once (the pack is in use, or there is no room for the new version beside the free
    /// space): requests are granted the older version, and only a latest-version request
    /// waits for the new one (``ODRDevice/beginAccessing(_:tags:priority:optional:requireLatest:at:)``).
    ///
    /// Source (Background Assets, `true`): `ensureLocalAvailability(of:requireLatestVersion:)`
    /// (iOS 26.4) waits for the newest version only when asked to, and an out-of-date pack's
    /// update may not be able to download over the current connection (Apple,
    /// `AssetPackManager`). Elsewhere (`false`) an update removes the old version.
    public var keepsOutdatedVersions = false
    /// Downloads of more than this many bytes started on a cellular link wait for the user's
    /// confirmation (Play's `WAITING_FOR_WIFI`); nil: none do.
    ///
    /// Source (Play): "Asset packs larger than 200MB can download automatically, but only on
    /// Wi-Fi. If the user is not on Wi-Fi, the status is set to WAITING_FOR_WIFI and the
    /// download is paused" (developer.android.com, Play Asset Delivery, integrate (native,
    /// Unity), "Large downloads").
    public var cellularConfirmationBytes: Int64? = nil
    /// Where packs change only with the app (Play): the share of a downloaded pack's size its
    /// update's patch downloads (0 < share ≤ 1); nil: the pack is fetched again in full at its
    /// next request, and nothing downloads with the update.
    ///
    /// Source (Play): with an app update, the patch for the assets downloads with it; the
    /// previously downloaded packs are invalid until the patch is applied, and valid again
    /// after (developer.android.com, Play Asset Delivery, "Update asset packs"). Google
    /// describes delta patching and gives no patch size: 1 (the full size) is the preset's,
    /// an assumption (`play-update-patch` in `odr-sim assumptions`).
    public var updatePatchShare: Double? = nil
    /// Whether a failed download's bytes stay on the device for the next download of the pack
    /// to resume from (`true`), or are removed (`false`). No platform documents it; `true` is
    /// an assumption (`failed-download-bytes` in `odr-sim assumptions`).
    public var resumesFailedDownloads = true
    /// The space a download needs beside the pack while it is fetched and extracted, as a share
    /// of the pack's size (its compressed download, held until extraction ends): a download
    /// needs its size times (1 + share) until it completes. No platform documents whether or
    /// how much; 0 is an assumption (`unpack-space` in `odr-sim assumptions`).
    public var unpackShare: Double = 0

    public init(
        name: String,
        maxAppBundleSize: Int64? = nil,
        maxPackSize: Int64? = nil,
        maxTagSize: Int64? = nil,
        maxPackCount: Int? = nil,
        maxInitialInstallSize: Int64? = nil,
        maxInitialAndPrefetchSize: Int64? = nil,
        maxInUseSize: Int64? = nil,
        maxHostedSize: Int64? = nil,
        recommendedTagSize: Int64? = nil
    ) {
        self.name = name
        self.maxAppBundleSize = maxAppBundleSize
        self.maxPackSize = maxPackSize
        self.maxTagSize = maxTagSize
        self.maxPackCount = maxPackCount
        self.maxInitialInstallSize = maxInitialInstallSize
        self.maxInitialAndPrefetchSize = maxInitialAndPrefetchSize
        self.maxInUseSize = maxInUseSize
        self.maxHostedSize = maxHostedSize
        self.recommendedTagSize = recommendedTagSize
    }

    private static let mb: Int64 = 1_000_000
    private static let gb: Int64 = 1_000_000_000

    /// Apple Background Assets, managed asset packs (iOS, iPadOS, macOS, tvOS, visionOS 26+):
    /// Apple-hosted, at most 200 GB of assets and 100 pack IDs per app ("Creating managed
    /// asset packs"; App Store Connect Help, "Apple-hosted asset pack size limits").
    public static let backgroundAssets: PlatformProfile = {
        var profile = PlatformProfile(name: "background-assets", maxPackCount: 100, maxHostedSize: 200 * gb)
        profile.family = .backgroundAssets
        profile.evictor = .app
        profile.installFailsWithoutInitialSpace = false
        profile.keepsOutdatedVersions = true
        return profile
    }()

    /// Google Play Asset Delivery as the Play Console help gives it today (answer 9859372):
    /// 1.5 GB per pack, 4 GB for install-time packs (with the base), 4 GB for fast-follow plus
    /// on-demand packs. Downloads over 200 MB on a cellular link wait for the user's
    /// confirmation (Play Core's `WAITING_FOR_WIFI`, `showConfirmationDialog`; the threshold
    /// is Play's own, ``cellularConfirmationBytes``). Install-time packs "can't be modified or
    /// deleted" short of uninstalling (developer.android.com, "Play Asset Delivery").
    public static let playAssetDelivery: PlatformProfile = {
        var profile = PlatformProfile(
            name: "play-asset-delivery", maxPackSize: 1_500 * mb, maxInitialInstallSize: 4 * gb)
        profile.maxPrefetchAndOnDemandSize = 4 * gb
        profile.family = .playAssetDelivery
        profile.evictor = .app
        profile.initialPacksRemovable = false
        profile.cellularConfirmationBytes = 200 * mb
        profile.packUpdatesApartFromApp = false
        profile.updatePatchShare = 1
        return profile
    }()

    /// Play Asset Delivery's earlier limits: 512 MB per fast-follow or on-demand pack, 1 GB of
    /// install-time packs, 2 GB in all, 50 packs.
    public static let playAssetDelivery2021: PlatformProfile = {
        var profile = playAssetDelivery
        profile.name = "play-asset-delivery-2021"
        profile.maxPackSize = 512 * mb
        profile.maxInitialInstallSize = 1 * gb
        profile.maxPrefetchAndOnDemandSize = nil
        profile.maxHostedSize = 2 * gb
        profile.maxPackCount = 50
        return profile
    }()

    /// iOS 9–17, the classic ODR guide.
    public static let ios17 = PlatformProfile(
        name: "ios17", maxAppBundleSize: 2 * gb, maxPackSize: 512 * mb, maxTagSize: 512 * mb,
        maxPackCount: 1000, maxInitialInstallSize: 2 * gb, maxInitialAndPrefetchSize: 4 * gb,
        maxInUseSize: 2 * gb, maxHostedSize: 20 * gb, recommendedTagSize: 64 * mb)

    /// iOS and iPadOS 18 and later.
    public static let ios18 = PlatformProfile(
        name: "ios18", maxAppBundleSize: 4 * gb, maxPackSize: 8 * gb, maxTagSize: 8 * gb,
        maxPackCount: 1000, maxInitialInstallSize: nil, maxInitialAndPrefetchSize: nil,
        maxInUseSize: nil, maxHostedSize: 70 * gb, recommendedTagSize: 64 * mb)

    /// tvOS 18 and later.
    public static let tvos18 = PlatformProfile(
        name: "tvos18", maxAppBundleSize: 4 * gb, maxPackSize: 512 * mb, maxTagSize: 512 * mb,
        maxPackCount: 1000, maxInitialInstallSize: nil, maxInitialAndPrefetchSize: 4 * gb,
        maxInUseSize: nil, maxHostedSize: 20 * gb, recommendedTagSize: 64 * mb)

    /// No limits at all: trace replay and what-if studies.
    public static let unlimited = PlatformProfile(name: "unlimited")

    /// The presets by name.
    public static let presets: [PlatformProfile] = [
        .ios17, .ios18, .tvos18, .unlimited, .backgroundAssets, .playAssetDelivery, .playAssetDelivery2021,
    ]

    /// The names of the presets that follow `rule`, for messages that say where a key applies
    /// (`background-assets, play-asset-delivery, play-asset-delivery-2021`): derived, so that
    /// a new preset is named everywhere at once.
    public static func presetNames(where rule: (PlatformProfile) -> Bool) -> String {
        presets.filter(rule).map(\.name).joined(separator: ", ")
    }

    /// The preset called `name`, if any.
    public static func named(_ name: String) -> PlatformProfile? {
        presets.first { $0.name == name }
    }
}

/// Who removes an app's downloaded packs when space is wanted.
public enum Evictor: String, Hashable, Sendable {
    /// The operating system purges, under the device's purge policy (On-Demand Resources).
    case system
    /// The app's own code removes its packs, within its budget (Background Assets, Play
    /// Asset Delivery); the system never removes them.
    case app
}

/// A family of platforms: what its categories are called.
public enum PlatformFamily: String, Hashable, Sendable, CaseIterable {
    case onDemandResources = "on-demand-resources"
    case backgroundAssets = "background-assets"
    case playAssetDelivery = "play-asset-delivery"

    /// The family's name for a category: `essential` is Background Assets' initial-install.
    public func name(of category: TagCategory) -> String {
        switch (self, category) {
        case (.onDemandResources, _): category.name
        case (.backgroundAssets, .initialInstall): "essential"
        case (.backgroundAssets, .prefetch): "prefetch"
        case (.backgroundAssets, .onDemand): "onDemand"
        case (.playAssetDelivery, .initialInstall): "install-time"
        case (.playAssetDelivery, .prefetch): "fast-follow"
        case (.playAssetDelivery, .onDemand): "on-demand"
        }
    }
}
