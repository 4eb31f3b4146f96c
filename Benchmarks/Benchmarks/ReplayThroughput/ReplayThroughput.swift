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
                blackHole(
                    try TraceReplayer(path: GeneratedTrace.short.path).replay(
                        capacity: capacity, policies: [descriptor]))
            }
        }
    }

    // Issue 16's trace: 5 M requests over ~732k objects of 4 KiB–4 MiB, LRU at 25 % of the
    // unique bytes, from CSV and from libCacheSim's oracleGeneral: the case
    // where every record is a trip to memory and bytes per object decide the peak.
    for (name, path) in [("CSV", WideTrace.csvPath), ("oracleGeneral", WideTrace.binaryPath)] {
        replayBenchmark(
            "Replay lru (5M requests, 732k objects, 4 KiB-4 MiB) from \(name)", path: path, capacity: .percent(25))
    }

    // 100 points of the LRU curve in one pass (`odr-sim mrc --points 100`).
    Benchmark(
        "LRU curve, 100 points (5M requests, 732k objects)",
        configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(30), maxIterations: 5)
    ) { benchmark in
        let capacities = (0..<100).map { TraceReplayer.Capacity.percent(pow(10, -1 + 3 * Double($0) / 99)) }
        for _ in benchmark.scaledIterations {
            blackHole(try LRUCurve(path: WideTrace.binaryPath).compute(capacities))
        }
    }

    // Issue #4's target: at least 3.5 M requests/s on a 5 M-request trace, under 500 MB.
    replayBenchmark(
        "Replay lru (5M requests, 100k objects)", path: GeneratedTrace.long.path, capacity: .bytes(capacity))

    // Issue 27's trace of few large objects, at 8 GiB: every record stays in cache and more
    // than half the requests purge, so what is measured is the work per request and per purge.
    replayBenchmark(
        "Replay lru (5M requests, 2,000 objects, 1-512 MiB)", path: FewTrace.path, capacity: .bytes(8 << 30))
}

/// One LRU replay of the trace at `path` per iteration, with time, peak memory and allocations.
func replayBenchmark(
    _ name: String, path: @autoclosure @escaping @Sendable () -> String, capacity: TraceReplayer.Capacity
) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
            maxDuration: .seconds(30), maxIterations: 5)
    ) { benchmark in
        let descriptor = PolicyRegistry.descriptor(named: "lru")!
        let trace = path()
        for _ in benchmark.scaledIterations {
            blackHole(try TraceReplayer(path: trace).replay(capacities: [capacity], policies: [descriptor]))
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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "odr-sim-bench-trace-\(requests)-\(objects).csv")
        if !FileManager.default.fileExists(atPath: url.path) { try! Data(text().utf8).write(to: url, options: .atomic) }
        return url.path
    }

    func text() -> String {
        var draws = ZipfDraws(objects: objects, seed: 2026)
        let sizes = (0..<objects).map { _ in 512 * (1 + Int(draws.random() % 136)) }
        var out = "time,obj_id,size\n"
        out.reserveCapacity(requests * 26)
        for i in 0..<requests {
            let low = draws.rank()
            out += "\(1_700_000_000 + i / 1000),\(10_000_000 + low * 7),\(sizes[low])\n"
        }
        return out
    }
}

/// Issue 16's trace, generated on first use: 5,000,000 requests drawn Zipf(0.9) from a
/// million objects (about 732k of them appear), each object 4 KiB to 4 MiB in 4 KiB steps;
/// written as CSV and as oracleGeneral (with next accesses numbered from 1, as libCacheSim's
/// traceConv writes them), so that `cachesim` can replay the same files.
enum WideTrace {
    static let requests = 5_000_000
    static let universe = 1_000_000

    static var csvPath: String { make().csv }
    static var binaryPath: String { make().binary }

    private static func make() -> (csv: String, binary: String) {
        let dir = FileManager.default.temporaryDirectory
        let csv = dir.appendingPathComponent("odr-sim-bench-wide-5m.csv")
        let binary = dir.appendingPathComponent("odr-sim-bench-wide-5m.oracleGeneral")
        if FileManager.default.fileExists(atPath: csv.path) && FileManager.default.fileExists(atPath: binary.path) {
            return (csv.path, binary.path)
        }
        var draws = ZipfDraws(objects: universe, seed: 16)
        let sizes = (0..<universe).map { _ in UInt32(4096 * (1 + Int(draws.random() % 1024))) }
        let ranks = (0..<requests).map { _ in draws.rank() }
        var nextAccess = [Int64](repeating: -1, count: requests)
        var seen = [Int](repeating: -1, count: universe)
        for i in (0..<requests).reversed() {
            if seen[ranks[i]] >= 0 { nextAccess[i] = Int64(seen[ranks[i]] + 1) }
            seen[ranks[i]] = i
        }
        var text = "time,obj_id,size\n"
        text.reserveCapacity(requests * 28)
        var data = Data(capacity: requests * 24)
        for i in 0..<requests {
            let time = UInt32(1_700_000_000 + i / 1000)
            let id = UInt64(10_000_000 + ranks[i] * 7)
            let size = sizes[ranks[i]]
            text += "\(time),\(id),\(size)\n"
            withUnsafeBytes(of: time.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: id.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: size.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: nextAccess[i].littleEndian) { data.append(contentsOf: $0) }
        }
        try! Data(text.utf8).write(to: csv, options: .atomic)
        try! data.write(to: binary, options: .atomic)
        return (csv.path, binary.path)
    }
}

/// Issue 27's few-objects trace, generated on first use as CSV: 5,000,000 requests over 2,000
/// objects of 1–512 MiB (log-uniform, fixed per object), drawn Zipf(0.9) over a random
/// permutation of the ids, so popularity is not in id order.
enum FewTrace {
    static let requests = 5_000_000
    static let objects = 2_000

    static var path: String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("odr-sim-bench-few-5m.csv")
        if FileManager.default.fileExists(atPath: url.path) { return url.path }
        var draws = ZipfDraws(objects: objects, seed: 27)
        let (low, high) = (log(Double(1 << 20)), log(Double(512 << 20)))
        let sizes = (0..<objects).map { _ in
            Int(exp(low + Double(draws.random() >> 11) / Double(1 << 53) * (high - low)))
        }
        var ids = Array(0..<objects)
        for i in stride(from: objects - 1, to: 0, by: -1) { ids.swapAt(i, Int(draws.random() % UInt64(i + 1))) }
        var text = "time,obj_id,size\n"
        text.reserveCapacity(requests * 22)
        for i in 0..<requests {
            let object = ids[draws.rank()]
            text += "\(i),\(object + 1),\(sizes[object])\n"
        }
        try! Data(text.utf8).write(to: url, options: .atomic)
        return url.path
    }
}

/// SplitMix64 draws, and ranks drawn through the inverse Zipf(0.9) CDF (a binary search in a
/// cumulative table): the benchmarks' traces.
struct ZipfDraws {
    private var state: UInt64
    private var cumulative: [Double]

    init(objects: Int, seed: UInt64) {
        state = seed
        cumulative = [Double](repeating: 0, count: objects)
        var total = 0.0
        for k in 0..<objects {
            total += 1 / pow(Double(k + 1), 0.9)
            cumulative[k] = total
        }
    }

    mutating func random() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A rank (0 the most popular) with probability ∝ 1 / (rank + 1)^0.9.
    mutating func rank() -> Int {
        let u = Double(random() >> 11) / Double(1 << 53) * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] < u { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
