import ODRCore

/// Every purge policy odr-sim knows, by name.
///
/// Adding a policy means writing its file (a ``PurgePolicy`` with a static `descriptor`)
/// and adding one line to ``all``. The order of ``all`` is the order `odr-sim policies`
/// lists them in.
public enum PolicyRegistry {
    public static let all: [PolicyDescriptor] = [
        ApplePolicy.descriptor,
        LRUPolicy.descriptor,
        FIFOPolicy.descriptor,
        LFUPolicy.descriptor,
        GDSFPolicy.descriptor,
        LargestFirstPolicy.descriptor,
        BestFitPolicy.descriptor,
        RandomPolicy.descriptor,
        AndroidQuotaPolicy.descriptor,
        BeladyPolicy.descriptor,
        SievePolicy.descriptor,
    ]

    /// The policy called `name` (exact, case-sensitive), if any.
    public static func descriptor(named name: String) -> PolicyDescriptor? {
        all.first { $0.name == name }
    }

    /// All names, in registry order.
    public static var names: [String] { all.map(\.name) }

    /// The options each policy declares, by name: what a scenario parser checks
    /// `policy_options:` against.
    public static var options: [String: [PolicyOption]] {
        Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.options) })
    }
}
