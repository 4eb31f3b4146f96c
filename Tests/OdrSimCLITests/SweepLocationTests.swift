import Foundation
import Testing

/// Issue 24: a sweep's warnings and errors name the real place in the base scenario (or the
/// study's axis value) and the point. On the main before issue 24, a point's scenario was
/// written out again and re-read, so a warning named a line of that copy (game.scn:387 in a
/// file of 184 lines).
@Suite("Sweep locations")
struct SweepLocationTests {
    @Test("a warning in one point names the base scenario's line and column, and the point")
    func warningLocation() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        try Data(
            "scenario: s.scn\naxes:\n  - {name: used, path: device.used, values: [900MB, 990MB]}\nreplications: 1\n"
                .utf8
        )
        .write(to: dir.appendingPathComponent("s.study"))
        let result = try CLI.run(["sweep", "s.study", "--out", "out", "--no-report"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = smallScenario.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("disk: +50MB") }) + 1
        let column = try #require(lines[line - 1].firstIndex(of: "{")).utf16Offset(in: lines[line - 1]) + 1
        // At 990 MB used, 10 MB are free and nothing is purgeable: 40 MB of the growth are refused.
        // The event's mapping starts at its `{`.
        #expect(
            result.stderr.contains(
                "s.scn:\(line):\(column): warning: other data cannot grow by 50 MB: 40 MB did not fit"),
            "\(result.stderr)")
        #expect(result.stderr.contains("(in 1 of 2 runs, first apple replication 1 at used=990MB)"), "\(result.stderr)")
        for warning in result.stderr.split(separator: "\n") where warning.contains(": warning: ") {
            let parts = warning.split(separator: ":")
            let at = try #require(Int(parts[1]))
            #expect((1...lines.count).contains(at), "\(warning) names a line the file does not have")
        }
    }

    @Test("an axis value the scenario refuses is an error at the value in the study")
    func errorLocation() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        try Data("scenario: s.scn\naxes:\n  - {name: used, path: device.used, values: [900MB, 2PiB]}\n".utf8)
            .write(to: dir.appendingPathComponent("s.study"))
        let result = try CLI.run(["sweep", "s.study", "--out", "out"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("s.study:3:53: axis 'used' value '2PiB': "), "\(result.stderr)")
        #expect(result.stderr.contains("too large for a size (at most 1PiB)"), "\(result.stderr)")
    }
}
