import Foundation
import Testing

/// Issue 29: `--warmup DURATION` leaves the start of every run out of every metric; the
/// device itself lives through it (a pack purged during the warm-up is re-downloaded after).
@Suite("--warmup")
struct WarmupTests {
    /// summary.csv's first row as column → value.
    func summary(_ arguments: [String]) throws -> [String: String] {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("small.scn")
        try Data(smallScenario.utf8).write(to: file)
        let result = try CLI.run(
            ["run", file.path, "--no-report", "--out", dir.appendingPathComponent("out").path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: dir.appendingPathComponent("out/summary.csv"), encoding: .utf8).split(
            separator: "\n")
        return Dictionary(
            uniqueKeysWithValues: zip(
                lines[0].split(separator: ",").map(String.init),
                lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
    }

    @Test("the small scenario with and without a warm-up of 3m30s, by hand")
    func byHand() throws {
        // smallScenario: 1000 MB disk, 900 MB used; r1 at 1m downloads the 64 MB map; it ends
        // at 2m; +50 MB at 3m purges it (36 MB free, 50 needed); -50 MB at 3m30s; r2 at 4m
        // downloads it again: a re-download.
        let whole = try summary([])
        #expect(whole["requests"] == "2" && whole["downloads"] == "2" && whole["purges"] == "1")
        #expect(whole["downloaded_bytes"] == "128000000" && whole["redownload_bytes"] == "64000000")
        // Disk use peaks at 964 MB: 900 MB of other data with the map in (at 1m, again at 4m);
        // at 3m the map made way for the 50 MB (950 MB).
        #expect(whole["peak_used_bytes"] == "964000000")

        // From 3m30s: only r2 counts. It is still a re-download (the purge happened, only
        // uncounted), it waits 64 MB × 8 / 300 Mbit/s = 1.706667 s, nothing is purged, and
        // the peak restarts from the 950 MB in use at 3m30s, then reaches 964 MB.
        let late = try summary(["--warmup", "3m30s"])
        #expect(late["requests"] == "1" && late["granted"] == "1" && late["downloads"] == "1" && late["purges"] == "0")
        #expect(late["downloaded_bytes"] == "64000000" && late["redownload_bytes"] == "64000000")
        #expect(late["wait_p50_s"] == "1.706667" && late["wait_mean_s"] == "1.706667")
        #expect(late["peak_used_bytes"] == "964000000")
        #expect(late["low_disk_notifications"] == "0")
    }

    @Test(
        """
        compare --warmup auto: MSER-5 on a first pass; said on the terminal; run and sweep, and --bound with it, \
        refused (issue 40)
        """
    )
    func auto() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let compare = try CLI.run(
            [
                "compare", "Scenarios/game.scn", "--policy", "lru", "--policy", "fifo", "--replications", "3",
                "--warmup", "auto",
                "--no-report", "--out", dir.path + "/c",
            ], in: CLI.repository)
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(
            compare.stdout.contains("--warmup auto: MSER-5 finds no transient in the 6 runs; nothing is left out.")
                || compare.stdout.contains("--warmup auto, MSER-5 over 6 runs,"), "\(compare.stdout)")
        for arguments in [
            ["run", "Scenarios/game.scn", "--warmup", "auto"],
            ["sweep", "Scenarios/studies/tag-size.study", "--warmup", "auto"],
            ["compare", "Scenarios/game.scn", "--warmup", "auto", "--bound"],
        ] {
            let refused = try CLI.run(arguments + ["--out", dir.path + "/r"], in: CLI.repository)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/r"))
    }

    @Test("a warm-up as long as the run, an unreadable one, or one with --bound is refused before any work")
    func refused() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("small.scn")
        try Data(smallScenario.utf8).write(to: file)
        for (arguments, message) in [
            (
                ["--warmup", "1h"],
                "odr-sim: --warmup 1h is not shorter than the run (60 min); nothing would be measured\n"
            ),
            (
                ["--warmup", "soon"],
                """
                odr-sim: --warmup: value must be a time, not 'soon'; use seconds or a number and a unit (ms, s, m, \
                h, d), such as 90s, 2m, 14d or 1d8h\n
                """
            ),
            (
                ["--warmup", "1m", "--bound"],
                "odr-sim: --warmup and --bound do not combine: the bound is of the whole run\n"
            ),
        ] {
            let out = dir.appendingPathComponent("out")
            let result = try CLI.run(["run", file.path, "--out", out.path] + arguments)
            #expect(result.status == 64)
            #expect(result.stderr == message)
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }
}
