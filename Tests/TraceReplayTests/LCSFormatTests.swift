import Foundation
import ODRPolicies
import Testing
import TraceReplay

/// Issue 41: libCacheSim's lcs traces, v1 and v2, plain and zstd, as libCacheSim's `lcs.h`
/// defines them: an 8,192-byte header (`lcs_trace_header_t`: start magic, version, an
/// 8,000-byte statistics block, 21 unused words, end magic), then 24- or 28-byte records.
@Suite("Trace formats: lcs")
struct LCSFormatTests {
    static let magic: UInt64 = 0x1234_5678_9abc_def0

    /// An lcs file of `records` (time, id, size, tenant) at `version`, with `endMagic` at the
    /// header's end.
    static func lcs(
        _ records: [(UInt32, UInt64, UInt32)], version: UInt64, tenants: [UInt32]? = nil,
        startMagic: UInt64 = magic, endMagic: UInt64 = magic
    ) -> Data {
        var header = Data(count: 8192)
        header.withUnsafeMutableBytes { p in
            p.storeBytes(of: startMagic.littleEndian, toByteOffset: 0, as: UInt64.self)
            p.storeBytes(of: version.littleEndian, toByteOffset: 8, as: UInt64.self)
            p.storeBytes(of: endMagic.littleEndian, toByteOffset: 8184, as: UInt64.self)
        }
        let v1 = TraceFormatTests.binary(records)
        guard version == 2 else { return header + v1 }
        // v2: the fourth field (op in the low 8 bits, the tenant in the high 24) before next access.
        var data = header
        for (i, _) in records.enumerated() {
            let record = v1[(i * 24)..<(i * 24 + 24)]
            data.append(record.prefix(16))
            let field = ((tenants?[i] ?? 0) << 8) | 1
            withUnsafeBytes(of: field.littleEndian) { data.append(contentsOf: $0) }
            data.append(record.suffix(8))
        }
        return data
    }

    @Test("v1, v2 and v1.zst replay to the CSV's counts; v2's tenants are apps")
    func sameCounts() throws {
        let records = TraceFormatTests.trace(seed: 11, count: 2_000)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lcs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("t.csv")
        let v1 = dir.appendingPathComponent("t.lcs")
        let zst = dir.appendingPathComponent("t.lcs.zst")
        let v2 = dir.appendingPathComponent("t2.lcs")
        try Data(("time,obj_id,size\n" + records.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()).utf8).write(to: csv)
        try Self.lcs(records, version: 1).write(to: v1)
        try TraceFormatTests.compressed(Self.lcs(records, version: 1)).write(to: zst)
        // One tenant for every request: the same single-app replay.
        try Self.lcs(records, version: 2, tenants: records.map { _ in 7 }).write(to: v2)
        let policies = ["lru", "fifo", "belady"].compactMap(PolicyRegistry.descriptor(named:))
        let results = try [csv, v1, zst, v2].map { url in
            try TraceReplayer(path: url.path).replay(capacities: [.percent(1), .percent(10)], policies: policies)
        }
        #expect(results[0].contains { $0.misses > 0 && $0.misses < 2_000 })
        for r in results.dropFirst() {
            #expect(r.map(\.misses) == results[0].map(\.misses))
            #expect(r.map(\.bytesMissed) == results[0].map(\.bytesMissed))
        }
        // Objects by tenant: even ids are tenant 1's, odd ones tenant 2's (an object keeps its
        // tenant): two apps, named after their tenants.
        let two = dir.appendingPathComponent("two.lcs")
        try Self.lcs(records, version: 2, tenants: records.map { UInt32($0.1 % 2 + 1) }).write(to: two)
        let reader = try OracleGeneralReader(path: two.path, compressed: false, lcs: true)
        var apps: [Int32: UInt64] = [:]
        while let (record, _) = try reader.next() {
            #expect(apps[record.app].map { $0 % 2 == record.object % 2 } ?? true)
            apps[record.app] = record.object
        }
        #expect(Set(reader.appNames) == ["tenant-1", "tenant-2"] && Set(apps.keys) == [0, 1], "\(reader.appNames)")
        #expect(try TraceReplayer(path: two.path).replay(capacities: [.percent(10)], policies: policies).count == 3)
    }

    @Test(
        "a header that does not check out is one line naming the file",
        arguments: [
            (
                lcs([], version: 1, startMagic: 42),
                "bad.lcs: not an lcs trace: it starts with 0x2a, not lcs's magic 0x123456789abcdef0"
            ),
            (
                lcs([], version: 1, endMagic: 0),
                """
                bad.lcs: not an lcs trace: its header ends with 0x0, not lcs's magic 0x123456789abcdef0 (cut short, \
                or another header size)
                """
            ),
            (lcs([], version: 3), "bad.lcs: lcs version 3 is not read here (versions 1 and 2 are)"),
            (Data(count: 1000), "bad.lcs: not an lcs trace: 1000 bytes, shorter than lcs's 8192-byte header"),
            (
                lcs([(1, 2, 3)], version: 1) + Data(count: 5),
                "bad.lcs: truncated: 1 whole records read, then 5 bytes (records are 24 bytes)"
            ),
        ])
    func badHeader(data: Data, message: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lcs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.lcs")
        try data.write(to: file)
        do {
            _ = try TraceReplayer(path: file.path).replay(capacities: [.percent(10)], policies: [LRUPolicy.descriptor])
            Issue.record("accepted")
        } catch {
            #expect("\(error)" == message)
        }
    }
}
