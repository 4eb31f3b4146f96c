import Foundation
import ODRPolicies
import TestSupport
import Testing

@testable import TraceReplay

/// ``TraceReplayer/replayBehindScan``: a single run that replays an oracleGeneral trace while
/// the first pass reads it, on a second core, gives the result and the errors of a replay
/// that scans first.
@Suite("A run that replays behind the scan")
struct BehindScanTests {
    /// A trace whose objects keep appearing to its end (so that the scan's pieces bring new
    /// ones), with a skewed pick among those seen.
    static func trace(seed: UInt64, count: Int) -> [(UInt32, UInt64, UInt32)] {
        var g = SplitMix64(seed: seed)
        var objects: [(UInt64, UInt32)] = []
        return (0..<count).map { t in
            if objects.isEmpty || g.next() % 8 == 0 {
                objects.append((g.next() >> 8, UInt32(1 + g.next() % 5_000)))
                return (UInt32(t), objects.last!.0, objects.last!.1)
            }
            let r = Double(g.next() >> 11) / Double(1 << 53)
            let o = objects[Int(Double(objects.count) * r * r)]
            return (UInt32(t), o.0, o.1)
        }
    }

    /// `data` written as `name` in a fresh folder of its own: its path.
    static func file(_ data: Data, name: String = "t.oracleGeneral") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("behind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }

    /// Removes the folder of a ``file(_:name:)``.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// Runs `body` with `data` written to a fresh folder as `name`.
    static func withFile<T>(_ data: Data, name: String = "t.oracleGeneral", _ body: (String) throws -> T) throws -> T {
        let path = try file(data, name: name)
        defer { remove(path) }
        return try body(path)
    }

    static let online = PolicyRegistry.builtIn.filter { !$0.needsFuture && !$0.readsTime }

    @Test("Every online policy: the result of the replay that scans first, at two capacities")
    func sameResults() throws {
        // Three pieces: 4,096 records, 8,192, then the rest.
        let records = Self.trace(seed: 11, count: 12_000)
        let unique = Dictionary(records.map { ($0.1, Int64($0.2)) }, uniquingKeysWith: { a, _ in a }).values
            .reduce(0, +)
        try Self.withFile(TraceFormatTests.binary(records)) { path in
            let replayer = TraceReplayer(path: path)
            let context = PolicyContext(seed: 5)
            for descriptor in Self.online {
                for share in [10, 3] {
                    let capacity = TraceReplayer.Capacity.bytes(unique / Int64(share))
                    let first = try replayer.replay(capacities: [capacity], policies: [descriptor], context: context)
                    let behind = try #require(
                        try replayer.replayBehindScan(
                            capacities: [capacity], policies: [descriptor], context: context, jobs: 2, progress: nil))
                    // The comparison could fail: the run missed and hit, and purged.
                    #expect(first[0].misses > 0 && first[0].misses < 12_000 && first[0].purges > 0)
                    #expect(behind == first[0], "\(descriptor.name) at 1/\(share)")
                    // And through the public call, which takes this path with two jobs.
                    guard share == 10 else { continue }
                    let public2 = try replayer.replay(
                        capacities: [capacity], policies: [descriptor], context: context, jobs: 2)
                    #expect(public2 == first, "\(descriptor.name) at 1/\(share)")
                }
            }
        }
    }

