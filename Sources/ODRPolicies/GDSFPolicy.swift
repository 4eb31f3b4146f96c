import ODRCore

/// Greedy-Dual-Size-Frequency: small, often requested packs stay; large, rarely requested
/// ones go, with an inflation value that ages everything that is not requested.
///
/// priority = L + frequency × 10⁶ / size, purge the lowest. `frequency` is 1 on arrival and
/// grows by 1 per request that finds the pack on the device; `L` starts at 0 and becomes the
/// priority of each purged pack. Among equal priorities the least recently requested goes
/// first. The arithmetic is libCacheSim's, in the same order (`(f × 1e6) / size`, then `L +`),
/// so the doubles and hence the ties come out identical. A pack of zero bytes is treated as
/// one byte so its priority stays finite.
///
/// On a trace replay it decides admission as libCacheSim 0.3.5's `GDSF.cpp` does: that one
/// stores the arrival first (priority `L + 10⁶ / size`) and then evicts the lowest priority
/// until the cache fits, so the arrival itself is evicted once every pack at or below its
/// priority has gone without freeing enough. Here those packs are purged, the arrival is
/// delivered and not kept (``Admission``), and `L` becomes its priority; a kept arrival has
/// the priority `L` gave it before the room was made. (The 2024 `cachesim` made room first,
/// then priced and stored the arrival; a request in a scenario still does.)
///
/// Cost: O(log n) per notification and per popped entry (an indexed heap); an admission
/// O(packs at or below the arrival's priority, up to the bytes needed).
public final class GDSFPolicy: DescribedPolicy {
    private let heap = PackHeap<Double>()
    private let frequency = Column<Int64>(initial: 0)
    private let sizes = Column<Int64>(initial: 0)
    private var inflation: Double = 0
    /// The priority of an arrival declined after purging the packs below it: `L` once they go.
    private var declinedPriority: Double?
    /// The arrival admission kept, with its priority from `L` before the room made for it
    /// (libCacheSim stores it first, then evicts).
    private var keptArrival: (pack: PackID, rank: Double)?

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "gdsf", summary: "Greedy-Dual-Size-Frequency: lowest L + requests x 1e6 / size first"
    ) { _ in GDSFPolicy() }

    private func priority(_ f: Int64, _ size: Int64) -> Double {
        inflation + Double(f) * 1.0e6 / Double(Swift.max(size, 1))
    }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        frequency.cover(pack)
        sizes.cover(pack)
        sizes[pack.pack] = pack.size
        frequency[pack.pack] = 1
        let kept = keptArrival?.pack == pack.pack ? keptArrival?.rank : nil
        keptArrival = nil
        heap.set(pack.pack, rank: kept ?? priority(1, pack.size))
    }

    public func packRequested(_ pack: PurgeCandidate) {
        let p = pack.pack
        guard heap.contains(p) else { return }
        frequency[p] += 1
        heap.set(p, rank: priority(frequency[p], pack.size))
    }

    public func packRemoved(_ pack: PurgeCandidate) {
        heap.remove(pack.pack)
        if frequency.covers(pack.pack) { frequency[pack.pack] = 0 }
    }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        let victims = heap.popVictims(toFree: bytes, from: view)
        // L becomes the priority of each purged pack in turn; they leave in rising order.
        if let last = victims.last { inflation = last.key.rank }
        // Then the declined arrival's, the last to leave (libCacheSim evicts it after them).
        if let declined = declinedPriority {
            inflation = declined
            declinedPriority = nil
        }
        return victims.map(\.pack)
    }

    public var decidesAdmission: Bool { true }

    public func admission(of pack: PurgeCandidate, needing bytes: Int64) -> Admission {
        let rank = priority(1, pack.size)
        keptArrival = (pack.pack, rank)
        guard bytes > 0 else { return .keep }
        // Packs of equal priority were set before the arrival would be: they go first.
        let below = heap.bytes(atMost: rank, limit: bytes) { sizes[$0] }
        guard below < bytes else { return .keep }
        keptArrival = nil
        if below == 0 { inflation = rank } else { declinedPriority = rank }
        return .decline(afterFreeing: below)
    }
}
