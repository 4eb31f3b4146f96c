import CZstd
import Foundation
import ODRPolicies
import TestSupport
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

    /// The records in libCacheSim's layout: uint32 time, uint64 id, uint32 size, int64 next
    /// access (little-endian). As libCacheSim's traceConv writes it, the next access is the
    /// number (from 1) of the object's next request, -1 for none. `nextAccess` replaces it.
    static func binary(_ records: [(UInt32, UInt64, UInt32)], nextAccess: [Int64]? = nil) -> Data {
        var data = Data()
        var next = [Int64](repeating: -1, count: records.count)
        var seen: [UInt64: Int] = [:]
        for i in records.indices.reversed() {
            next[i] = seen[records[i].1].map { Int64($0 + 1) } ?? -1
            seen[records[i].1] = i
        }
        if let nextAccess { next = nextAccess }
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
        let csv = dir.appendingPathComponent("t.csv")
        let bin = dir.appendingPathComponent("t.oracleGeneral")
        let zst = dir.appendingPathComponent("t.oracleGeneral.zst")
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
        let parallel = try TraceReplayer(path: zst.path).replay(
            capacities: [.percent(1), .percent(10)], policies: policies, jobs: 3)
        #expect(parallel == results[0])
        // Read from the file again by every run (no stream kept): the linked scan's objects,
        // found by their IDs.
        let streamed = try TraceReplayer(path: bin.path, streamBudget: 0).replay(
            capacities: [.percent(1), .percent(10)], policies: policies)
        #expect(streamed == results[0])
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
            #expect(
                error.description
                    == "cut.oracleGeneral: truncated: 41 whole records read, then 5 bytes (records are 24 bytes)")
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
        // Corrupt: the frame header's magic number broken.
        var broken = packed
        broken[1] ^= 0xFF
        let bad = dir.appendingPathComponent("bad.oracleGeneral.zst")
        try broken.write(to: bad)
        do {
            _ = try TraceReplayer(path: bad.path).replay(capacity: 1_000, policies: lru)
            Issue.record("a corrupt zstd trace was accepted")
        } catch {
            #expect(error.description == "bad.oracleGeneral.zst: not a valid zstd stream (after 0 records)", "\(error)")
        }
    }

    @Test("belady learns the future from next_access_vtime, and falls back to the stream when the field is wrong")
    func nextAccessField() throws {
        let records = Self.trace(seed: 11, count: 2_000)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("t.csv")
        let bin = dir.appendingPathComponent("t.oracleGeneral")
        let blank = dir.appendingPathComponent("blank.oracleGeneral")
        let off = dir.appendingPathComponent("off.oracleGeneral")
        try Data(("time,obj_id,size\n" + records.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()).utf8).write(to: csv)
        try Self.binary(records).write(to: bin)
        // Not filled in (every field -1), and 0-based (one less than libCacheSim's numbers).
        try Self.binary(records, nextAccess: Array(repeating: -1, count: records.count)).write(to: blank)
        var correct = [Int64](repeating: -1, count: records.count)
        var seen: [UInt64: Int] = [:]
        for i in records.indices.reversed() {
            correct[i] = seen[records[i].1].map { Int64($0 + 1) } ?? -1
            seen[records[i].1] = i
        }
        try Self.binary(records, nextAccess: correct.map { $0 < 0 ? $0 : $0 - 1 }).write(to: off)

        let belady = [PolicyRegistry.descriptor(named: "belady")!]
        let capacities: [TraceReplayer.Capacity] = [.percent(2), .percent(20)]
        let reference = try TraceReplayer(path: csv.path).replay(capacities: capacities, policies: belady)
        var warnings: [String] = []
        let fromField = try TraceReplayer(path: bin.path).replay(
            capacities: capacities, policies: belady, warning: { warnings.append($0) })
        #expect(warnings.isEmpty)
        #expect(fromField.map(\.misses) == reference.map(\.misses))
        #expect(fromField.map(\.bytesMissed) == reference.map(\.bytesMissed))
        // Belady beats LRU here, so a wrong future would show in the counts.
        let lru = try TraceReplayer(path: csv.path).replay(
            capacities: capacities, policies: [PolicyRegistry.descriptor(named: "lru")!])
        #expect(zip(reference, lru).allSatisfy { $0.misses < $1.misses })

        for (url, firstBad) in [(blank, "record "), (off, "record ")] {
            warnings = []
            let fallback = try TraceReplayer(path: url.path).replay(
                capacities: capacities, policies: belady, warning: { warnings.append($0) })
            #expect(fallback.map(\.misses) == reference.map(\.misses))
            #expect(warnings.count == 1)
            #expect(warnings.first?.hasPrefix("\(url.lastPathComponent): \(firstBad)") == true, "\(warnings)")
            #expect(warnings.first?.hasSuffix("belady's future is computed from the requests instead") == true)
        }
    }

    @Test("every way next_access_vtime can disagree with the stream is found, and the counts are those of the stream")
    func nextAccessDisagreements() throws {
        // Objects 1, 2, 2 (sizes 10, 20): at capacity 25 the third request is a hit.
        let records: [(UInt32, UInt64, UInt32)] = [(0, 1, 10), (0, 2, 20), (0, 2, 20)]
        let cases: [([Int64], String)] = [
            ([-1, 3, -1], ""),
            // Record 1 names record 3 too, which is object 2's.
            ([3, 3, -1], "t.oracleGeneral: 1 next_access_vtime fields name a record that another one names too"),
            // A name past the end of the file.
            (
                [4, 3, -1],
                """
                t.oracleGeneral: record 1: next_access_vtime 4 is not a later record (records count from 1; -1 means \
                never)
                """
            ),
            // A name that points back.
            (
                [-1, 1, -1],
                """
                t.oracleGeneral: record 2: next_access_vtime 1 is not a later record (records count from 1; -1 means \
                never)
                """
            ),
            // Named for object 1, but record 3 is object 2's.
            (
                [3, -1, -1],
                """
                t.oracleGeneral: record 3: next_access_vtime of an earlier record names this one for object 1, but \
                it requests object 2
                """
            ),
            // Object 2 again with no one naming it.
            (
                [-1, -1, -1],
                "t.oracleGeneral: record 3: object 2 was requested before, but no next_access_vtime names this record"
            ),
        ]
        let policies = ["belady", "lru"].compactMap(PolicyRegistry.descriptor(named:))
        for (next, expected) in cases {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let bin = dir.appendingPathComponent("t.oracleGeneral")
            try Self.binary(records, nextAccess: next).write(to: bin)
            var warnings: [String] = []
            let results = try TraceReplayer(path: bin.path).replay(
                capacities: [.bytes(25)], policies: policies, warning: { warnings.append($0) })
            #expect(results.map(\.misses) == [2, 2], "\(next)")
            if expected.isEmpty {
                #expect(warnings.isEmpty, "\(warnings)")
            } else {
                #expect(warnings == ["\(expected); belady's future is computed from the requests instead"], "\(next)")
            }
            // Without an offline policy the fallback is silent: the counts never depended on the field.
            warnings = []
            _ = try TraceReplayer(path: bin.path).replay(
                capacities: [.bytes(25)], policies: [policies[1]], warning: { warnings.append($0) })
            #expect(warnings.isEmpty)
        }
    }

    @Test(
        """
        a text trace in other layouts (spaces, tabs, semicolons, columns by position, with or without header) reads \
        as the CSV
        """
    )
    func textLayouts() throws {
        let records = Self.trace(seed: 5, count: 1_500)
        let policies = ["lru", "belady"].compactMap(PolicyRegistry.descriptor(named:))
        let reference = try withTrace("time,obj_id,size\n" + records.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()) {
            path in
            try TraceReplayer(path: path).replay(capacities: [.percent(5)], policies: policies)
        }
        typealias Columns = TextLayout.Columns
        let layouts: [(String, TextLayout)] = [
            // webcachesim: "time id size", no header.
            (
                records.map { "\($0.0) \($0.1) \($0.2)\n" }.joined(),
                TextLayout(delimiter: 0x20, header: .absent, columns: Columns(time: 0, object: 1, size: 2))
            ),
            // Aligned columns: runs of blanks, blanks at both ends, a header found by detection.
            (
                "  id    size\ttime  \n" + records.map { "  \($0.1)   \($0.2)\t\($0.0)  \n" }.joined(),
                TextLayout(delimiter: 0x20, header: .detect, columns: Columns(time: 2, object: 0, size: 1))
            ),
            // Tab-separated with an extra column and no time.
            (
                records.map { "x\t\($0.1)\t\($0.2)\n" }.joined(),
                TextLayout(delimiter: 0x09, header: .detect, columns: Columns(time: nil, object: 1, size: 2))
            ),
            // Semicolons, a header row that names columns itself.
            (
                "size;time;obj_id\n" + records.map { "\($0.2);\($0.0);\($0.1)\n" }.joined(),
                TextLayout(delimiter: UInt8(ascii: ";"))
            ),
        ]
        for (text, layout) in layouts {
            let results = try withTrace(text, name: "t.txt") { path in
                try TraceReplayer(path: path, format: .text(layout)).replay(
                    capacities: [.percent(5)], policies: policies)
            }
            #expect(results.map(\.misses) == reference.map(\.misses), "\(layout)")
            #expect(results.map(\.bytesMissed) == reference.map(\.bytesMissed), "\(layout)")
        }
    }

    @Test("text layouts refuse lines that do not fit them, naming the line")
    func textLayoutErrors() {
        let columns = TextLayout.Columns(time: 0, object: 1, size: 2)
        func failure(_ text: String, _ layout: TextLayout) -> String? {
            do {
                try withTrace(text, name: "t.txt") { path in
                    let reader = try TraceReader(path: path, layout: layout)
                    while try reader.next() != nil {}
                }
                return nil
            } catch {
                return "\(error)".split(separator: "/").last.map(String.init)
            }
        }
        let spaces = TextLayout(delimiter: 0x20, header: .absent, columns: columns)
        #expect(failure("1 2 3\n4 5\n", spaces) == "t.txt:2: found 2 fields, but the first line has 3")
        #expect(failure("1 2 3\n4 5 6 7\n", spaces) == "t.txt:2: found 4 fields, but the first line has 3")
        #expect(failure("1 2\n", spaces) == "t.txt:1: found 2 fields, but --columns names column 3")
        #expect(failure("1 2 x\n", spaces) == "t.txt:1: size 'x' is not a non-negative integer")
        #expect(failure("a b c\n1 2 3\n", TextLayout(delimiter: 0x20, header: .detect, columns: columns)) == nil)
        #expect(
            failure("a b\n1 2 3\n", TextLayout(delimiter: 0x20, header: .present, columns: columns))
                == "t.txt:1: the header has 2 fields, but --columns names column 3")
        #expect(
            failure("time obj_id size\n", TextLayout())?.hasPrefix(
                "t.txt:1: header has no 'time' column; if the file is not comma-separated") == true)
    }
}
