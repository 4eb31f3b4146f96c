import Histogram

/// Request wait times (begin to grant), with percentiles from an HdrHistogram.
///
/// Waits are recorded in microseconds with three significant digits, so a percentile is
/// within 0.1 % of the exact order statistic; memory is fixed whatever the request count.
public struct WaitStatistics: Sendable {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 1 << 45, numberOfSignificantValueDigits: .three)
    private var total: Double = 0
    public private(set) var count = 0

    public init() {}

    public mutating func record(seconds: Double) {
        let micros = UInt64(max(0, (seconds * 1e6).rounded()))
        _ = histogram.record(min(micros, histogram.highestTrackableValue))
        total += seconds
        count += 1
    }

    /// The `p`-th percentile in seconds; 0 when nothing was recorded.
    public func percentile(_ p: Double) -> Double {
        count == 0 ? 0 : Double(histogram.valueAtPercentile(p)) / 1e6
    }

    public var mean: Double { count == 0 ? 0 : total / Double(count) }
}
