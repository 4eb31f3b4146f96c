import Foundation
import Testing

/// Issue 29: `--format json` gives every command's summary as one JSON object, for scripts:
/// the rows of the CSV files it wrote, typed, and the same bytes at any --jobs.
@Suite("--format json")
struct JSONOutputTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        """
        compare: the verdict and comparison.csv's rows, each number the CSV's, empty fields null; identical at \
        --jobs 1 and 2
        """
    )
    func compare() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        func run(_ jobs: String, _ out: String) throws -> CLI.Result {
            try CLI.run(
                [
                    "compare", game, "--policy", "lru", "--policy", "lfu", "--replications", "2", "--baseline", "lru",
                    "--format", "json", "--no-report", "--jobs", jobs, "--out", out,
                ], in: dir)
        }
        let one = try run("1", "a")
        let two = try run("2", "b")
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)")
        // Only the folders differ.
        #expect(one.stdout.replacingOccurrences(of: "\"out\": \"a\"", with: "\"out\": \"b\"") == two.stdout)
        let json = try Self.object(one.stdout)
        #expect(json["command"] as? String == "compare" && json["baseline"] as? String == "lru")
        #expect((json["verdict"] as? [String])?.count == 4)
        let rows = try #require(json["comparison"] as? [[String: Any]])
        let csv = try String(contentsOf: dir.appendingPathComponent("a/comparison.csv"), encoding: .utf8).split(
            separator: "\n")
        let header = csv[0].split(separator: ",").map(String.init)
        let lfu = csv[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(rows.count == 2 && rows[1]["policy"] as? String == "lfu")
        for column in ["redownload_bytes_mean", "redownload_bytes_diff_vs_lru", "wait_p95_s_ci_high", "replications"] {
            let field = lfu[header.firstIndex(of: column)!]
            #expect(
                (rows[1][column] as? NSNumber)?.doubleValue == Double(field),
                "\(column): \(String(describing: rows[1][column])) against \(field)")
        }
        // The baseline has no difference to itself: null, not 0.
        #expect(rows[0]["redownload_bytes_diff_vs_lru"] is NSNull)
    }

    @Test(
        "run, sweep, replay, mrc, bound and advise print one JSON object naming the command and its rows",
        arguments: [
            (["run", "Scenarios/game.scn", "--policy", "apple", "--no-report"], "run", "summary"),
            (["sweep", "Scenarios/studies/tag-size.study", "--no-report"], "sweep", "comparison"),
            (["replay", "Scenarios/traces/zipf-20k.csv", "--capacity", "10%", "--no-report"], "replay", "summary"),
            (["mrc", "Scenarios/traces/zipf-20k.csv", "--points", "4", "--no-report"], "mrc", "curve"),
            (["bound", "Scenarios/traces/zipf-20k.csv", "--capacity", "10%", "--no-foo"], "bound", "bounds"),
            (
                [
                    "advise", "Scenarios/game.scn", "--app", "odyssey", "--replications", "2", "--max-evaluations", "3",
                    "--no-report",
                ], "advise", "layouts"
            ),
        ])
    func every(arguments: [String], command: String, rows: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(arguments + ["--format", "json", "--out", dir.appendingPathComponent("o").path])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.object(result.stdout)
        #expect(json["command"] as? String == command)
        let list = try #require(json[rows] as? [[String: Any]])
        #expect(!list.isEmpty)
        // Numbers are numbers: no unit strings in a numeric column.
        for row in list {
            for (key, value) in row where key.hasSuffix("_bytes") {
                #expect(value is NSNumber || value is NSNull, "\(key)")
            }
        }
        // A study says what each axis does as data too (issue 40).
        if command == "sweep" {
            let effects = try #require(json["axis_effects"] as? [[String: Any]])
            #expect(effects.first?["axis"] as? String == "tag_median")
            #expect((effects.first?["metrics"] as? [[String: Any]])?.first?["metric"] as? String == "redownload_bytes")
        }
    }

    @Test("an output format other than text or json is a usage error")
    func unknown() throws {
        let result = try CLI.run(["run", "Scenarios/game.scn", "--format", "xml"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("odr-sim: The value 'xml' is invalid for '--format <format>'"))
    }
}
