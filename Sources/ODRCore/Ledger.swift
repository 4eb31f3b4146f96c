/// Running totals of what an ``ODRDevice`` did, kept so that reports need not replay events.
public struct Ledger: Hashable, Sendable {
    /// Requests made (begin and conditional begin).
    public var requests: Int64 = 0
    /// Requests granted at once because everything was on the device.
    public var hits: Int64 = 0
    public var grants: Int64 = 0
    public var downloadsStarted: Int64 = 0
    public var downloadsFinished: Int64 = 0
    /// Bytes received from the network.
    public var downloadedBytes: Int64 = 0
    /// Bytes received for packs that had been purged before.
    public var redownloadBytes: Int64 = 0
    /// Packs purged.
    public var purges: Int64 = 0
    public var purgeEpisodes: Int64 = 0
    public var purgedBytes: Int64 = 0
    /// Sum over purge episodes of purged minus needed bytes.
    public var overPurgeBytes: Int64 = 0
    /// Bytes removed by uninstalling apps (not purges).
    public var removedBytes: Int64 = 0
    public var lowDiskWarnings: Int64 = 0
    /// Apps terminated by the device for want of space.
    public var appTerminations: Int64 = 0
    public var failures: [RequestError: Int64] = [:]
    /// Growth of other data that did not fit on the disk.
    public var refusedOtherBytes: Int64 = 0
    /// Highest disk use seen (other data, ODR content and reservations).
    public var peakUsedBytes: Int64 = 0

    public init() {}

    /// All failed requests and installs.
    public var failedRequests: Int64 { failures.values.reduce(0, +) }
    public func failures(_ error: RequestError) -> Int64 { failures[error] ?? 0 }
}
