import ODRCore

/// One app of the scenario with its validated catalog.
public struct AppSpec: Sendable {
    public var id: String
    public var catalog: Catalog
    /// May it download over cellular?
    public var cellular: Bool
    public var onLowDisk: LowDiskResponse

    public init(id: String, catalog: Catalog, cellular: Bool = true, onLowDisk: LowDiskResponse = .ignore) {
        self.id = id
        self.catalog = catalog
        self.cellular = cellular
        self.onLowDisk = onLowDisk
    }
}

/// Identifies a request id of the scenario (an index into ``Scenario/requestLabels``, or a
/// generated request's number beyond them). Unique across all apps of a scenario.
public typealias RequestKey = Int

/// Index of an app in ``Scenario/apps``.
public typealias AppIndex = Int
