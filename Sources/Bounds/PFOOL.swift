/// PFOO-L, the practical lower bound on misses of Berger, Beckmann and Harchol-Balter
/// ("Practical Bounds on Optimal Caching with Variable Object Sizes", SIGMETRICS 2018).
///
/// Caching an object from one request to its next one takes `size × (distance in requests)`
/// of space-time and saves one miss (and `size` missed bytes). A cache of `C` bytes offers at
/// most `C × N` space-time over `N` requests, so no policy saves more than the intervals that
/// fit in that budget, taken cheapest first. Relaxed away: that the space is there at every
/// moment (only the total counts), and that an interval is cached whole.
///
/// - Object misses: intervals by space-time, ascending (cheapest per saved miss).
/// - Byte misses: intervals by distance, ascending (cheapest per saved byte: space-time over
///   size). The authors' tool (BHRgoal/PFOO-L) sorts by space-time for bytes too, which is not
///   the cheapest order per byte and so not a bound (on the shared trace at 10 % it gives byte
///   misses of 0.65487 where the relaxation allows 0.64923); ``referenceByteMisses`` is that
///   figure, for comparison with the tool.
///
/// As in the tool, an interval is taken while the space-time taken before it is within the
/// budget (the last one may cross it). O(n log n): two sorts, then a binary search per capacity.
public struct PFOOL: Sendable {
    /// The bound at one capacity.
    public struct Bound: Sendable, Hashable {
        public var capacity: Int64
        /// Lower bounds on object and byte misses.
        public var counts: MissCounts
        /// Byte misses as the authors' tool computes them (space-time order).
        public var referenceByteMisses: Int64
    }

    private struct Interval {
        var key: UInt64
        var volume: UInt64
        var size: Int64
    }

    public let sequence: RequestSequence
    /// Intervals by space-time, and by distance; with prefix sums of space-time and size.
    private let byVolume: Prefixes
    private let byDistance: Prefixes

    private struct Prefixes {
        /// `volume[k]`: space-time of the first `k` intervals (saturating); `bytes[k]` their sizes.
        var volume: [UInt64]
        var bytes: [Int64]
    }

    public init(_ sequence: RequestSequence) {
        self.sequence = sequence
        let next = sequence.nextRequests()
        var volumeOrder: [Interval] = []
        var distanceOrder: [Interval] = []
        volumeOrder.reserveCapacity(sequence.requestCount)
        for (i, n) in next.enumerated() where n >= 0 {
            let size = sequence.sizes[Int(sequence.objects[i])]
            let distance = UInt64(Int(n) - i)
            let (volume, overflow) = distance.multipliedReportingOverflow(by: UInt64(size))
            let v = overflow ? .max : volume
            volumeOrder.append(Interval(key: v, volume: v, size: size))
            distanceOrder.append(Interval(key: distance, volume: v, size: size))
        }
        volumeOrder.sort { $0.key < $1.key }
        distanceOrder.sort { ($0.key, $0.volume) < ($1.key, $1.volume) }
        func prefixes(_ list: [Interval]) -> Prefixes {
            var volume = [UInt64](repeating: 0, count: list.count + 1)
            var bytes = [Int64](repeating: 0, count: list.count + 1)
            for (k, interval) in list.enumerated() {
                let (sum, overflow) = volume[k].addingReportingOverflow(interval.volume)
                volume[k + 1] = overflow ? .max : sum
                bytes[k + 1] = bytes[k] + interval.size
            }
            return Prefixes(volume: volume, bytes: bytes)
        }
        byVolume = prefixes(volumeOrder)
        byDistance = prefixes(distanceOrder)
    }

    /// How many intervals are taken: those whose preceding space-time is within `budget`.
    private static func taken(_ prefixes: Prefixes, budget: UInt64) -> Int {
        // Interval k (0-based) is taken when volume[k] ≤ budget; volume is nondecreasing.
        var low = 0
        var high = prefixes.volume.count - 1
        while low < high {
            let mid = (low + high) / 2
            if prefixes.volume[mid] <= budget { low = mid + 1 } else { high = mid }
        }
        return prefixes.volume[low] <= budget ? low + 1 : low
    }

    /// The fewest bytes that must be fetched again for repeated requests (every request but
    /// each object's first) when the cache offers `spaceTime` in all (the sum over requests
    /// of the space there is at each): the repeats' bytes minus the most an interval
    /// selection within that budget keeps, cheapest per byte first. For budgets that vary
    /// over time, where ``bound(capacity:)`` assumes a constant capacity.
    public func repeatBytesMissed(spaceTime: UInt64) -> Int64 {
        let intervals = byDistance.volume.count - 1
        let kept = byDistance.bytes[min(intervals, Self.taken(byDistance, budget: spaceTime))]
        return byDistance.bytes[intervals] - kept
    }

    /// The bound at `capacity` bytes.
    public func bound(capacity: Int64) -> Bound {
        let n = UInt64(sequence.requestCount)
        let (product, overflow) = UInt64(max(0, capacity)).multipliedReportingOverflow(by: n)
        let budget = overflow ? .max : product
        let intervals = byVolume.volume.count - 1
        let objectHits = min(intervals, Self.taken(byVolume, budget: budget))
        let byteHits = byDistance.bytes[min(intervals, Self.taken(byDistance, budget: budget))]
        let referenceByteHits = byVolume.bytes[objectHits]
        let requested = sequence.requestedBytes
        return Bound(
            capacity: capacity,
            counts: MissCounts(
                requests: Int64(n), misses: Double(Int64(n) - Int64(objectHits)),
                bytesRequested: requested, bytesMissed: Double(requested - byteHits)),
            referenceByteMisses: requested - referenceByteHits)
    }
}
