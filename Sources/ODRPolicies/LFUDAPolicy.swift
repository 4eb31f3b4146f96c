import ODRCore

/// LFU with Dynamic Aging (Arlitt et al., 2000), as libCacheSim 0.3.5's `LFUDA.c` runs it:
/// packs sit in buckets by a count, each bucket first in, first out, and the purge takes the
/// oldest pack of the bucket of the *minimum count* `m`, which then becomes the evicted
/// bucket's count (the aging: newcomers start above the evicted).
///
/// - An arrival's count is `m + 1`, at the back of its bucket.
/// - A request that finds the pack adds `m` to its count (libCacheSim's rule: before the first
///   purge `m` is 0, so a hit only moves the pack to the back of its bucket).
/// - When the bucket of `m` empties (a purge, or a hit moving its last pack), `m` becomes the
///   next count above it that has packs, found before the moving pack joins its new bucket,
///   and stays as it was when there is none. While `m` is 0 or 1 the purge looks at bucket 1.
///
/// Where libCacheSim's `m` points at an empty bucket (the hit above, when the pack was the only
/// one left at `m` and no bucket above has packs), its purge never ends; odr-sim takes the lowest
/// bucket with packs instead. Packs that are not candidates (held, another tier) are passed over
/// within their bucket, then the buckets above are tried.
///
/// Cost: O(1) per arrival and purge; a hit that empties the minimum bucket, and a purge that
/// does, O(buckets with packs) to find the next.
public final class LFUDAPolicy: DescribedPolicy {
    /// Each bucket a list of its own, by count; lists are reused once empty.
    private let buckets = PackLinks()
    private let count = Column<Int64>(initial: 0)
    private var listOfCount: [Int64: Int] = [:]
    /// Each list's count, while it holds packs (the inverse of `listOfCount`).
    private var countOfList: [Int64] = []
    private var freeLists: [Int] = []
    private var minimum: Int64 = 0
    private var maximum: Int64 = 0

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "lfuda", summary: "LFU with dynamic aging: oldest of the minimum count first (libCacheSim's LFUDA)"
    ) { _ in LFUDAPolicy() }

    private func list(for value: Int64) -> Int {
        if let list = listOfCount[value] { return list }
        let list = freeLists.popLast() ?? countOfList.count
        if list == countOfList.count { countOfList.append(value) } else { countOfList[list] = value }
        buckets.ensureList(list)
        listOfCount[value] = list
        return list
    }

    private func leave(_ p: PackID) {
        guard let list = buckets.list(of: p) else { return }
        buckets.remove(p)
        if buckets.count(list) == 0 {
            listOfCount[countOfList[list]] = nil
            freeLists.append(list)
        }
    }

    private func join(_ p: PackID, _ value: Int64) {
        count[p] = value
        maximum = Swift.max(maximum, value)
        buckets.pushBack(p, list: list(for: value))
    }

    /// The next count above `minimum` that has packs; `minimum` unchanged when none has.
    private func raiseMinimum() {
        if let next = listOfCount.keys.filter({ $0 > minimum }).min() { minimum = next }
    }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        count.cover(pack)
        buckets.cover(pack)
        leave(pack.pack)
        join(pack.pack, minimum &+ 1)
    }

    public func packRequested(_ pack: PurgeCandidate) {
        let p = pack.pack
        guard buckets.contains(p) else { return }
        let old = count[p]
        leave(p)
        if old == minimum && listOfCount[old] == nil { raiseMinimum() }
        // Counts grow by the minimum on every hit, so they can pass Int64's range on a long
        // skewed trace: they wrap, as libCacheSim's C does (whose purge then never ends).
        join(p, old &+ minimum)
    }

    public func packRemoved(_ pack: PurgeCandidate) { leave(pack.pack) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var victims: [PackID] = []
        var freed: Int64 = 0
        while freed < bytes, let (victim, size, bucket) = nextVictim(view) {
            minimum = bucket
            leave(victim)
            if listOfCount[bucket] == nil { raiseMinimum() }
            victims.append(victim)
            freed += size
        }
        return victims
    }

    /// The oldest candidate of the minimum's bucket (bucket 1 while the minimum is 0 or 1),
    /// else of the lowest bucket above it with one; with its size and its bucket's count.
    private func nextVictim(_ view: PurgeView) -> (PackID, Int64, Int64)? {
        let first = Swift.max(minimum, 1)
        if let found = oldestCandidate(of: first, view) { return found }
        // Rare: the bucket is empty (where libCacheSim would loop) or holds no candidate.
        for value in listOfCount.keys.sorted() where value != first {
            if let found = oldestCandidate(of: value, view) { return found }
        }
        return nil
    }

    private func oldestCandidate(of value: Int64, _ view: PurgeView) -> (PackID, Int64, Int64)? {
        guard let list = listOfCount[value] else { return nil }
        var cursor = buckets.first(list)
        while let p = cursor {
            if let size = view.candidateSize(p) { return (p, size, value) }
            cursor = buckets.after(p)
        }
        return nil
    }
}
