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
/// Cost: O(log n) per notification and per popped entry (an indexed heap).
public final class GDSFPolicy: DescribedPolicy {
    private let heap = PackHeap<Double>()
    private let frequency = Column<Int64>(initial: 0)
    private var inflation: Double = 0

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "gdsf", summary: "Greedy-Dual-Size-Frequency: lowest L + requests x 1e6 / size first"
    ) { _ in GDSFPolicy() }

    private func priority(_ f: Int64, _ size: Int64) -> Double {
        inflation + Double(f) * 1.0e6 / Double(Swift.max(size, 1))
    }

    public func packStored(_ pack: PurgeCandidate) {
        frequency.cover(pack)
        frequency[pack.pack] = 1
        heap.set(pack.pack, rank: priority(1, pack.size))
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
        return victims.map(\.pack)
    }
}
