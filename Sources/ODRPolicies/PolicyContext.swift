import ODRCore

/// What a purge policy may be configured with when a run creates it.
///
/// Every policy gets the same context; each reads only what it needs (`random` the seed,
/// `belady` the future, `android-quota` the quotas), so the kernel and the CLI never need to
/// know which policy wants what.
public struct PolicyContext: Sendable {
    /// The run seed; stochastic policies derive their own stream from it.
    public var seed: UInt64
    /// The whole request stream of the run, for offline policies (``PolicyDescriptor/needsFuture``).
    public var future: FutureRequests?
    /// Cache quota of an app that has none in ``quotas`` (Android assumes 64 MiB).
    public var defaultQuota: Int64
    /// Per-app cache quotas for `android-quota`.
    public var quotas: [AppID: Int64]

    public init(
        seed: UInt64 = 0, future: FutureRequests? = nil, defaultQuota: Int64 = 64 << 20,
        quotas: [AppID: Int64] = [:]
    ) {
        self.seed = seed
        self.future = future
        self.defaultQuota = defaultQuota
        self.quotas = quotas
    }

    /// The quota of `app`.
    public func quota(of app: AppID) -> Int64 { quotas[app] ?? defaultQuota }
}
