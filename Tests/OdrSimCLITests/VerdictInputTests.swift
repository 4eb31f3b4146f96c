import Foundation
import Testing

/// Issue 40's bad input: a precision of 0 or above 100 %, an indifference of 0, a confidence
/// outside (0.5, 1), an objective naming an unknown metric: one line, exit 64, nothing written.
@Suite("Bad statistics flags")
struct VerdictInputTests {
    @Test(
        "one line, exit 64, nothing written",
        arguments: [
            (["--precision", "0%"], "--precision: '0%' is not a percentage above 0 % and below 100 %"),
            (["--precision", "150%"], "--precision: '150%' is not a percentage above 0 % and below 100 %"),
            (
                ["--select-best", "redownload_bytes", "--indifference", "0MB"],
                "--indifference: '0MB' is not a size from 1 B to 1PiB (such as 50MB) for redownload_bytes"
            ),
            (
                ["--select-best", "redownload_bytes", "--indifference", "50MB", "--confidence", "0.5"],
                "--confidence must be above 0.5 and below 1"
            ),
            (
                ["--select-best", "redownload_bytes", "--indifference", "50MB", "--confidence", "1"],
                "--confidence must be above 0.5 and below 1"
            ),
            (["--objective", "redownload_bytes + nothing_at_all"], "--objective: 'nothing_at_all' is not a metric"),
            (
                ["--limit", "failed_requests<=soon"],
                "--limit: limit 'failed_requests<=soon': 'soon' is not a value of failed_requests"
            ),
        ])
    func refused(_ flags: [String], _ message: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o")
        let result = try CLI.run(
            ["compare", "Scenarios/game.scn", "--replications", "2", "--no-report", "--out", out.path] + flags)
        #expect(result.status == 64, "\(flags): \(result.stderr)")
        #expect(
            result.stderr.hasPrefix("odr-sim: ") && result.stderr.contains(message)
                && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test(
        "advise: an indifference of 0, or with --precision: one line, exit 64, nothing written",
        arguments: [
            (["--indifference", "0MB"], "--indifference: '0MB' is not a size from 1 B to 1PiB such as 50MB"),
            (["--indifference", "50MB", "--precision", "5%"], "--indifference replaces --precision: give one of them"),
        ])
    func adviseRefused(_ flags: [String], _ message: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o")
        let result = try CLI.run(
            [
                "advise", "Scenarios/game.scn", "--app", "odyssey", "--replications", "2", "--no-report", "--out",
                out.path,
            ] + flags)
        #expect(result.status == 64, "\(flags): \(result.stderr)")
        #expect(result.stderr == "odr-sim: \(message)\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
