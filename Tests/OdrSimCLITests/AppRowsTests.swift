import Foundation
import Metrics
import Testing

/// Issue 39: per-app numbers. `run` writes `apps.csv`, and an app's rows add up to the device's.
@Suite("Per-app results")
struct AppRowsTests {
    static func table(_ url: URL) throws -> (header: [String], rows: [[String]]) {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return (lines[0], Array(lines.dropFirst()))
    }

    @Test(
        "apps.csv: a row per policy, replication and app; every additive per-app metric sums to summary.csv's value",
        arguments: [
            "Scenarios/game.scn", "Scenarios/game-background-assets.scn", "Scenarios/photo-filters.scn",
            "Scenarios/shared-phone.scn",
        ])
    func appsSumToDevice(scenario: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(
            ["run", scenario, "--replications", "2", "--no-report", "--no-events", "--out", dir.path + "/r"],
            in: CLI.repository)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try Self.table(dir.appendingPathComponent("r/summary.csv"))
        let apps = try Self.table(dir.appendingPathComponent("r/apps.csv"))
        #expect(Array(apps.header.prefix(4)) == ["policy", "replication", "seed", "app"])
        // The device's own metrics are not an app's.
        for column in [
            "purge_episodes", "over_purge_bytes", "low_disk_notifications", "peak_used_bytes", "refused_other_bytes",
        ] {
            #expect(!apps.header.contains(column), "\(column) in apps.csv")
        }
        let appIDs = Set(apps.rows.map { $0[3] })
        #expect(appIDs.count >= 2)
        #expect(apps.rows.count == summary.rows.count * appIDs.count)
        var checked = 0
        for metric in Metric.allCases where metric.sumsOverApps {
            guard let s = summary.header.firstIndex(of: metric.column) else { continue }
            let a = try #require(apps.header.firstIndex(of: metric.column), "\(metric.column) missing from apps.csv")
            for row in summary.rows {
                let mine = apps.rows.filter { $0[0] == row[0] && $0[1] == row[1] }
                let total = mine.reduce(0.0) { $0 + Double($1[a])! }
                #expect(
                    abs(total - Double(row[s])!) < 1e-5,
                    "\(scenario) \(row[0]) r\(row[1]) \(metric.column): apps sum to \(total), device \(row[s])")
                checked += 1
            }
        }
        // 19 additive metrics on ODR (requests … install failures), 23 with the platform metrics.
        #expect(checked >= 19 * summary.rows.count)
    }

    @Test(
        """
        compare --app: the app's own table and verdict, comparison-apps.csv with every app; an unknown app is a \
        usage error and nothing is written
        """
    )
    func compareOneApp() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("c").path
        let result = try CLI.run(
            [
                "compare", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--replications", "2",
                "--policy", "lru", "--policy", "fifo", "--baseline", "lru", "--no-report", "--out", out,
            ], in: CLI.repository)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix("Verdict against lru for app odyssey (2 replications, paired):\n"),
            "\(result.stdout)")
        // The device's over-purge is not the app's: not in its verdict, "—" in its table.
        #expect(!result.stdout.contains("over-purge:"), "\(result.stdout)")
        let apps = try Self.table(URL(fileURLWithPath: out + "/comparison-apps.csv"))
        #expect(Array(apps.header.prefix(3)) == ["app", "policy", "replications"])
        #expect(Set(apps.rows.map { $0[0] }) == ["odyssey", "atlas", "snapfilter"] && apps.rows.count == 6)
        // The table's re-downloaded mean is the app's: its comparison-apps.csv row.
        let lru = try #require(apps.rows.first { $0[0] == "odyssey" && $0[1] == "lru" })
        let mean = Double(lru[apps.header.firstIndex(of: "redownload_bytes_mean")!])!
        let summary = try Self.table(URL(fileURLWithPath: out + "/summary.csv"))
        let device = summary.rows.filter { $0[0] == "lru" }.map {
            Double($0[summary.header.firstIndex(of: "redownload_bytes")!])!
        }
        #expect(mean <= device.reduce(0, +) / Double(device.count))
        let unknown = try CLI.run(
            ["compare", "Scenarios/game.scn", "--app", "nope", "--out", dir.appendingPathComponent("u").path],
            in: CLI.repository)
        #expect(
            unknown.status == 64
                && unknown.stderr.contains("--app: the scenario has no app 'nope' (it has odyssey, atlas, snapfilter)"),
            "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("u").path))
    }

    @Test(
        """
        shared-phone.scn: the game on Background Assets beside two ODR apps; its update blocks a launch; compare \
        --app odyssey compares the game's strategies, apple fixed as the system's order
        """
    )
    func sharedPhone() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(
            ["run", "Scenarios/shared-phone.scn", "--policy", "lru", "--no-report", "--out", dir.path + "/r"],
            in: CLI.repository)
        #expect(run.status == 0, "\(run.stderr)")
        let apps = try Self.table(dir.appendingPathComponent("r/apps.csv"))
        let game = try #require(apps.rows.first { $0[3] == "odyssey" })
        // Version 1.1's essential frost chapter (150 MB at 40 Mbps: 30 s) holds the launch.
        #expect(game[apps.header.firstIndex(of: "blocked_launches")!] == "1")
        #expect(game[apps.header.firstIndex(of: "launch_blocked_s")!] == "30.000000")
        // The ODR apps never block a launch, and the game's first level (kept) is never removed.
        for row in apps.rows where row[3] != "odyssey" {
            #expect(row[apps.header.firstIndex(of: "blocked_launches")!] == "0")
        }
        let compare = try CLI.run(
            [
                "compare", "Scenarios/shared-phone.scn", "--app", "odyssey", "--replications", "2", "--no-report",
                "--out", dir.path + "/c",
            ], in: CLI.repository)
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(
            compare.stdout.hasPrefix("Verdict against lru for app odyssey (2 replications, paired):"),
            "\(compare.stdout)")
        #expect(
            compare.stdout.contains("the first strategy run") && !compare.stdout.contains("apple was not"),
            "\(compare.stdout)")
        let rows = try Self.table(dir.appendingPathComponent("c/comparison-apps.csv")).rows
        #expect(Set(rows.filter { $0[0] == "odyssey" }.map { $0[1] }) == ["lru", "fifo", "gdsf", "largest-first"])
    }

    @Test(
        """
        every metric of the list in every output: summary.csv, apps.csv, comparison*.csv and a check baseline carry \
        Metric.columns, the platform metrics where the runs have them
        """,
        arguments: [
            ("Scenarios/game.scn", false), ("Scenarios/shared-phone.scn", true),
        ])
    func everyMetricEverywhere(scenario: String, platform: Bool) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("c").path
        let compare = try CLI.run(
            [
                "compare", scenario, "--replications", "2", "--policy", "lru", "--policy", "fifo", "--baseline", "lru",
                "--no-report", "--out", out,
            ], in: CLI.repository)
        #expect(compare.status == 0, "\(compare.stderr)")
        let metrics = Metric.columns(platformMetrics: platform)
        #expect(metrics.contains(.launchBlockedSeconds) == platform)
        func header(_ file: String) throws -> [String] { try Self.table(URL(fileURLWithPath: out + "/" + file)).header }
        #expect(
            try header("summary.csv") == ["policy", "replication", "seed", "scenario_hash"] + metrics.map(\.column))
        let statistics = ["mean", "sd", "ci_low", "ci_high", "diff_vs_lru", "diff_ci_low", "diff_ci_high"]
        #expect(
            try header("comparison.csv") == ["policy", "replications"]
                + metrics.flatMap { m in statistics.map { "\(m.column)_\($0)" } })
        #expect(
            try header("comparison-apps.csv") == ["app", "policy", "replications"]
                + metrics.filter(\.belongsToApp).flatMap { m in statistics.map { "\(m.column)_\($0)" } })
        let long = try Self.table(URL(fileURLWithPath: out + "/comparison-long.csv")).rows
        #expect(Set(long.map { $0[2] }) == Set(metrics.map(\.column)))
        // The terminal's ranking table and verdict speak of blocked launches where there are any.
        #expect(compare.stdout.contains("launch blocked") == platform, "\(compare.stdout)")
        let baseline = dir.appendingPathComponent("b.csv").path
        let update = try CLI.run(
            ["check", scenario, "--baseline", baseline, "--update", "--policy", "lru"], in: CLI.repository)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(
            try Self.table(URL(fileURLWithPath: baseline)).header == ["policy", "replication", "seed", "scenario_hash"]
                + metrics.map(\.column))
        let check = try CLI.run(["check", scenario, "--baseline", baseline, "--policy", "lru"], in: CLI.repository)
        let compared = "× \(metrics.count) metrics"
        #expect(check.status == 0 && check.stdout.contains(compared), "\(check.stdout) \(check.stderr)")
    }

    @Test(
        """
        compare --precision: replications double on the same seeds until the target is met; the same at any --jobs; \
        --max-replications says what is missed
        """
    )
    func precision() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func compare(_ extra: [String], _ out: String) throws -> CLI.Result {
            try CLI.run(
                [
                    "compare", "Scenarios/game.scn", "--policy", "apple", "--policy", "lru", "--no-report", "--out",
                    dir.path + "/" + out,
                ] + extra, in: CLI.repository)
        }
        let one = try compare(["--precision", "redownload_bytes=200MB", "--jobs", "1"], "a")
        let two = try compare(["--precision", "redownload_bytes=200MB", "--jobs", "2"], "b")
        #expect(
            one.status == 0
                && one.stdout.contains("--precision: every main metric of every policy within its target after "),
            "\(one.stdout)")
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("a/comparison.csv"))
                == Data(contentsOf: dir.appendingPathComponent("b/comparison.csv")))
        // Every interval it reports is within 200 MB (half-width = (high − low) / 2).
        let table = try Self.table(dir.appendingPathComponent("a/comparison.csv"))
        let low = table.header.firstIndex(of: "redownload_bytes_ci_low")!
        let high = table.header.firstIndex(of: "redownload_bytes_ci_high")!
        #expect(table.rows.allSatisfy { (Double($0[high])! - Double($0[low])!) / 2 <= 200e6 })
        let capped = try compare(["--precision", "1%", "--max-replications", "4"], "c")
        #expect(
            capped.status == 0
                && capped.stdout.contains("--precision: not reached after 4 replications (--max-replications)"),
            "\(capped.stdout)")
        let bad = try compare(["--precision", "requests=5"], "d")
        #expect(
            bad.status == 64 && bad.stderr.contains("--precision: 'requests' is not a main metric"), "\(bad.stderr)")
    }

    @Test(
        """
        compare --select-best: KN's sentence before the verdict; the same at any --jobs; a metric or indifference \
        missing is a usage error
        """
    )
    func selectBest() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func compare(_ extra: [String]) throws -> CLI.Result {
            try CLI.run(
                [
                    "compare", "Scenarios/game.scn", "--policy", "apple", "--policy", "lru", "--policy", "fifo",
                    "--replications", "2",
                    "--max-replications", "100", "--no-report", "--out", dir.path + "/o",
                ] + extra, in: CLI.repository)
        }
        let one = try compare(["--select-best", "redownload_bytes", "--indifference", "100MB", "--jobs", "1"])
        let two = try compare(["--select-best", "redownload_bytes", "--indifference", "100MB", "--jobs", "2"])
        #expect(
            one.status == 0 && one.stdout.hasPrefix("select-best redownload_bytes: "), "\(one.stdout) \(one.stderr)")
        #expect(one.stdout.split(separator: "\n").first == two.stdout.split(separator: "\n").first)
        #expect(try compare(["--select-best", "redownload_bytes"]).status == 64)
        #expect(try compare(["--select-best", "nope", "--indifference", "1"]).status == 64)
    }

    @Test(
        """
        compare without --policy where the app evicts compares the scenario's own strategies against the first, not \
        the system's purge orders
        """
    )
    func strategiesByDefault() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ba = try CLI.run(
            [
                "compare", "Scenarios/game-background-assets.scn", "--replications", "2", "--no-report",
                "--out", dir.appendingPathComponent("ba").path,
            ], in: CLI.repository)
        #expect(ba.status == 0, "\(ba.stderr)")
        // game-background-assets.scn: policies [lru, gdsf, largest-first, fifo].
        #expect(ba.stdout.hasPrefix("Verdict against lru (2 replications, paired):"), "\(ba.stdout)")
        let rows = try Self.table(dir.appendingPathComponent("ba/comparison.csv")).rows.map { $0[0] }
        #expect(rows == ["lru", "gdsf", "largest-first", "fifo"])
    }
}
