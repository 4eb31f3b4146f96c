/// What one policy did on one trace at one capacity, counted as libCacheSim counts: every
/// request counts (no warm-up), a request for an object not on the disk is a miss.
public struct ReplayResult: Hashable, Sendable {
    public var policy: String
    public var capacityBytes: Int64
    public var requests: Int64 = 0
    public var misses: Int64 = 0
    public var bytesRequested: Int64 = 0
    public var bytesMissed: Int64 = 0
    /// Packs purged.
    public var purges: Int64 = 0
    public var purgedBytes: Int64 = 0
    /// Sum over purge episodes of bytes purged beyond the bytes needed.
    public var overPurgeBytes: Int64 = 0

    public init(policy: String, capacityBytes: Int64) {
        self.policy = policy
        self.capacityBytes = capacityBytes
    }

    /// Misses per request (0 for an empty trace).
    public var objectMissRatio: Double { requests == 0 ? 0 : Double(misses) / Double(requests) }
    /// Missed bytes per requested byte (0 when nothing was requested).
    public var byteMissRatio: Double { bytesRequested == 0 ? 0 : Double(bytesMissed) / Double(bytesRequested) }
}
