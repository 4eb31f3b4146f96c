import Foundation
import Testing

@Suite("odr-sim check, end to end", .serialized)
struct CheckCommandTests {
    @Test("passes on an unchanged run and fails on a planted regression, naming metric, policy, old and new")
    func plantedRegression() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("small.scn").path
        try Data(smallScenario.utf8).write(to: URL(fileURLWithPath: scenario))
        let baseline = dir.appendingPathComponent("baseline.csv").path
        #expect(try CLI.run(["check", scenario, "--baseline", baseline, "--update"]).status == 0)
        // Rewriting an existing baseline replaces it (Foundation's replaceItemAt lost it on Linux).
        #expect(try CLI.run(["check", scenario, "--baseline", baseline, "--update"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: baseline))
        let unchanged = try CLI.run(["check", scenario, "--baseline", baseline])
        #expect(unchanged.status == 0, "\(unchanged.stdout)\(unchanged.stderr)")

        // Plant a regression: pretend the baseline re-downloaded half as much (32 MB, not 64 MB).
        var text = try String(contentsOfFile: baseline, encoding: .utf8)
        let header = text.split(separator: "\n")[0].split(separator: ",")
        let column = header.firstIndex(of: "redownload_bytes")!
        var row = text.split(separator: "\n")[1].split(separator: ",", omittingEmptySubsequences: false).map(
            String.init)
        #expect(row[column] == "64000000")
        row[column] = "32000000"
        text = header.joined(separator: ",") + "\n" + row.joined(separator: ",") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: baseline))
        let result = try CLI.run(["check", scenario, "--baseline", baseline, "--tolerance", "2%"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("apple replication 1: redownload_bytes moved from 32000000 to 64000000"))
        #expect(result.stderr.contains("1 value(s) moved beyond 2%"))

        // --format json: the same failure as fields, exit 1 still, the line on stderr still.
        let json = try CLI.run(["check", scenario, "--baseline", baseline, "--tolerance", "2%", "--format", "json"])
        #expect(json.status == 1 && json.stderr.contains("1 value(s) moved beyond 2%"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false && object["mode"] as? String == "tolerance")
        let failures = try #require(object["failures"] as? [[String: Any]])
        #expect(failures.count == 1)
        #expect(
            failures.first?["metric"] as? String == "redownload_bytes"
                && failures.first?["policy"] as? String == "apple")
        #expect(failures.first?["replication"] as? Int == 1)
        #expect(
            failures.first?["baseline"] as? Double == 32_000_000 && failures.first?["current"] as? Double == 64_000_000)
        // 2 % either side of the baseline's 32 MB.
        #expect(
            failures.first?["allowed_low"] as? Double == 31_360_000
                && failures.first?["allowed_high"] as? Double == 32_640_000)
        // The gate in JSON: the planted halving is a 100 % rise, beyond a 10 % limit.
        let gate = try CLI.run([
            "check", scenario, "--baseline", baseline, "--max-increase", "redownload_bytes=10%", "--format", "json",
        ])
        #expect(gate.status == 1)
        let gated = try #require(try JSONSerialization.jsonObject(with: Data(gate.stdout.utf8)) as? [String: Any])
        let line = try #require((gated["lines"] as? [[String: Any]])?.first)
        #expect(gated["passed"] as? Bool == false && line["verdict"] as? String == "rose beyond the limit")
        #expect(
            line["baseline_mean"] as? Double == 32_000_000 && line["current_mean"] as? Double == 64_000_000
                && line["allowed"] as? Double == 3_200_000)
    }

    @Test(
        """
        check --app: one app's baseline (the device's metrics nan), checked and gated on that app's rows; an unknown \
        app writes nothing
        """
    )
    func oneApp() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseline = dir.appendingPathComponent("odyssey.csv").path
        let update = try CLI.run(
            [
                "check", "Scenarios/shared-phone.scn", "--app", "odyssey", "--baseline", baseline, "--update",
                "--policy", "lru",
            ], in: CLI.repository)
        #expect(update.status == 0, "\(update.stderr)")
        let lines = try String(contentsOfFile: baseline, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let header = lines[0].map(String.init)
        // The game's own requests (27 of the device's 105), and no over-purge of its own.
        #expect(lines[1][header.firstIndex(of: "requests")!] == "27")
        #expect(lines[1][header.firstIndex(of: "over_purge_bytes")!] == "nan")
        let check = try CLI.run(
            ["check", "Scenarios/shared-phone.scn", "--app", "odyssey", "--baseline", baseline], in: CLI.repository)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        let gate = try CLI.run(
            [
                "check", "Scenarios/shared-phone.scn", "--app", "odyssey", "--baseline", baseline, "--max-increase",
                "redownload_bytes=5%",
            ], in: CLI.repository)
        #expect(
            gate.status == 0 && gate.stdout.contains("lru redownload_bytes: 45 MB → 45 MB"),
            "\(gate.stdout) \(gate.stderr)")
        // The device's rows are not the game's: checking them against it fails.
        #expect(
            try CLI.run(["check", "Scenarios/shared-phone.scn", "--baseline", baseline], in: CLI.repository).status == 1
        )
        let other = dir.appendingPathComponent("none.csv").path
        let unknown = try CLI.run(
            ["check", "Scenarios/shared-phone.scn", "--app", "nope", "--baseline", other, "--update"],
            in: CLI.repository)
        #expect(unknown.status == 64 && !FileManager.default.fileExists(atPath: other))
    }

    @Test("a missing baseline is a clear error")
    func missingBaseline() throws {
        let result = try CLI.run(["check", "scenarios/game.scn", "--baseline", "/nonexistent/b.csv"])
        #expect(result.status == 1)
        // Read by the one reader of text inputs, as every file is (issue 42).
        #expect(result.stderr == "/nonexistent/b.csv:1:1: no such file\n", "\(result.stderr)")
    }

    /// game.scn as `g.scn` in `dir`, and `worse.scn`: 1 GB more of other data, so more purges
    /// and more re-downloads; game.scn's text.
    static func gameAndWorse(in dir: URL) throws -> String {
        let game = try String(contentsOf: CLI.repository.appendingPathComponent("Scenarios/game.scn"), encoding: .utf8)
        try Data(game.utf8).write(to: dir.appendingPathComponent("g.scn"))
        try Data(game.replacingOccurrences(of: "used: 58.5GB", with: "used: 59.5GB").utf8).write(
            to: dir.appendingPathComponent("worse.scn"))
        return game
    }

    @Test(
        """
        --max-increase gates an app team's CI: an unchanged and an improved scenario pass, a worse one fails; the \
        changed scenario is reported, not refused
        """
    )
    func gate() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 8.5 GB less of other data: fewer purges, fewer re-downloads.
        let game = try Self.gameAndWorse(in: dir)
        try Data(game.replacingOccurrences(of: "used: 58.5GB", with: "used: 50GB").utf8).write(
            to: dir.appendingPathComponent("better.scn"))
        let made = try CLI.run(
            ["check", "g.scn", "--baseline", "b.csv", "--update", "--policy", "lru", "--replications", "3"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        func gate(_ file: String) throws -> CLI.Result {
            try CLI.run(["check", file, "--baseline", "b.csv", "--max-increase", "redownload_bytes=5%"], in: dir)
        }
        let same = try gate("g.scn")
        #expect(
            same.status == 0 && same.stdout.contains("lru redownload_bytes: ")
                && same.stdout.contains("within the limit"), "\(same.stdout)")
        let better = try gate("better.scn")
        #expect(better.status == 0, "\(better.stdout)\(better.stderr)")
        #expect(better.stdout.contains("the scenario changed since the baseline"), "\(better.stdout)")
        let worse = try gate("worse.scn")
        #expect(worse.status == 1 && worse.stdout.contains("rose beyond the limit"), "\(worse.stdout)")
        #expect(worse.stderr == "odr-sim: 1 metric(s) rose beyond --max-increase against b.csv\n", "\(worse.stderr)")
        let unknown = try CLI.run(
            ["check", "g.scn", "--baseline", "b.csv", "--max-increase", "redownload=5%"], in: dir)
        #expect(
            unknown.status == 64 && unknown.stderr.hasPrefix("odr-sim: --max-increase: unknown metric 'redownload'"),
            "\(unknown.stderr)")
    }

    @Test("--junit writes the gate's verdict too (issue 50): a passing case, and a failing one naming the rise")
    func gateJUnit() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.gameAndWorse(in: dir)
        let made = try CLI.run(
            ["check", "g.scn", "--baseline", "b.csv", "--update", "--policy", "lru", "--replications", "3"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        func gate(_ file: String, _ junit: String) throws -> (CLI.Result, String) {
            let result = try CLI.run(
                ["check", file, "--baseline", "b.csv", "--max-increase", "redownload_bytes=5%", "--junit", junit],
                in: dir)
            return (result, try String(contentsOf: dir.appendingPathComponent(junit), encoding: .utf8))
        }
        let (same, passing) = try gate("g.scn", "same.xml")
        #expect(same.status == 0, "\(same.stderr)")
        #expect(passing.contains("tests=\"2\" failures=\"0\""), "\(passing)")
        #expect(passing.contains("classname=\"game.lru\" name=\"redownload_bytes\"/>"), "\(passing)")
        let (worse, failing) = try gate("worse.scn", "worse.xml")
        #expect(worse.status == 1, "\(worse.stderr)")
        #expect(failing.contains("tests=\"2\" failures=\"1\""), "\(failing)")
        // The failure's text is the gate's own line, as the terminal printed it.
        let line = try #require(worse.stdout.split(separator: "\n").first { $0.contains("rose beyond the limit") })
        #expect(failing.contains("<failure message=\"\(line)\""), "\(failing)")
    }

    @Test(
        """
        the gate's row is the app and the strategy that ran (issue 50): apps[].strategy names the rows, the baseline \
        keeps it, and a PR that swaps it for a worse one fails naming the change
        """
    )
    func appStrategyChange() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ba = try String(
            contentsOf: CLI.repository.appendingPathComponent("Scenarios/game-background-assets.scn"), encoding: .utf8)
        #expect(ba.contains("- id: odyssey\n  budget: 1GB\n"))
        // On this phone the game re-downloads about twice as much under fifo as under gdsf
        // (compare --app odyssey: 345 MB against 168 MB at 10 replications).
        for strategy in ["gdsf", "fifo"] {
            let own = ba.replacingOccurrences(
                of: "- id: odyssey\n  budget: 1GB\n", with: "- id: odyssey\n  budget: 1GB\n  strategy: \(strategy)\n")
            try Data(own.utf8).write(to: dir.appendingPathComponent("\(strategy).scn"))
        }
        let made = try CLI.run(
            [
                "check", "gdsf.scn", "--app", "odyssey", "--baseline", "b.csv", "--update", "--policy", "lru",
                "--replications", "5",
            ],
            in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        let baseline = try CSVTable(contentsOf: dir.appendingPathComponent("b.csv"))
        #expect(baseline.header.last == "strategy" && Set(baseline.column("strategy")) == ["gdsf"])
        #expect(Set(baseline.column("policy")) == ["lru"], "the runs' policy stays, to run again")
        func gate(_ file: String) throws -> CLI.Result {
            try CLI.run(
                [
                    "check", file, "--app", "odyssey", "--baseline", "b.csv", "--max-increase",
                    "redownload_bytes=10%",
                ], in: dir)
        }
        let same = try gate("gdsf.scn")
        #expect(same.status == 0 && same.stdout.hasPrefix("gdsf redownload_bytes: "), "\(same.stdout)\(same.stderr)")
        let worse = try gate("fifo.scn")
        #expect(worse.status == 1 && worse.stdout.hasPrefix("fifo redownload_bytes: "), "\(worse.stdout)")
        #expect(worse.stdout.contains("rose beyond the limit"), "\(worse.stdout)")
        #expect(
            worse.stdout.contains(
                "(odyssey's own strategy changed since the baseline: gdsf → fifo (apps[].strategy; gated against "
                    + "gdsf's rows))"), "\(worse.stdout)")
    }

    @Test(
        """
        the gate guards what ships (issue 50): a PR that replaces the scenario's policy with a worse one runs the \
        new one and fails, naming the change; --allow-policy-change gates it against the old one's rows
        """
    )
    func policyChange() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = try String(contentsOf: CLI.repository.appendingPathComponent("Scenarios/game.scn"), encoding: .utf8)
        let line = try #require(game.split(separator: "\n").first { $0.hasPrefix("policies:") })
        // game.scn's own comparison: largest-first re-downloads about twice what lru does (5 replications
        // put the paired change's interval clear of the 10 % limit).
        for (name, policy) in [("lru", "lru"), ("worse", "largest-first")] {
            try Data(game.replacingOccurrences(of: String(line), with: "policies: [\(policy)]").utf8).write(
                to: dir.appendingPathComponent("\(name).scn"))
        }
        let made = try CLI.run(["check", "lru.scn", "--baseline", "b.csv", "--update", "--replications", "5"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        func gate(_ file: String, _ extra: [String] = []) throws -> CLI.Result {
            try CLI.run(
                ["check", file, "--baseline", "b.csv", "--max-increase", "redownload_bytes=10%"] + extra, in: dir)
        }
        let same = try gate("lru.scn")
        #expect(same.status == 0 && same.stdout.hasPrefix("lru redownload_bytes: "), "\(same.stdout)\(same.stderr)")
        let change = """
            the scenario's policy changed since the baseline: lru → largest-first (gated against \
            lru's rows)
            """
        let worse = try gate("worse.scn")
        #expect(worse.status == 1, "\(worse.stdout)\(worse.stderr)")
        #expect(worse.stdout.hasPrefix("largest-first redownload_bytes: "), "\(worse.stdout)")
        #expect(
            worse.stdout.contains("rose beyond the limit") && worse.stdout.contains("(\(change))"), "\(worse.stdout)")
        let accepted = try gate("worse.scn", ["--allow-policy-change"])
        #expect(accepted.status == 1 && accepted.stdout.contains("rose beyond the limit"), "\(accepted.stdout)")
        // A better replacement, accepted, passes; not accepted, it fails on the change alone.
        let better = try CLI.run(
            ["check", "worse.scn", "--baseline", "w.csv", "--update", "--replications", "5"], in: dir)
        #expect(better.status == 0, "\(better.stderr)")
        let improved = try CLI.run(
            ["check", "lru.scn", "--baseline", "w.csv", "--max-increase", "redownload_bytes=10%"], in: dir)
        #expect(improved.status == 1 && improved.stdout.contains("improved"), "\(improved.stdout)")
        #expect(
            improved.stderr
                == """
                odr-sim: the scenario's policy changed since the baseline: largest-first → lru (gated against \
                largest-first's rows); --allow-policy-change accepts it\n
                """
        )
        let allowed = try CLI.run(
            [
                "check", "lru.scn", "--baseline", "w.csv", "--max-increase", "redownload_bytes=10%",
                "--allow-policy-change",
            ], in: dir)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
    }
}
