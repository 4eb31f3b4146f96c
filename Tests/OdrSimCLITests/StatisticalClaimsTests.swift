import Foundation
import Metrics
import Testing

/// Issue 51: what odr-sim prints as statistics is no stronger than what holds. The coverage
/// itself is measured by `scripts/calibrate` (a short run in CI); these hold the rules.
@Suite("Statistical claims that hold")
struct StatisticalClaimsTests {
    static func compare(_ arguments: [String]) throws -> (result: CLI.Result, out: URL) {
        let out = try CLI.temporaryDirectory().appendingPathComponent("c")
        let result = try CLI.run(["compare"] + arguments + ["--no-report", "--out", out.path])
        return (result, out)
    }

    @Test("no 'significant' on float noise: p95 waits that differ by 10⁻¹² s are the same wait")
    func floatNoise() throws {
        // overpurge-stress: every p95 wait is 51.2 s; before, doubles differing by 5·10⁻¹² s made
        // "best-fit improves on apple, 51.2 s against 51.2 s … significant".
        let (result, out) = try Self.compare([
            "Scenarios/overpurge-stress.scn", "--policy", "apple", "--policy", "best-fit", "--replications", "5",
        ])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("wait, 95th percentile") })
        #expect(line.contains("the same under every policy in every replication"), "\(line)")
        #expect(!line.contains("improves"))
    }

    @Test("--precision never stops below 10 replications, even where 2 would meet the target")
    func precisionFloor() throws {
        let (result, out) = try Self.compare([
            "Scenarios/game.scn", "--policy", "lru", "--policy", "fifo", "--replications", "2", "--precision",
            "redownload_bytes=5GB",
        ])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        #expect(result.status == 0, "\(result.stderr)")
        let table = try CSVTable(contentsOf: out.appendingPathComponent("comparison.csv"))
        #expect(table.column("replications").allSatisfy { Int($0) == 10 }, "\(table.column("replications"))")
    }

    @Test("the verdict says what its significance is adjusted for, and what not")
    func multiplicity() throws {
        let (result, out) = try Self.compare(["Scenarios/game.scn", "--policy", "lru", "--policy", "fifo"])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        #expect(
            result.stdout.contains(
                "(Each metric's best is tested with Holm's adjustment over the policies; the 4 metrics are not "
                    + "adjusted for one another"), "\(result.stdout)")
    }

    @Test("--select-best: on batch means; identical policies stop at n₀, named; the selection is in --format json")
    func selectionInJSON() throws {
        // On the Background Assets game every strategy fails the same request in every run.
        let (result, out) = try Self.compare([
            "Scenarios/game-background-assets.scn", "--select-best", "failed_requests", "--indifference", "0.5",
            "--format", "json",
        ])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let selection = try #require(json["selection"] as? [String: Any])
        // KN on means of 5 replications, 10 of them first: identical policies stop after 50.
        #expect(selection["best"] as? String == "lru" && selection["replications"] as? Int == 50)
        let identical = try #require(selection["identical"] as? [[String: Any]])
        #expect(Set(identical.compactMap { $0["policy"] as? String }) == ["gdsf", "largest-first", "fifo"])
        #expect((selection["sentence"] as? String)?.contains("so not separable") == true)
    }

    @Test(
        "--warmup auto refuses where it does not apply: most runs never settle, or a finite story",
        arguments: ["shared-phone", "story"])
    func warmupRefused(scenario: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var file = "Scenarios/\(scenario).scn"
        if scenario == "story" {
            // game.scn without its workload generators: every event scripted.
            let game = try String(
                contentsOf: CLI.repository.appendingPathComponent("Scenarios/game.scn"), encoding: .utf8)
            let start = try #require(game.range(of: "\nworkload:"))
            let end = try #require(game.range(of: "\nevents:"))
            file = dir.appendingPathComponent("story.scn").path
            try Data((game[..<start.lowerBound] + game[end.lowerBound...]).utf8).write(to: URL(fileURLWithPath: file))
        }
        let result = try CLI.run([
            "compare", file, "--warmup", "auto", "--replications", "4", "--policy", "lru", "--policy", "fifo",
            "--no-report", "--out", dir.appendingPathComponent("o").path,
        ])
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        let reason = scenario == "story" ? "a finite story" : "runs never settle"
        #expect(
            result.stderr.hasPrefix("odr-sim: --warmup auto: ") && result.stderr.contains(reason), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
    }

    @Test("a policy named twice is refused, not a crash (found by the KN ties)", arguments: ["run", "compare"])
    func policyTwice(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            command, "Scenarios/game.scn", "--policy", "lru", "--policy", "lru", "--out",
            dir.appendingPathComponent("o").path,
        ])
        #expect(result.status == 64)
        #expect(result.stderr == "odr-sim: --policy: policy 'lru' is named twice; give each policy once\n")
    }

    @Test("advise's finalists are auditable: each by layout number and a unique name, with its per-seed objectives")
    func finalists() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "advise", "Scenarios/game.scn", "--app", "odyssey", "--replications", "3", "--max-evaluations", "12",
            "--confirm", "10", "--format", "json", "--out", out.appendingPathComponent("a").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let fresh = try #require(json["fresh_seeds"] as? [String: Any])
        let finalists = try #require(fresh["finalists"] as? [[String: Any]])
        #expect(finalists.count >= 2)
        let names = finalists.compactMap { $0["name"] as? String }
        #expect(Set(names).count == finalists.count, "\(names)")
        #expect(names.contains("the advised layout") && names.contains("the layout as written"))
        // Per seed: 10 objectives each, whose means are objective_means.
        let means = try #require(fresh["objective_means"] as? [Double])
        for (k, finalist) in finalists.enumerated() {
            let objectives = try #require(finalist["objectives"] as? [Double])
            #expect(objectives.count == 10)
            #expect(abs(objectives.reduce(0, +) / 10 - means[k]) <= 1e-6 * max(1, abs(means[k])))
        }
    }

    @Test("KN on batch means: eliminations at whole batches of 5, never before the first stage's 50 (issue 51)")
    func batchMeans() throws {
        let (result, out) = try Self.compare([
            "Scenarios/game.scn", "--policy", "lru", "--policy", "apple", "--policy", "largest-first", "--select-best",
            "redownload_bytes", "--indifference", "100MB", "--format", "json",
        ])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let selection = try #require(json["selection"] as? [String: Any])
        let eliminated = try #require(selection["eliminated"] as? [[String: Any]]).compactMap {
            $0["replication"] as? Int
        }
        #expect(!eliminated.isEmpty && eliminated.allSatisfy { $0 >= 50 && $0 % 5 == 0 }, "\(eliminated)")
        #expect((selection["sentence"] as? String)?.contains("on means of 5 replications") == true)
    }

    /// The measured proportions of docs/statistics.md's calibration table, by its `measure` column.
    static func calibrationTable() throws -> [String: [Double]] {
        let text = try String(
            contentsOf: CLI.repository.appendingPathComponent("docs/statistics.md"), encoding: .utf8)
        var measured: [String: [Double]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| coverage") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            // measure, scenario, what, replications, macro-runs, measured, its interval, no bounds
            guard cells.count == 8, let value = Double(cells[5]) else { continue }
            measured[cells[0], default: []].append(value)
        }
        return measured
    }

    @Test("the level printed beside the intervals is the calibration table's, at a fixed count and after --precision")
    func printedLevel() throws {
        let table = try Self.calibrationTable()
        let fixed = try #require(table["coverage"])
        let afterStop = try #require(table["coverage after --precision"])
        // Every kind on three scenarios (game, PAD, BA) × 3 metrics × mean and difference.
        #expect(fixed.count == 18 && afterStop.count == 6)
        #expect(fixed.min() == Calibration.fixedCount.lowerBound && fixed.max() == Calibration.fixedCount.upperBound)
        #expect(
            afterStop.min() == Calibration.afterPrecision.lowerBound
                && afterStop.max() == Calibration.afterPrecision.upperBound)
        let (result, out) = try Self.compare([
            "Scenarios/game.scn", "--policy", "apple", "--policy", "lru", "--replications", "3",
        ])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        #expect(
            result.stdout.contains(
                "they held the truth in \(Self.percent(fixed.min()!)) to \(Self.percent(fixed.max()!)) of fresh-seed"),
            "\(result.stdout)")
    }

    /// 0.925 → "92.5 %", 1.0 → "100 %", as a reader writes them.
    static func percent(_ x: Double) -> String {
        let tenths = Int((x * 1000).rounded())
        return (tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)") + " %"
    }
}
