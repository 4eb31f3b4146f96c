/// An LRU miss-ratio curve estimated from a spatial sample of the trace's objects (SHARDS:
/// Waldspurger, Park, Garthwaite and Ahmad, "Efficient MRC Construction with SHARDS",
/// FAST 2015), for traces whose objects do not fit in memory.
///
/// An object is in the sample when a hash of its ID falls below `rate × 2^24` (the same
/// 24-bit threshold as libCacheSim's SHARDS sampler), so every request of a sampled object is
/// kept and none of the others: the sample is a trace over `rate` of the objects, whose
/// stack distances, divided by `rate`, estimate the full trace's. Memory is that of the
/// sampled objects and requests only; the file is read once.
///
/// The miss ratios use SHARDS' adjustment: sampled misses are divided by the requests (and
/// bytes) a sample at exactly `rate` would hold, `rate × N`, rather than by those this sample
/// happened to hold, which removes most of the bias a few very popular objects cause.
///
/// The error is estimated from the sample itself: its objects fall into 8 sub-samples by
/// other bits of the same hash, each a SHARDS sample at `rate / 8`; the spread of their
/// curves, divided by √8, is the standard error reported for each point.
public struct SampledLRUCurve: Sendable {
    /// The rate actually used: the threshold is a whole number of 2^-24 steps.
    public var rate: Double
    public var sampledObjects: Int
    public var sampledRequests: Int
    /// Requests and requested bytes of the whole trace (every line is read).
    public var requests: Int64
    public var bytesRequested: Int64
    /// The sampled objects' first-seen sizes divided by the rate.
    public var estimatedUniqueBytes: Int64
    /// Per capacity: the estimated counts (misses are the estimated ratio times the trace's
    /// requests or bytes, rounded).
    public var points: [LRUCurve.Point]
    /// Per capacity: the standard error of the object and byte miss ratios.
    public var objectMissRatioErrors: [Double]
    public var byteMissRatioErrors: [Double]

    static let subsamples = 8
    static let thresholdBits = 24

    /// Whether `object` is in a sample taken with `threshold` (of 2^24), and its sub-sample.
    @inline(__always)
    static func sample(_ object: UInt64, threshold: UInt64) -> Int? {
        // SplitMix64's finalizer: every bit of the ID reaches every bit of the hash.
        var z = object &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        guard z & ((1 << UInt64(thresholdBits)) - 1) < threshold else { return nil }
        return Int(z >> 61)
    }
}

extension LRUCurve {
    /// The curve at `capacities` estimated from `rate` (0 < rate ≤ 1) of the trace's objects.
    /// Percentages are of ``SampledLRUCurve/estimatedUniqueBytes``.
    public func computeSampled(
        _ capacities: [TraceReplayer.Capacity], rate: Double,
        progress: ((Double) -> Void)? = nil
    ) throws(TraceError) -> SampledLRUCurve {
        precondition(rate > 0 && rate <= 1, "rate must be in (0, 1]")
        let threshold = UInt64(max(1, (rate * Double(1 << SampledLRUCurve.thresholdBits)).rounded()))
        let used = Double(threshold) / Double(1 << SampledLRUCurve.thresholdBits)
        let reader = try TraceInput(path: path, format: format)
        var table = ObjectTable()
        var sizes: [Int64] = []
        var group: [Int32] = []
        var requests: [Int32] = []
        var total: Int64 = 0
        var totalBytes: Int64 = 0
        while let record = try reader.next() {
            total += 1
            let (sum, overflow) = totalBytes.addingReportingOverflow(record.size)
            guard !overflow else {
                throw TraceError(
                    file: reader.fileName, line: record.line,
                    message: "the requests up to this line total more than \(Int64.max) bytes")
            }
            totalBytes = sum
            guard let sub = SampledLRUCurve.sample(record.object, threshold: threshold) else { continue }
            let (index, inserted, _) = table.findOrInsert(record.object, tag: 0)
            if inserted {
                sizes.append(record.size)
                group.append(Int32(sub))
            }
            requests.append(index)
        }
        let unique = Int64((Double(sizes.reduce(0, +)) / used).rounded())
        let bytes = capacities.map { $0.bytes(uniqueBytes: unique) }

        let whole = Self.count(requests: requests, sizes: sizes, capacities: bytes, scale: used, progress: progress)
        let expectedRequests = Double(total) * used
        let expectedBytes = Double(totalBytes) * used
        func ratios(_ c: Counts, share: Double) -> (Double, Double) {
            (
                min(1, Double(c.misses) / max(1e-300, expectedRequests * share)),
                min(1, Double(c.bytesMissed) / max(1e-300, expectedBytes * share))
            )
        }
        // The sub-samples, each a sample at rate / 8 with its own stack.
        let k = SampledLRUCurve.subsamples
        var parts = [[Int32]](repeating: [], count: k)
        for pack in requests { parts[Int(group[Int(pack)])].append(pack) }
        let sub = parts.map { Self.count(requests: $0, sizes: sizes, capacities: bytes, scale: used / Double(k)) }
        var objectErrors: [Double] = []
        var byteErrors: [Double] = []
        for j in bytes.indices {
            let estimates = sub.map { ratios($0[j], share: 1 / Double(k)) }
            func standardError(_ values: [Double]) -> Double {
                let mean = values.reduce(0, +) / Double(values.count)
                let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
                return (variance / Double(values.count)).squareRoot()
            }
            objectErrors.append(standardError(estimates.map(\.0)))
            byteErrors.append(standardError(estimates.map(\.1)))
        }
        let points = zip(bytes, whole).map { capacity, counts in
            let (object, byte) = ratios(counts, share: 1)
            return Point(
                capacity: capacity, requests: total, misses: Int64((object * Double(total)).rounded()),
                bytesRequested: totalBytes, bytesMissed: Int64((byte * Double(totalBytes)).rounded()))
        }
        return SampledLRUCurve(
            rate: used, sampledObjects: sizes.count, sampledRequests: requests.count, requests: total,
            bytesRequested: totalBytes, estimatedUniqueBytes: unique, points: points,
            objectMissRatioErrors: objectErrors, byteMissRatioErrors: byteErrors)
    }
}
