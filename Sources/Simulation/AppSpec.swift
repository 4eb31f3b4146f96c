import ODRCore

/// One app of the scenario with its validated catalog.
public struct AppSpec: Sendable {
    public var id: String
    public var catalog: Catalog
    /// May it download over cellular?
    public var cellular: Bool
    public var onLowDisk: LowDiskResponse
    /// Where the app owns eviction: its budget, the tags it keeps and its own strategy.
    public var eviction = AppEvictionSpec()
    /// The app's own delivery platform (`apps[].platform`); nil: the device's
    /// (``Scenario/platform``). See ``Scenario/platform(of:)``.
    public var platform: PlatformProfile? = nil
    /// Where large downloads on cellular wait for the user (Play's `WAITING_FOR_WIFI`): the
    /// seconds the user takes to confirm; nil: the user never does, and they wait for Wi-Fi.
    public var cellularConfirmationDelay: Double? = AppSpec.defaultCellularConfirmationDelay
    /// Background Assets: which essential and prefetch packs the app lets download
    /// automatically (its `shouldDownload(_:)`); nil: all of them.
    public var automaticFilter: AutomaticDownloadFilter? = nil
    /// Play: false when the app was not installed through Google Play (sideloaded), so its
    /// downloads wait for the user's consent (`REQUIRES_USER_CONFIRMATION`), answered after
    /// ``cellularConfirmationDelay``.
    public var installedByPlay = true

    /// A minute: the user answers the confirmation dialog the next time they look.
    public static let defaultCellularConfirmationDelay = 60.0

    public init(
        id: String, catalog: Catalog, cellular: Bool = true, onLowDisk: LowDiskResponse = .ignore,
        budget: Int64? = nil
    ) {
        self.id = id
        self.catalog = catalog
        self.cellular = cellular
        self.onLowDisk = onLowDisk
        self.eviction.budget = budget
    }
}

/// How an app's own code removes its packs where its platform makes that the app's
/// business (Background Assets, Play Asset Delivery): `apps[].budget`, `keep` and
/// `strategy` as one value. The kernel hands it to the device with the strategy made into a
/// policy by the caller (``RunPolicies``); on a platform where the system purges it is not read.
public struct AppEvictionSpec: Sendable, Hashable {
    /// The most bytes the app's own code lets its packs take; nil: no budget.
    public var budget: Int64?
    /// Tags whose packs its own code never removes.
    public var keep: [TagID] = []
    /// The name of the app's own eviction strategy (an online policy); nil: the run's policy.
    public var strategy: String?

    public init(budget: Int64? = nil, keep: [TagID] = [], strategy: String? = nil) {
        self.budget = budget
        self.keep = keep
        self.strategy = strategy
    }
}

/// Identifies a request id of the scenario (an index into ``Scenario/requestLabels``, or a
/// generated request's number beyond them). Unique across all apps of a scenario.
public typealias RequestKey = Int

/// Index of an app in ``Scenario/apps``.
public typealias AppIndex = Int
