import Foundation
import Reports
import Testing

/// Issue 50: `advise --app` answers for the app. On `game.scn` (three apps: the game, a map app,
/// a photo app) each layout's re-downloads are the game's, read the same from the terminal,
/// `layouts.csv`, the JSON and the report, and equal to what `run --app` measures of the
/// scenario as written on the same seeds; the user's refused data is priced in the objective.
@Suite("One lens: advise --app scores and prints the app's numbers")
struct AdviseFocusTests {
    /// `advise` on `file` with `extra` flags into a fresh folder: the terminal's text (or JSON)
    /// and the folder.
    static func advise(_ file: String, _ extra: [String]) throws -> (stdout: String, out: URL) {
        let out = try CLI.temporaryDirectory().appendingPathComponent("a")
        let result = try CLI.run(
            ["advise", file, "--app", "odyssey", "--replications", "3", "--max-evaluations", "4", "--confirm", "0"]
                + extra + ["--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        return (result.stdout, out)
    }

    /// `layouts.csv`'s `column` for every layout, by layout number.
    static func column(_ name: String, in out: URL) throws -> [Double] {
        let table = try CSVTable(contentsOf: out.appendingPathComponent("layouts.csv"))
        return try table.column(name).map { try #require(Double($0)) }
    }

    @Test("the as-written layout's re-downloads: run --app, layouts.csv, JSON, terminal and report agree")
    func sameNumberEverywhere() throws {
        let text = try Self.advise("Scenarios/game.scn", [])
        defer { try? FileManager.default.removeItem(at: text.out.deletingLastPathComponent()) }
        let json = try Self.advise("Scenarios/game.scn", ["--format", "json"])
        defer { try? FileManager.default.removeItem(at: json.out.deletingLastPathComponent()) }
        let redownloads = try Self.column("redownload_bytes", in: text.out)

        // The same runs measured by `run --app` (advise runs the scenario's first policy on the
        // scenario's seeds): the game's mean, not the phone's.
        let run = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: run) }
        let ran = try CLI.run([
            "run", "Scenarios/game.scn", "--policy", "apple", "--replications", "3", "--app", "odyssey", "--no-report",
            "--out", run.path,
        ])
        #expect(ran.status == 0, "\(ran.stderr)")
        let apps = try CSVTable(contentsOf: run.appendingPathComponent("apps.csv"))
        let game = try apps.rows.filter { apps[$0, "app"] == "odyssey" }.map {
            try #require(Double(apps[$0, "redownload_bytes"]))
        }
        let device = try CSVTable(contentsOf: run.appendingPathComponent("summary.csv")).column("redownload_bytes")
            .map { try #require(Double($0)) }
        #expect(game.count == 3 && device.count == 3)
        #expect(redownloads[0] == (game.reduce(0, +) / 3).rounded(), "layouts.csv \(redownloads[0]), run \(game)")
        #expect(redownloads[0] != (device.reduce(0, +) / 3).rounded(), "the game's, not the phone's")

        // The JSON's layouts are layouts.csv's records.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let records = try #require(object["layouts"] as? [[String: Any]])
        #expect(records.map { ($0["redownload_bytes"] as? NSNumber)?.doubleValue } == redownloads.map { Optional($0) })
        let terms = try #require(object["objective_terms"] as? String)
        #expect(terms.hasPrefix("odyssey's re-downloaded bytes + 1 × the device's refused user data"), "\(terms)")

        // The terminal and the report (its table and the chart's hover text) as Units writes them.
        let html = try String(contentsOf: text.out.appendingPathComponent("report.html"), encoding: .utf8)
        let written = Units.bytes(redownloads[0])
        #expect(text.stdout.contains("  re-downloaded: \(written) → "), "\(text.stdout)")
        #expect(html.contains("<td>0</td><td>as written</td><td>14</td><td>\(written)</td>"), "the report's table")
        #expect(html.contains("as written: \(written) re-downloaded"), "the chart's point of the layout as written")
        #expect(html.contains("odyssey&apos;s re-downloaded bytes against its p95 wait"))
    }

    @Test("the user's refused data is in the objective: 1000 × refused moves it by 1000 × layouts.csv's refusals")
    func refusedDataIsPriced() throws {
        let free = try Self.advise("Scenarios/game-background-assets.scn", ["--refused-price", "0"])
        defer { try? FileManager.default.removeItem(at: free.out.deletingLastPathComponent()) }
        let priced = try Self.advise("Scenarios/game-background-assets.scn", ["--refused-price", "1000"])
        defer { try? FileManager.default.removeItem(at: priced.out.deletingLastPathComponent()) }
        let refused = try Self.column("refused_other_bytes", in: free.out)
        #expect(refused[0] > 0, "the BA game's phone refuses some of the user's data")
        let low = try Self.column("objective_mean", in: free.out)[0]
        let high = try Self.column("objective_mean", in: priced.out)[0]
        // Same seeds, same runs: the as-written layout's objective grows by exactly 1000 × its
        // mean refusal (both rounded to the byte in the file).
        #expect(abs(high - low - 1000 * refused[0]) <= 1000, "\(high) − \(low) against 1000 × \(refused[0])")
        #expect(priced.stdout.contains("1000 × the device's refused user data"), "\(priced.stdout)")
    }
}
