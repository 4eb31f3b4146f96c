/// A cache's answer to an arrival (``PurgePolicy/admission(of:needing:)``): keep it, or
/// deliver it without keeping it.
///
/// ODR itself keeps every pack it downloads: an app reads its resources from the disk. A
/// cache in a trace replay may decline an object instead, as libCacheSim's S3-FIFO declines
/// one larger than its small queue, and its GDSF evicts an arrival whose priority is the
/// lowest. A declined object is a miss whose bytes are downloaded and then dropped: it takes
/// no space, the policy is told nothing of it, and the next request for it misses again (a
/// re-download). Only ``ODRDevice/access(_:tag:at:)``'s single-pack accesses ask; a request
/// that holds its pack always keeps it.
public enum Admission: Equatable, Sendable {
    /// Stored, after the device makes room as usual.
    case keep
    /// Not stored. First the device frees `afterFreeing` bytes as a purge under the policy
    /// would (0: none), as a cache does that evicts before it finds the arrival is the victim.
    case decline(afterFreeing: Int64)
}
