import TestSupport
import Testing

@testable import TraceReplay

/// The scan's overflow guard decides, once per request, whether requests × the largest size
/// seen could pass `Int64.max`; it must say exactly what the division it replaced said.
@Suite("The bound on requested bytes")
struct RequestedBytesBoundTests {
    /// The test it replaces: `largest > Int64.max / requests`.
    func byDivision(largest: Int64, requests: Int64) -> Bool { largest > Int64.max / requests }

    @Test("agrees with largest > Int64.max / requests on the edges and on random sizes and counts")
    func agreesWithDivision() {
        var generator = SplitMix64(seed: 26)
        // Edges: 0, 1, the square root of Int64.max and its neighbours, the exact divisors.
        let root: Int64 = 3_037_000_499  // ⌊√(2^63 − 1)⌋
        var cases: [(sizes: [Int64], requests: Int64)] = [
            ([0], 1), ([0], .max), ([1], .max), ([2], .max / 2), ([2], .max / 2 + 1),
            ([root], root), ([root], root + 1), ([root + 1], root + 1), ([.max], 1), ([.max], 2),
            ([7, 3, 7_000_000_000], 1_317_624_576), ([7_000_000_000, 3], 1_317_624_577),
        ]
        for _ in 0..<2_000 {
            let sizes = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                Int64.random(in: 0...(1 << Int64.random(in: 0...62, using: &generator)), using: &generator)
            }
            cases.append(
                (sizes, Int64.random(in: 1...(1 << Int64.random(in: 0...62, using: &generator)), using: &generator)))
        }
        for (sizes, requests) in cases {
            var bound = RequestedBytesBound()
            for size in sizes { bound.note(size) }
            let largest = sizes.max()!
            #expect(
                bound.mayOverflow(requests: requests) == byDivision(largest: largest, requests: requests),
                "sizes \(sizes), requests \(requests)")
        }
    }
}
