import ODRCore

/// What a purge policy may be configured with when a run creates it.
///
/// Every policy gets the same context; each reads only what it needs (`random` the seed,
/// `belady` the future, `android-quota` its options), so the kernel and the CLI never need to
/// know which policy wants what.
public struct PolicyContext: Sendable {
    /// The run seed; stochastic policies derive their own stream from it.
    public var seed: UInt64
    /// The whole request stream of the run, for offline policies (``PolicyDescriptor/needsFuture``).
    public var future: FutureRequests?
    /// The scenario's `policy_options` for this policy, checked against its descriptor's
    /// ``PolicyDescriptor/options``.
    public var options: PolicyOptions

    public init(seed: UInt64 = 0, future: FutureRequests? = nil, options: PolicyOptions = PolicyOptions()) {
        self.seed = seed
        self.future = future
        self.options = options
    }
}
