import ODRCore

/// Frees the demand with the least over-purge it can find cheaply.
///
/// Algorithm (greedy best fit), with `r` the bytes still to free:
/// 1. If some candidate is at least `r` bytes, purge the smallest such pack and stop: no
///    single pack frees `r` with less over-purge.
/// 2. Otherwise no single pack suffices: purge the largest candidate (it is smaller than
///    `r`, so it over-purges nothing), subtract its size from `r`, and go back to 1.
///
/// The result over-purges only in its last pack, by less than that pack's size, and that
/// last pack is the best fit for what remained. Finding the true minimum over all
/// combinations is subset sum (NP-hard); this greedy is exact whenever one pack suffices.
/// Among packs of equal size, the least recently used (request, arrival or release) goes.
///
/// Data structure: one LRU list per distinct pack size, and the distinct sizes in a sorted
/// array. Cost: O(1) per request and release; O(D) for an arrival of a size never seen
/// before (D = distinct sizes seen, inserted into the sorted array), O(1) otherwise. A purge
/// costs O(log D) per victim for the binary search, plus the size classes and held packs it
/// has to step over (O(D + skipped) in the worst case).
public final class BestFitPolicy: DescribedPolicy {
    /// One list per size class; list index = class index.
    private let lists = PackLinks(lists: 0)
    /// Size of each class.
    private let classSize = PolicyState<[Int64]>([])
    private let classOfSize = PolicyState<[Int64: Int]>([:])
    /// Class indices sorted by size.
    private let bySize = PolicyState<[Int]>([])
    private let size = Column<Int64>(initial: 0)

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "best-fit", summary: "least over-purge: smallest pack that suffices, else largest packs then best fit"
    ) { _ in BestFitPolicy() }

    private func sizeClass(_ bytes: Int64) -> Int {
        if let c = classOfSize.value[bytes] { return c }
        let c = classSize.value.count
        classSize.value.append(bytes)
        classOfSize.value[bytes] = c
        lists.ensureList(c)
        bySize.value.insert(c, at: lowerBound(bytes))
        return c
    }

    /// Position in ``bySize`` of the first class with size ≥ `bytes`.
    private func lowerBound(_ bytes: Int64) -> Int {
        var low = 0
        var high = bySize.value.count
        while low < high {
            let mid = (low + high) / 2
            if classSize.value[bySize.value[mid]] < bytes { low = mid + 1 } else { high = mid }
        }
        return low
    }

    public func packStored(_ pack: PurgeCandidate) {
        size.cover(pack)
        size[pack.pack] = pack.size
        lists.pushBack(pack.pack, list: sizeClass(pack.size))
    }

    public func packRequested(_ pack: PurgeCandidate) { refresh(pack.pack) }
    public func packReleased(_ pack: PurgeCandidate) { refresh(pack.pack) }
    public func packRemoved(_ pack: PurgeCandidate) { lists.remove(pack.pack) }

    private func refresh(_ p: PackID) {
        if let c = lists.list(of: p) { lists.pushBack(p, list: c) }
    }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var chosen = Set<PackID>()
        var victims: [PackID] = []
        var remaining = bytes

        /// The least recently used candidate of class `c` not chosen yet.
        func available(in c: Int) -> PackID? {
            var cursor = lists.first(c)
            while let p = cursor {
                if !chosen.contains(p) && view.isCandidate(p) { return p }
                cursor = lists.after(p)
            }
            return nil
        }
        func take(_ p: PackID) {
            chosen.insert(p)
            victims.append(p)
            remaining -= size[p]
        }

        while remaining > 0 {
            let fit = lowerBound(remaining)
            if let p = bySize.value[fit...].lazy.compactMap(available).first {
                take(p)
                break
            }
            guard let p = bySize.value[..<fit].reversed().lazy.compactMap(available).first else { break }
            take(p)
        }
        return victims
    }
}
