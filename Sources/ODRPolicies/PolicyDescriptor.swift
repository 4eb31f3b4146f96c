import ODRCore

/// One purge policy as the command line and reports know it: its name, a one-line summary,
/// whether it must see the future, the options it takes, and how to make a fresh instance
/// for one run.
public struct PolicyDescriptor: Sendable {
    /// The name used on the command line (`--policy lru`) and in reports.
    public let name: String
    /// One line for `odr-sim policies`.
    public let summary: String
    /// Offline policies need ``PolicyContext/future``; without it they cannot see ahead.
    public let needsFuture: Bool
    /// Whether the policy reads times (``PurgeView/time``, ``PurgeCandidate/lastUse``) rather
    /// than only orders (ticks, ordinals). None of the shipped policies does; a trace replay
    /// whose policies all read only orders keeps no times in its decoded stream (4 bytes a
    /// request instead of up to 16), so a long trace with fine-grained times stays in memory.
    /// A policy that reads times must say so, or a replay gives it request ordinals as times.
    public let readsTime: Bool
    /// What a scenario may set in `policy_options.<name>`; the scenario reader checks every
    /// given option against these, and the policy reads them from ``PolicyContext/options``.
    public let options: [PolicyOption]
    /// A new, independent policy instance (policies keep per-run state).
    public let make: @Sendable (PolicyContext) -> any PurgePolicy

    public init(
        name: String, summary: String, needsFuture: Bool = false, readsTime: Bool = false, options: [PolicyOption] = [],
        make: @escaping @Sendable (PolicyContext) -> any PurgePolicy
    ) {
        self.name = name
        self.summary = summary
        self.needsFuture = needsFuture
        self.readsTime = readsTime
        self.options = options
        self.make = make
    }
}

/// A policy registered with a ``PolicyDescriptor``: its ``PurgePolicy/name`` is the
/// descriptor's, written once.
public protocol DescribedPolicy: PurgePolicy {
    static var descriptor: PolicyDescriptor { get }
}

extension DescribedPolicy {
    public var name: String { Self.descriptor.name }
}
