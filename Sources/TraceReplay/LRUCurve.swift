/// The exact LRU miss-ratio curve of a trace at byte capacities, from one pass over its
/// requests by stack distances with sizes (Mattson's stack algorithm, byte-weighted).
///
/// With LRU the disk holds, after every request, the longest run of the most recently used
/// objects whose sizes fit (eviction goes from the least recent until the newcomer fits, so
/// the held set stays a prefix of the recency order). A request for an object of size `s` last
/// used at time `u` is therefore a hit at capacity `C` exactly when `s ≤ C` and the distinct
/// objects used since `u`, together with it, take at most `C` bytes. Each object's size sits
/// in a Fenwick tree at the position of its latest use, so that sum is one range query:
/// O(log n) per request. Objects larger than `C` are never stored, so they do not count at
/// capacities below the largest object; such capacities get a tree of their own, holding only
/// the objects that fit.
///
/// Counting follows ``TraceReplayer``: no warm-up, every first request a miss, an object larger
/// than the disk a miss that stores nothing. The counts equal `replay --policy lru` at every
/// capacity (a test holds them to it).
public struct LRUCurve {
    public struct Point: Sendable, Hashable {
        public var capacity: Int64
        public var requests: Int64 = 0
        public var misses: Int64 = 0
        public var bytesRequested: Int64 = 0
        public var bytesMissed: Int64 = 0
        public var objectMissRatio: Double { requests == 0 ? 0 : Double(misses) / Double(requests) }
        public var byteMissRatio: Double { bytesRequested == 0 ? 0 : Double(bytesMissed) / Double(bytesRequested) }
    }

    public let path: String
    public let format: TraceFormat

    public init(path: String, format: TraceFormat? = nil) {
        self.path = path
        self.format = format ?? .detect(path: path)
    }

    /// The curve at `capacities` (bytes or percentages of the unique bytes), in that order.
    /// Also returns the trace's unique bytes (the sum of each object's first-seen size).
    public func compute(_ capacities: [TraceReplayer.Capacity], progress: ((Double) -> Void)? = nil)
        throws(TraceError) -> (points: [Point], uniqueBytes: Int64)
    {
        let objects = try TraceObjects.scan(path: path, format: format, recordRequests: true, streamBudget: .max)
        var sizeOfPack = [Int64](repeating: 0, count: objects.objects.count)
        for object in objects.objects { sizeOfPack[Int(objects.pack(of: object))] = object.size }
        let unique = sizeOfPack.reduce(0, +)
        let bytes = capacities.map { $0.bytes(uniqueBytes: unique) }
        let counts = Self.count(
            requests: objects.requests, sizes: sizeOfPack, capacities: bytes, scale: 1, progress: progress)
        return (
            zip(bytes, counts).map { c, k in
                Point(
                    capacity: c, requests: k.requests, misses: k.misses, bytesRequested: k.bytesRequested,
                    bytesMissed: k.bytesMissed)
            }, unique
        )
    }

    /// What one pass of the stack algorithm counts at one capacity.
    struct Counts {
        var requests: Int64 = 0
        var misses: Int64 = 0
        var bytesRequested: Int64 = 0
        var bytesMissed: Int64 = 0
    }

