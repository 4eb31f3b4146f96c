/// A request sequence as the offline bounds see it: which object each request asks for, and
/// each object's size. Every request of an object is for the whole object; the first
/// request of each is a miss under any policy (no warm-up), as libCacheSim and
/// ``PFOOL``/``FOO``'s reference tools count.
public struct RequestSequence: Sendable {
    /// Per request, the object's index into ``sizes``.
    public let objects: [Int32]
    /// Per object, bytes.
    public let sizes: [Int64]

    public init(objects: [Int32], sizes: [Int64]) {
        precondition(objects.allSatisfy { $0 >= 0 && Int($0) < sizes.count }, "an object index is out of range")
        precondition(sizes.allSatisfy { $0 >= 0 }, "a size is negative")
        self.objects = objects
        self.sizes = sizes
    }

    public var requestCount: Int { objects.count }

    /// Bytes of all requests.
    public var requestedBytes: Int64 { objects.reduce(0) { $0 + sizes[Int($1)] } }

    /// For each request, the index of the next request for the same object, or -1.
    func nextRequests() -> [Int32] {
        var next = [Int32](repeating: -1, count: objects.count)
        var upcoming = [Int32](repeating: -1, count: sizes.count)
        for i in objects.indices.reversed() {
            let o = Int(objects[i])
            next[i] = upcoming[o]
            upcoming[o] = Int32(i)
        }
        return next
    }
}

/// Hits and misses at one capacity, counted as bounds: a lower bound on misses is an upper
/// bound on hits.
public struct MissCounts: Sendable, Hashable {
    public var requests: Int64
    public var misses: Double
    public var bytesRequested: Int64
    public var bytesMissed: Double

    public var objectMissRatio: Double { requests == 0 ? 0 : misses / Double(requests) }
    public var byteMissRatio: Double { bytesRequested == 0 ? 0 : bytesMissed / Double(bytesRequested) }
}
