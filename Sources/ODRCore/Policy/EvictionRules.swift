/// How an app's own code removes its packs, where its platform makes that the app's
/// business (``Evictor/app``: Background Assets, Play Asset Delivery); on a platform where
/// the system purges, only the system's rules apply and these are not read.
///
/// ```swift
/// let rules = EvictionRules(budget: 1_000_000_000, keep: [chapter1], strategy: LRUPolicy())
/// let game = device.addApp(name: "game", catalog: catalog, eviction: rules, profile: .backgroundAssets)
/// ```
public struct EvictionRules {
    /// The most bytes the app's own code lets its packs take before it removes some; nil: it
    /// removes none to stay within one.
    public var budget: Int64?
    /// Tags whose packs the app's own code never removes (the system's rules are unchanged).
    public var keep: [TagID]
    /// The app's own eviction strategy; nil: the device's policy chooses for it.
    public var strategy: (any PurgePolicy)?

    public init(budget: Int64? = nil, keep: [TagID] = [], strategy: (any PurgePolicy)? = nil) {
        self.budget = budget
        self.keep = keep
        self.strategy = strategy
    }
}
