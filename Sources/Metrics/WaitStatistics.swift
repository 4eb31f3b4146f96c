import Histogram

/// Request wait times (begin to grant): mean and percentiles.
///
/// Percentiles are exact order statistics (nearest rank: the smallest wait that at least
/// p % of the waits do not exceed) while a run has at most ``exactLimit`` waits, which it
/// keeps; past that they come from an HdrHistogram with three significant digits (within
/// 0.1 % of the exact value) in fixed memory. A run of many thousands of requests reports
/// exact waits; a wait of exactly 2 s reports 2.000000, not its histogram bucket's top.
public struct WaitStatistics: Sendable {
    /// Most waits kept for exact percentiles: 8 MB per run.
    public static let exactLimit = 1_000_000

    // Performance: made only when the waits pass `exactLimit` (most runs never do): an
    // empty histogram of this range is over half a megabyte to allocate and zero, and a run
    // keeps one per app as well as the device's.
    private var histogram: Histogram<UInt64>?
    private var waits: [Double] = []
    private var total: Double = 0
    public private(set) var count = 0

    public init() {}

    public mutating func record(seconds: Double) {
        if count < Self.exactLimit {
            waits.append(seconds)
        } else {
            if histogram == nil {
                // Past the limit: the histogram alone, holding every wait so far.
                var made = Histogram<UInt64>(highestTrackableValue: 1 << 45, numberOfSignificantValueDigits: .three)
                for wait in waits { Self.record(wait, in: &made) }
                histogram = made
                waits = []
            }
            Self.record(seconds, in: &histogram!)
        }
        total += seconds
        count += 1
    }

    private static func record(_ seconds: Double, in histogram: inout Histogram<UInt64>) {
        let micros = UInt64(max(0, (seconds * 1e6).rounded()))
        _ = histogram.record(min(micros, histogram.highestTrackableValue))
    }

    /// The distribution at `points` evenly spaced percentiles (1/points … 100 %), as
    /// (seconds, fraction of waits at or below): what a CDF chart draws.
    public func distribution(points: Int = 100) -> [(seconds: Double, fraction: Double)] {
        guard count > 0, points > 0 else { return [] }
        // Sorted once, not once per point.
        let sorted = isExact ? waits.sorted() : []
        return (1...points).map { i in
            let p = 100 * Double(i) / Double(points)
            guard isExact else { return (percentile(p), p / 100) }
            let rank = Int((p / 100 * Double(count)).rounded(.up))
            return (sorted[min(max(rank, 1), count) - 1], p / 100)
        }
    }

    /// Whether ``percentile(_:)`` is an exact order statistic.
    public var isExact: Bool { count <= Self.exactLimit }

    /// The `p`-th percentile in seconds; 0 when nothing was recorded.
    public func percentile(_ p: Double) -> Double {
        guard count > 0 else { return 0 }
        if !isExact, let histogram { return Double(histogram.valueAtPercentile(p)) / 1e6 }
        let sorted = waits.sorted()
        let rank = Int((p / 100 * Double(count)).rounded(.up))
        return sorted[min(max(rank, 1), count) - 1]
    }

    public var mean: Double { count == 0 ? 0 : total / Double(count) }
}
