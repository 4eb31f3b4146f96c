import CZstd
import Foundation
import ODRPolicies
import Testing
import TraceReplay

@Suite("Trace formats: oracleGeneral, plain and zstd")
struct TraceFormatTests {
    /// A random trace as (time, object, size), each object with one size.
    static func trace(seed: UInt64, count: Int) -> [(UInt32, UInt64, UInt32)] {
        var g = SplitMix64(seed: seed)
        var sizes: [UInt64: UInt32] = [:]
        return (0..<count).map { t in
            let o = g.next() % 60 + 1_000_000_000_000
            let size = sizes[o] ?? UInt32(1 + g.next() % 5_000)
            sizes[o] = size
            return (UInt32(t / 3), o, size)
        }
    }

    /// The records in libCacheSim's layout: uint32 time, uint64 id, uint32 size, int64 next access (little-endian).
    static func binary(_ records: [(UInt32, UInt64, UInt32)]) -> Data {
        var data = Data()
        var next = [Int64](repeating: -1, count: records.count)
        var seen: [UInt64: Int] = [:]
        for i in records.indices.reversed() {
            next[i] = seen[records[i].1].map(Int64.init) ?? -1
            seen[records[i].1] = i
        }
        for (i, r) in records.enumerated() {
            withUnsafeBytes(of: r.0.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: r.1.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: r.2.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: next[i].littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func compressed(_ data: Data) -> Data {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(data.count))
        let n = data.withUnsafeBytes { src in ZSTD_compress(&out, out.count, src.baseAddress, data.count, 3) }
        precondition(ZSTD_isError(n) == 0)
        return Data(out.prefix(n))
    }

    @Test("the same trace as CSV, oracleGeneral and oracleGeneral.zst replays to the same counts, at 1 % and 10 %")
    func sameCounts() throws {
        let records = Self.trace(seed: 7, count: 3_000)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("t.csv"), bin = dir.appendingPathComponent("t.oracleGeneral"),
            zst = dir.appendingPathComponent("t.oracleGeneral.zst")
        try Data(("time,obj_id,size\n" + records.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()).utf8).write(to: csv)
        try Self.binary(records).write(to: bin)
        try Self.compressed(Self.binary(records)).write(to: zst)
        let policies = ["lru", "belady", "gdsf"].compactMap(PolicyRegistry.descriptor(named:))
        let results = try [csv, bin, zst].map { url in
            try TraceReplayer(path: url.path).replay(capacities: [.percent(1), .percent(10)], policies: policies)
        }
        #expect(results[0].count == 6)
        #expect(results[0].contains { $0.misses > 0 && $0.misses < 3_000 })
        // Three runs at once give the same results, in the same order.
        let parallel = try TraceReplayer(path: zst.path).replay(capacities: [.percent(1), .percent(10)], policies: policies, jobs: 3)
        #expect(parallel == results[0])
        for r in results.dropFirst() {
            #expect(r.map(\.misses) == results[0].map(\.misses))
            #expect(r.map(\.bytesMissed) == results[0].map(\.bytesMissed))
            #expect(r.map(\.capacityBytes) == results[0].map(\.capacityBytes))
        }
    }

    @Test("a cut file says how many records were read")
    func truncated() throws {
        let data = Self.binary(Self.trace(seed: 3, count: 100))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = dir.appendingPathComponent("cut.oracleGeneral")
        try data.prefix(24 * 41 + 5).write(to: bin)
        let lru = [PolicyRegistry.descriptor(named: "lru")!]
        do {
            _ = try TraceReplayer(path: bin.path).replay(capacity: 1_000, policies: lru)
            Issue.record("a cut binary trace was accepted")
        } catch {
            #expect(error.description == "cut.oracleGeneral: truncated: 41 whole records read, then 5 bytes (records are 24 bytes)")
        }
        let zst = dir.appendingPathComponent("cut.oracleGeneral.zst")
        let packed = Self.compressed(data)
        try packed.prefix(packed.count - 8).write(to: zst)
        do {
            _ = try TraceReplayer(path: zst.path).replay(capacity: 1_000, policies: lru)
            Issue.record("a cut zstd trace was accepted")
        } catch {
            #expect(error.description.hasPrefix("cut.oracleGeneral.zst: "), "\(error)")
            #expect(error.description.contains("records"), "\(error)")
        }
    }
}