    @Test("Progress reaches the end, in order, as the run goes")
    func progress() throws {
        try Self.withFile(TraceFormatTests.binary(Self.trace(seed: 3, count: 140_000))) { path in
            var seen: [Double] = []
            let lru = try #require(PolicyRegistry.descriptor(named: "lru"))
            _ = try #require(
                try TraceReplayer(path: path).replayBehindScan(
                    capacities: [.bytes(1 << 20)], policies: [lru], context: PolicyContext(), jobs: 2,
                    progress: { seen.append($0) }))
            // Every 65,536 requests, as the replay that scans first reports it.
            #expect(seen == [65_536 / 140_000, 131_072 / 140_000])
        }
    }

    @Test("Where a run cannot follow the scan, nil: the caller scans first")
    func notBehind() throws {
        let records = Self.trace(seed: 5, count: 5_000)
        let lru = try #require(PolicyRegistry.descriptor(named: "lru"))
        let fifo = try #require(PolicyRegistry.descriptor(named: "fifo"))
        let belady = try #require(PolicyRegistry.descriptor(named: "belady"))
        let context = PolicyContext()
        let path = try Self.file(TraceFormatTests.binary(records))
        defer { Self.remove(path) }
        func behind(
            _ capacities: [TraceReplayer.Capacity], _ policies: [PolicyDescriptor], jobs: Int = 2,
            replayer: TraceReplayer? = nil
        ) throws -> ReplayResult? {
            try (replayer ?? TraceReplayer(path: path)).replayBehindScan(
                capacities: capacities, policies: policies, context: context, jobs: jobs, progress: nil)
        }
        #expect(try behind([.bytes(100_000)], [lru]) != nil)
        #expect(try behind([.bytes(100_000)], [lru], jobs: 1) == nil)
        #expect(try behind([.bytes(100_000)], [lru, fifo]) == nil)
        #expect(try behind([.bytes(100_000), .bytes(200_000)], [lru]) == nil)
        #expect(try behind([.percent(10)], [lru]) == nil)
        #expect(try behind([.bytes(100_000)], [belady]) == nil)
        let small = TraceReplayer(path: path, streamBudget: 4 * 5_000 - 1)
        #expect(try behind([.bytes(100_000)], [lru], replayer: small) == nil)
        var warm = TraceReplayer(path: path)
        warm.warmupRequests = 10
        #expect(try behind([.bytes(100_000)], [lru], replayer: warm) == nil)
        let zst = try Self.file(
            TraceFormatTests.compressed(TraceFormatTests.binary(records)), name: "t.oracleGeneral.zst")
        defer { Self.remove(zst) }
        #expect(try behind([.bytes(100_000)], [lru], replayer: TraceReplayer(path: zst)) == nil)
    }

    @Test("A next_access_vtime that disagrees with the stream: nil, and the replay hashes as it would")
    func disagreeing() throws {
        var records = Self.trace(seed: 9, count: 20_000)
        // Record 15,000 names the object of record 14,999: the field now disagrees late in
        // the file, after the run has replayed pieces of it.
        records[14_999].1 = records[14_998].1
        records[14_999].2 = records[14_998].2
        var next = [Int64](repeating: -1, count: records.count)
        var seen: [UInt64: Int] = [:]
        for i in records.indices.reversed() {
            next[i] = seen[records[i].1].map { Int64($0 + 1) } ?? -1
            seen[records[i].1] = i
        }
        next[14_998] = -1
        let lru = try #require(PolicyRegistry.descriptor(named: "lru"))
        try Self.withFile(TraceFormatTests.binary(records, nextAccess: next)) { path in
            let replayer = TraceReplayer(path: path)
            #expect(
                try replayer.replayBehindScan(
                    capacities: [.bytes(200_000)], policies: [lru], context: PolicyContext(), jobs: 2, progress: nil)
                    == nil)
            let one = try replayer.replay(capacities: [.bytes(200_000)], policies: [lru], jobs: 1)
            #expect(try replayer.replay(capacities: [.bytes(200_000)], policies: [lru], jobs: 2) == one)
            #expect(one[0].misses > 0)
        }
    }

    @Test("A file cut short: the scan's error, as the replay that scans first gives it")
    func truncated() throws {
        let data = TraceFormatTests.binary(Self.trace(seed: 4, count: 50_000))
        let lru = try #require(PolicyRegistry.descriptor(named: "lru"))
        try Self.withFile(data.prefix(24 * 49_000 + 7)) { path in
            for jobs in [1, 2] {
                do {
                    _ = try TraceReplayer(path: path).replay(capacities: [.bytes(1 << 20)], policies: [lru], jobs: jobs)
                    Issue.record("a cut trace was accepted with \(jobs) jobs")
                } catch {
                    let expected = "truncated: 49000 whole records read, then 7 bytes (records are 24 bytes)"
                    #expect("\(error)" == "t.oracleGeneral: \(expected)")
                }
            }
        }
    }
}
