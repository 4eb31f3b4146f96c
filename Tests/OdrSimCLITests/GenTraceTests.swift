import Foundation
import Testing

/// Issue 55: `scripts/gen-trace` makes the benchmark traces; its oracleGeneral file carries
/// each request's next access as libCacheSim's traceConv writes it, and its CSV the same
/// requests, so a replay of either counts the same misses.
@Suite("scripts/gen-trace")
struct GenTraceTests {
    @Test("the same seed gives the same bytes; next_access_vtime is the 1-based index of the id's next request")
    func oracleGeneral() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func make(_ name: String, seed: Int) throws -> Data {
            let out = dir.appendingPathComponent(name).path
            let result = try CLI.run(
                executable: CLI.repository.appendingPathComponent("scripts/gen-trace"),
                ["wide", out, "--requests", "3000", "--seed", String(seed)])
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: out))
        }
        let data = try make("a.oracleGeneral", seed: 7)
        let same = try make("b.oracleGeneral", seed: 7)
        let other = try make("c.oracleGeneral", seed: 8)
        #expect(data == same && data != other)
        #expect(data.count == 3_000 * 24)
        let bytes = [UInt8](data)
        func field<T: FixedWidthInteger>(_ record: Int, _ offset: Int, as: T.Type) -> T {
            (0..<MemoryLayout<T>.size).reduce(T.zero) { $0 | T(bytes[record * 24 + offset + $1]) << ($1 * 8) }
        }
        let ids = (0..<3_000).map { field($0, 4, as: UInt64.self) }
        for i in 0..<3_000 {
            #expect(field(i, 0, as: UInt32.self) == UInt32(i))
            let next = ids[(i + 1)...].firstIndex(of: ids[i]).map { Int64($0 + 1) } ?? -1
            #expect(Int64(bitPattern: field(i, 16, as: UInt64.self)) == next)
        }
        // An existing name is refused, not replaced.
        let again = try CLI.run(
            executable: CLI.repository.appendingPathComponent("scripts/gen-trace"),
            ["wide", dir.appendingPathComponent("a.oracleGeneral").path, "--requests", "10"])
        #expect(again.status != 0 && again.stderr.contains("exists"))
        #expect(try Data(contentsOf: dir.appendingPathComponent("a.oracleGeneral")) == data)
    }

    @Test("the CSV and the oracleGeneral file replay to the same misses")
    func formatsAgree() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var capacity = ""
        var lines: [String] = []
        for name in ["t.csv", "t.oracleGeneral"] {
            let made = try CLI.run(
                executable: CLI.repository.appendingPathComponent("scripts/gen-trace"),
                ["few", dir.appendingPathComponent(name).path, "--requests", "5000"])
            #expect(made.status == 0, "\(made.stderr)")
            capacity = String(made.stdout.split(separator: "\n").last ?? "")
            let replay = try CLI.run([
                "replay", dir.appendingPathComponent(name).path, "--capacity", capacity, "--policy", "lru",
                "--no-report", "--out", dir.appendingPathComponent("o-" + name).path,
            ])
            #expect(replay.status == 0, "\(replay.stderr)")
            lines.append(String(replay.stdout.split(separator: "\n").first { $0.hasPrefix("lru") } ?? ""))
        }
        #expect(!lines[0].isEmpty && lines[0] == lines[1], "\(lines)")
    }
}
