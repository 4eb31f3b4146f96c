import ODRCore

/// One purge policy as the command line and reports know it: its name, a one-line summary,
/// whether it must see the future, and how to make a fresh instance for one run.
public struct PolicyDescriptor: Sendable {
    /// The name used on the command line (`--policy lru`) and in reports.
    public let name: String
    /// One line for `odr-sim policies`.
    public let summary: String
    /// Offline policies need ``PolicyContext/future``; without it they cannot see ahead.
    public let needsFuture: Bool
    /// A new, independent policy instance (policies keep per-run state).
    public let make: @Sendable (PolicyContext) -> any PurgePolicy

    public init(
        name: String, summary: String, needsFuture: Bool = false,
        make: @escaping @Sendable (PolicyContext) -> any PurgePolicy
    ) {
        self.name = name
        self.summary = summary
        self.needsFuture = needsFuture
        self.make = make
    }
}
