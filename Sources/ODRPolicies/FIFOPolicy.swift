import ODRCore

/// First in, first out: purge the pack that finished downloading earliest; requests do not
/// move it (libCacheSim's FIFO).
///
/// Cost: O(1) per notification; a purge walks from the oldest, O(victims + skipped).
public final class FIFOPolicy: DescribedPolicy {
    private let queue = PackQueue()

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "fifo", summary: "earliest downloaded first; requests do not refresh a pack"
    ) { _ in FIFOPolicy() }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) { queue.store(pack) }
    public func packRemoved(_ pack: PurgeCandidate) { queue.remove(pack) }
    public func prefetch(_ pack: PackID) { queue.prefetch(pack) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        queue.victims(toFree: bytes, from: view)
    }
}
