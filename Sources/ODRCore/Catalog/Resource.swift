/// One on-demand resource of an app: a file with a size and one or more tags.
public struct Resource: Hashable, Sendable {
    public var name: String
    /// Size in bytes on the device.
    public var size: Int64
    /// The tags the developer gave it. Resources with the same tag set share an asset pack.
    public var tags: [String]

    public init(name: String, size: Int64, tags: [String]) {
        self.name = name
        self.size = size
        self.tags = tags
    }
}

/// When a tag's content reaches the device (ODR-SPEC §1).
public enum TagCategory: Hashable, Sendable, Comparable, BitwiseCopyable {
    /// Downloaded with the app; the app cannot launch before it is on the device.
    case initialInstall
    /// Downloaded right after install, in ascending `order`.
    case prefetch(order: Int)
    /// Downloaded only when a request asks for it (the default).
    case onDemand

    /// Short name used in CSV output and messages.
    public var name: String {
        switch self {
        case .initialInstall: "initial-install"
        case .prefetch: "prefetch"
        case .onDemand: "on-demand"
        }
    }
}

/// Per-tag settings of a catalog. Tags not listed are on-demand with preservation 0.
public struct TagSettings: Hashable, Sendable {
    public var category: TagCategory
    /// Preservation priority, 0…1: purging starts with the lowest (ODR-SPEC §3).
    public var preservation: Double
    /// For initial-install and prefetch tags: at which of the app's installations they download.
    public var installationEvents: InstallationEvents

    public init(
        category: TagCategory = .onDemand, preservation: Double = 0, installationEvents: InstallationEvents = .all
    ) {
        self.category = category
        self.preservation = preservation
        self.installationEvents = installationEvents
    }
}
