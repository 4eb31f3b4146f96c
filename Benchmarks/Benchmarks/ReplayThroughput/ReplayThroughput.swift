import Benchmark
import Foundation
import ODRPolicies
import TraceReplay

/// Replay throughput: a generated cache trace through the ODR device under LRU and the
/// other online policies, from CSV to results, as `odr-sim replay` does it.
///
/// The traces are generated in-process (deterministic, never committed): 1,000,000 and
/// 5,000,000 requests over 100,000 objects with Zipf(0.9) popularity and block sizes of 512 B
/// to 68 KiB, each written once to a temporary file. One benchmark iteration replays a whole
/// trace, so requests per second = requests / wall-clock seconds per iteration.
let benchmarks: @Sendable () -> Void = {
    let capacity: Int64 = 400_000_000

    for name in ["lru", "fifo", "sieve", "lfu", "gdsf"] {
        Benchmark(
            "Replay \(name) (1M requests, 100k objects)",
            configuration: .init(
                metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
                maxDuration: .seconds(20), maxIterations: 5)
        ) { benchmark in
            let descriptor = PolicyRegistry.descriptor(named: name)!
            for _ in benchmark.scaledIterations {
                blackHole(try TraceReplayer(path: GeneratedTrace.short.path).replay(capacity: capacity, policies: [descriptor]))
            }
        }
    }

    // Issue #4's target: at least 3.5 M requests/s on a 5 M-request trace, under 500 MB.
    Benchmark(
        "Replay lru (5M requests, 100k objects)",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
            maxDuration: .seconds(30), maxIterations: 5)
    ) { benchmark in
        let descriptor = PolicyRegistry.descriptor(named: "lru")!
        for _ in benchmark.scaledIterations {
            blackHole(try TraceReplayer(path: GeneratedTrace.long.path).replay(capacity: capacity, policies: [descriptor]))
        }
    }
}

/// The benchmarks' traces, generated on first use.
struct GeneratedTrace: Sendable {
    let requests: Int
    let objects: Int

    static let short = GeneratedTrace(requests: 1_000_000, objects: 100_000)
    static let long = GeneratedTrace(requests: 5_000_000, objects: 100_000)

    var path: String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("odr-sim-bench-trace-\(requests)-\(objects).csv")
        if !FileManager.default.fileExists(atPath: url.path) { try! Data(text().utf8).write(to: url, options: .atomic) }
        return url.path
    }

    /// SplitMix64 draws through the inverse Zipf(0.9) CDF (binary search in a cumulative table).
    func text() -> String {
        var state: UInt64 = 2026
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var cumulative = [Double](repeating: 0, count: objects)
        var total = 0.0
        for k in 0..<objects {
            total += 1 / pow(Double(k + 1), 0.9)
            cumulative[k] = total
        }
        let sizes = (0..<objects).map { _ in 512 * (1 + Int(next() % 136)) }
        var out = "time,obj_id,size\n"
        out.reserveCapacity(requests * 26)
        for i in 0..<requests {
            let u = Double(next() >> 11) / Double(1 << 53) * total
            var low = 0
            var high = objects - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulative[mid] < u { low = mid + 1 } else { high = mid }
            }
            out += "\(1_700_000_000 + i / 1000),\(10_000_000 + low * 7),\(sizes[low])\n"
        }
        return out
    }
}