    /// Mattson's stack algorithm with sizes over `requests` (indices into `sizes`). A request
    /// hits at capacity `C` when its object was used before, fits `C`, and its stack distance
    /// (bytes of the distinct objects used since, with itself) is at most `C × scale`.
    static func count(
        requests: [Int32], sizes: [Int64], capacities bytes: [Int64], scale: Double,
        progress: ((Double) -> Void)? = nil
    ) -> [Counts] {
        let largest = sizes.max() ?? 0
        var points = bytes.map { _ in Counts() }
        // Tree 0 holds every object; a capacity below the largest object has its own tree of
        // the objects that fit it.
        let n = requests.count
        var trees = [Fenwick(count: n)]
        var treeOf: [Int] = []
        var limits: [Int64] = [.max]
        for c in bytes {
            if c >= largest {
                treeOf.append(0)
            } else if let existing = limits.firstIndex(of: c) {
                treeOf.append(existing)
            } else {
                limits.append(c)
                trees.append(Fenwick(count: n))
                treeOf.append(trees.count - 1)
            }
        }
        // A sampled stack holds about `scale` of the bytes a full one does: its distances are
        // compared with the capacity scaled down (exact distances compare as integers).
        let thresholds = bytes.map { scale == 1 ? $0 : Int64((Double($0) * scale).rounded(.down)) }
        var lastUse = [Int32](repeating: -1, count: sizes.count)
        // Each tree's stack distance of the request, queried once for all its capacities.
        var distance = [Int64](repeating: 0, count: trees.count)
        // Tree 0's capacities (all at least the largest object) in ascending order: a request
        // misses at exactly those below the first whose threshold reaches its distance, so it
        // is counted once, at that boundary (O(log points), not O(points)); the counts per
        // capacity are the sums over boundaries above it.
        let shared = bytes.indices.filter { treeOf[$0] == 0 }.sorted { thresholds[$0] < thresholds[$1] }
        let sharedThresholds = shared.map { thresholds[$0] }
        let others = bytes.indices.filter { treeOf[$0] != 0 }
        var missesAt = [Int64](repeating: 0, count: shared.count + 1)
        var bytesMissedAt = [Int64](repeating: 0, count: shared.count + 1)
        var requestCount: Int64 = 0
        var requestedBytes: Int64 = 0
        for (t, pack) in requests.enumerated() {
            let size = sizes[Int(pack)]
            let last = Int(lastUse[Int(pack)])
            if last >= 0 {
                for k in trees.indices where size <= limits[k] {
                    distance[k] = trees[k].sum(from: last + 1, to: t) + size
                }
            }
            requestCount += 1
            requestedBytes += size
            // The first of tree 0's capacities at which the request hits (all miss on a first use).
            var boundary = shared.count
            if last >= 0 {
                var low = 0
                let d = distance[0]
                while low < boundary {
                    let mid = (low + boundary) / 2
                    if sharedThresholds[mid] >= d { boundary = mid } else { low = mid + 1 }
                }
            }
            missesAt[boundary] += 1
            bytesMissedAt[boundary] += size
            for j in others {
                let hit = last >= 0 && size <= bytes[j] && distance[treeOf[j]] <= thresholds[j]
                if !hit {
                    points[j].misses += 1
                    points[j].bytesMissed += size
                }
            }
            for k in trees.indices where size <= limits[k] {
                if last >= 0 { trees[k].add(-size, at: last) }
                trees[k].add(size, at: t)
            }
            lastUse[Int(pack)] = Int32(t)
            if t & 0xFFFF == 0xFFFF, let progress { progress(Double(t + 1) / Double(max(1, n))) }
        }
        // A request with boundary b missed at the sorted capacities below b.
        var misses: Int64 = 0
        var bytesMissed: Int64 = 0
        for q in shared.indices.reversed() {
            misses += missesAt[q + 1]
            bytesMissed += bytesMissedAt[q + 1]
            points[shared[q]].misses = misses
            points[shared[q]].bytesMissed = bytesMissed
        }
        for j in points.indices {
            points[j].requests = requestCount
            points[j].bytesRequested = requestedBytes
        }
        return points
    }
}

/// Prefix sums over positions 0..<count with point updates, both O(log count).
struct Fenwick {
    private var tree: [Int64]

    init(count: Int) { tree = [Int64](repeating: 0, count: count + 1) }

    mutating func add(_ value: Int64, at position: Int) {
        var i = position + 1
        while i < tree.count {
            tree[i] += value
            i += i & -i
        }
    }

    /// The sum over positions below `end`.
    func prefix(_ end: Int) -> Int64 {
        var i = end
        var total: Int64 = 0
        while i > 0 {
            total += tree[i]
            i -= i & -i
        }
        return total
    }

    /// The sum over positions `from..<to`.
    func sum(from: Int, to: Int) -> Int64 { to <= from ? 0 : prefix(to) - prefix(from) }
}
