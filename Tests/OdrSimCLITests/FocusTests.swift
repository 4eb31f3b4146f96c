import Foundation
import Testing

/// Issue 50: under `--app` the user's refused data stays in view. On the Background Assets
/// game, other data is refused (about 80–130 MB a run, the device's); an objective that prices
/// it must recommend differently from one that does not, and say whose value each term read.
@Suite("One lens: the app's answer keeps the user's data in view")
struct FocusTests {
    static func recommendation(_ objective: String) throws -> (line: String, terms: String) {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--replications", "3",
            "--objective", objective, "--out", out.path, "--no-report", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let verdict = try #require(json["verdict"] as? [String])
        return (
            try #require(verdict.first { $0.hasPrefix("Recommended:") }),
            try #require(verdict.first { $0.hasPrefix("The objective for app odyssey") })
        )
    }

    @Test("an objective with 1000*refused_other_bytes differs from one without, under --app")
    func refusedDataIsPriced() throws {
        let without = try Self.recommendation("redownload_bytes")
        let with = try Self.recommendation("redownload_bytes + 1000*refused_other_bytes")
        #expect(without.line != with.line, "\(without.line)")
        #expect(without.terms == "The objective for app odyssey: odyssey's redownload_bytes.")
        #expect(
            with.terms
                == "The objective for app odyssey: odyssey's redownload_bytes + 1000 × the device's "
                + "refused_other_bytes.")
        // The priced refusals are in the objective: far above the re-downloads alone (GB, not MB).
        #expect(with.line.contains(" GB"), "\(with.line)")
    }

    @Test("the table under --app says which columns are the device's")
    func deviceColumnsSaySo() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--replications", "2",
            "--out", out.path, "--no-report",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("over-purge (device)") && result.stdout.contains("low-disk (device)"))
        // No blank where the device has a figure: a dash only in the baseline's own "vs" cell.
        let dashed = result.stdout.split(separator: "\n").filter { $0.contains(" — ") }
        #expect(dashed.count == 1 && dashed[0].split(separator: " ").dropFirst().first == "lru", "\(result.stdout)")
        #expect(dashed.first.map { $0.components(separatedBy: " — ").count == 2 } == true, "\(result.stdout)")
    }

    @Test(
        "app. names a metric the app has; device. any", arguments: ["app.over_purge_bytes", "app.refused_other_bytes"])
    func appPrefixNeedsAnAppMetric(objective: String) throws {
        let result = try CLI.run([
            "compare", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--objective", objective,
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is the device's alone"), "\(result.stderr)")
    }
}

/// Issue 50: under `--app` the same number, each policy's mean re-downloaded bytes, is read
/// from every output of `compare` and agrees: the terminal's table, the JSON, the CSV of the
/// apps' comparison, and the report's chart data.
@Suite("One lens: every output of compare --app agrees")
struct FocusAgreementTests {
    @Test("re-downloads per policy: terminal, JSON, comparison-apps.csv, report chart")
    func sameNumberEverywhere() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = [
            "compare", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--replications", "3",
            "--out", out.appendingPathComponent("r").path,
        ]
        let text = try CLI.run(arguments)
        #expect(text.status == 0, "\(text.stderr)")
        let json = try CLI.run(arguments.map { $0.hasSuffix("/r") ? $0 + "j" : $0 } + ["--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["app"] as? String == "odyssey")
        let rows = try #require(object["comparison_app"] as? [[String: Any]])
        var fromJSON: [String: Double] = [:]
        for row in rows { fromJSON[row["policy"] as! String] = (row["redownload_bytes_mean"] as! NSNumber).doubleValue }
        #expect(fromJSON.count == 4, "\(fromJSON)")

        // comparison-apps.csv: the app's rows.
        let csv = try String(contentsOf: out.appendingPathComponent("r/comparison-apps.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = lines[0]
        let app = try #require(header.firstIndex(of: "app"))
        let policy = try #require(header.firstIndex(of: "policy"))
        let mean = try #require(header.firstIndex(of: "redownload_bytes_mean"))
        for line in lines.dropFirst() where line[app] == "odyssey" {
            #expect(Double(line[mean]) == fromJSON[String(line[policy])], "\(line)")
        }

        // The report's chart of re-downloads: its numbers' table, `exact (human)` per policy.
        let html = try String(contentsOf: out.appendingPathComponent("r/report.html"), encoding: .utf8)
        #expect(html.contains("<title>game-background-assets: 4 policies × 3 replications, app odyssey</title>"))
        for (name, value) in fromJSON {
            let cell = "<tr><td>\(name)</td><td>\(Int64(value.rounded())) ("
            #expect(html.contains(cell), "\(name): \(cell) not in the report's re-downloads chart")
        }

        // The terminal's ranked table: each policy's re-downloads, as the report writes them.
        for (name, value) in fromJSON {
            let exact = "<tr><td>\(name)</td><td>\(Int64(value.rounded())) ("
            let human = try #require(html.components(separatedBy: exact).dropFirst().first?.prefix { $0 != ")" })
            let row = try #require(
                text.stdout.split(separator: "\n").first {
                    $0.split(separator: " ").dropFirst().first == Substring(name)
                })
            #expect(row.contains("  \(human) ("), "\(name): \(human) not in \(row)")
        }
    }
}
