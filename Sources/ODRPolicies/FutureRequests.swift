import ODRCore

/// The future request stream for offline policies: for each pack, the ordinals of the
/// requests that include it.
///
/// Requests are numbered as the device numbers them (``ODRDevice/requestOrdinal``): the first
/// request is ordinal 1. The layout is compressed sparse rows: one flat array of `UInt32`
/// ordinals grouped by pack, and one offset per pack, so memory is about 4 bytes per
/// (request, pack) pair plus 8 bytes per pack, with no array per pack or per request.
/// A lookup is a binary search in the pack's row, O(log requests of that pack).
/// Immutable once built, hence safe to share between runs and threads.
public final class FutureRequests: Sendable {
    /// Start of each pack's row in ``ordinals``; `packCount + 1` entries.
    private let offsets: [Int]
    private let ordinals: [UInt32]
    /// How many requests the stream has.
    public let requestCount: Int64

    /// Request `i` (ordinal `i + 1`) includes `requests[i]`.
    public convenience init(requests: [[PackID]]) {
        var builder = Builder()
        for packs in requests { builder.append(packs) }
        self.init(builder)
    }

    /// Request `i` (ordinal `i + 1`) includes exactly `packs[i]`: the shape of a cache trace.
    public convenience init(singlePackRequests packs: [PackID]) {
        var builder = Builder()
        builder.reserveCapacity(packs.count)
        for pack in packs { builder.append(pack) }
        self.init(builder)
    }

    /// Builds the rows from a builder's stream, by counting sort (two linear passes).
    public init(_ builder: Builder) {
        let packCount = Int(builder.maxPack) + 1
        var offsets = [Int](repeating: 0, count: packCount + 1)
        for p in builder.entries { offsets[Int(p) + 1] += 1 }
        for i in 0..<packCount { offsets[i + 1] += offsets[i] }
        var fill = offsets
        var ordinals = [UInt32](repeating: 0, count: builder.entries.count)
        ordinals.withUnsafeMutableBufferPointer { out in
            for (e, p) in builder.entries.enumerated() {
                // Entries come in request order, so each row ends up sorted.
                out[fill[Int(p)]] = builder.ordinal(ofEntry: e)
                fill[Int(p)] += 1
            }
        }
        self.offsets = offsets
        self.ordinals = ordinals
        self.requestCount = builder.requestCount
    }

    /// The rows as they are: pack `p`'s ordinals are `ordinals[offsets[p]..<offsets[p + 1]]`,
    /// ascending. For a source that knows each pack's requests already, such as a trace that
    /// stores every request's next access.
    public init(offsets: [Int], ordinals: [UInt32], requestCount: Int64) {
        precondition(offsets.first == 0 && offsets.last == ordinals.count, "offsets must span the ordinals")
        self.offsets = offsets
        self.ordinals = ordinals
        self.requestCount = requestCount
    }

    /// The ordinal of the first request after `ordinal` that includes `pack`, or nil if none does.
    public func nextRequest(of pack: PackID, after ordinal: Int64) -> Int64? {
        let p = Int(pack.rawValue)
        guard p >= 0, p + 1 < offsets.count else { return nil }
        var low = offsets[p]
        var high = offsets[p + 1]
        guard low < high else { return nil }
        if ordinal < 0 { return Int64(ordinals[low]) }
        if ordinal >= Int64(UInt32.max) { return nil }
        let after = UInt32(ordinal)
        // First entry greater than `after`.
        while low < high {
            let mid = (low + high) / 2
            if ordinals[mid] <= after { low = mid + 1 } else { high = mid }
        }
        return low < offsets[p + 1] ? Int64(ordinals[low]) : nil
    }

    /// Collects a request stream one request at a time.
    ///
    /// While every request has exactly one pack (a cache trace), it stores 4 bytes per request;
    /// the first request of another shape switches it to 8 bytes per entry.
    public struct Builder: Sendable {
        fileprivate var entries: [Int32] = []
        /// Ordinal of each entry; kept only once some request had other than one pack
        /// (until then entry `e` belongs to request `e + 1`).
        private var entryOrdinals: [UInt32] = []
        private var explicitOrdinals = false
        fileprivate private(set) var requestCount: Int64 = 0
        fileprivate private(set) var maxPack: Int32 = -1

        public init() {}

        public mutating func reserveCapacity(_ n: Int) { entries.reserveCapacity(n) }

        /// The next request includes exactly `pack`.
        public mutating func append(_ pack: PackID) {
            requestCount += 1
            precondition(requestCount < Int64(UInt32.max), "FutureRequests holds at most 2^32 - 2 requests")
            precondition(pack.rawValue >= 0, "negative pack index")
            entries.append(pack.rawValue)
            if explicitOrdinals { entryOrdinals.append(UInt32(requestCount)) }
            maxPack = Swift.max(maxPack, pack.rawValue)
        }

        /// The next request includes `packs` (duplicates are counted once).
        public mutating func append(_ packs: [PackID]) {
            if packs.count == 1 {
                append(packs[0])
                return
            }
            requestCount += 1
            precondition(requestCount < Int64(UInt32.max), "FutureRequests holds at most 2^32 - 2 requests")
            if !explicitOrdinals {
                // Materialize the implicit ordinals of the single-pack prefix.
                entryOrdinals = (0..<entries.count).map { UInt32($0 + 1) }
                explicitOrdinals = true
            }
            for (i, pack) in packs.enumerated() where !packs[..<i].contains(pack) {
                precondition(pack.rawValue >= 0, "negative pack index")
                entries.append(pack.rawValue)
                entryOrdinals.append(UInt32(requestCount))
                maxPack = Swift.max(maxPack, pack.rawValue)
            }
        }

        fileprivate func ordinal(ofEntry e: Int) -> UInt32 {
            explicitOrdinals ? entryOrdinals[e] : UInt32(e + 1)
        }
    }
}
