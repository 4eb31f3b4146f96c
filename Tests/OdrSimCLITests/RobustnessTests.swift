import Foundation
import Testing

/// Issue 38: `odr-sim assumptions` and `compare --robustness`.
@Suite("Assumptions and robustness on the command line")
struct RobustnessTests {
    @Test("odr-sim assumptions lists each undocumented choice with its key, default and alternatives; --csv as a table")
    func listed() throws {
        let lines = try CLI.run(["assumptions"])
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(
            lines.stdout.contains(
                """
                system-removes-for-other-data: platform: {system_removes_for_other_data: …} default false; \
                alternatives: true.
                """
            ))
        #expect(
            lines.stdout.contains(
                "cellular-confirmation-delay: apps[].cellular_confirmation default 1m; alternatives: 10s, 10m, never."))
        #expect(lines.stdout.split(separator: "\n").count >= 7)
        let csv = try CLI.run(["assumptions", "--csv"])
        #expect(csv.status == 0 && csv.stdout.hasPrefix("assumption,key,default,alternatives,why,covers\n"))
        #expect(csv.stdout.split(separator: "\n").count == lines.stdout.split(separator: "\n").count + 1)
    }

    @Test(
        """
        compare --robustness on Background Assets: a row per applying alternative and metric, written and said; on \
        ODR the Background Assets rule does not apply
        """
    )
    func robustness() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ba = try CLI.run(
            [
                "compare", "Scenarios/game-background-assets.scn", "--replications", "2", "--robustness",
                "--policy", "lru", "--policy", "fifo", "--out", dir.appendingPathComponent("ba").path, "--no-report",
            ],
            in: CLI.repository)
        #expect(ba.status == 0, "\(ba.stderr)")
        let said = try #require(ba.stdout.split(separator: "\n").first { $0.hasPrefix("  robustness: ") })
        #expect(said.contains("the verdict holds under all") || said.contains(" of 4 alternatives (same seeds)"))
        let table = try String(contentsOf: dir.appendingPathComponent("ba/robustness.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(
            table[0]
                == "assumption,key,default,alternative,metric,best,best_mean,best_under_alternative,"
                + "best_under_alternative_mean,change_mean,change_ci_low,change_ci_high,verdict,best_significant,"
                + "best_significant_under_alternative,limits_broken"
        )
        let assumptions = Set(table.dropFirst().map { String($0.split(separator: ",")[0]) })
        // Background Assets with lru and fifo: the system's removal, the app's when full, the
        // device's space exhaustion and the room to unpack apply; Play's dialog and Android's
        // quota do not.
        #expect(
            assumptions == [
                "system-removes-for-other-data", "app-evicts-when-full", "space-exhausted", "unpack-space",
            ],
            "\(assumptions)")
        let rows = try CSVTable(contentsOf: dir.appendingPathComponent("ba/robustness.csv"))
        #expect(rows.column("verdict").allSatisfy { ["holds", "flips", "within the noise"].contains($0) })
        let odr = try CLI.run(
            [
                "compare", "Scenarios/game.scn", "--replications", "2", "--robustness", "--policy", "lru",
                "--policy", "fifo", "--out", dir.appendingPathComponent("odr").path, "--no-report", "--format", "json",
            ],
            in: CLI.repository)
        #expect(odr.status == 0, "\(odr.stderr)")
        #expect(
            odr.stdout.contains("\"robustness_headline\"") && !odr.stdout.contains("system-removes-for-other-data"),
            "\(odr.stdout)")
    }

    @Test(
        """
        compare --app --robustness (issue 50): judged on the app's rows, and a best whose significant advantage \
        is lost under an alternative is within the noise, not holding
        """
    )
    func focused() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "compare", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--replications", "10",
            "--robustness", "--out", dir.path, "--no-report",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CSVTable(contentsOf: dir.appendingPathComponent("robustness.csv"))
        let apps = try CSVTable(contentsOf: dir.appendingPathComponent("comparison-apps.csv"))
        let device = try CSVTable(contentsOf: dir.appendingPathComponent("comparison.csv"))
        func mean(_ table: CSVTable, _ policy: String) -> Double? {
            table.rows.first { table[$0, "policy"] == policy && ["", "odyssey"].contains(table[$0, "app"]) }
                .flatMap { Double(table[$0, "redownload_bytes_mean"]) }
        }
        var judged = 0
        for r in rows.rows where rows[r, "metric"] == "redownload_bytes" {
            // The best's mean as run is the app's, as comparison-apps.csv has it, not the phone's.
            let best = rows[r, "best"]
            #expect(Double(rows[r, "best_mean"]) == mean(apps, best), "\(best)")
            #expect(Double(rows[r, "best_mean"]) != mean(device, best), "\(best): the phone's mean")
            // The rule: the same best holds only if a significant advantage stays significant.
            if best == rows[r, "best_under_alternative"] && rows[r, "best_significant"] == "true" {
                let kept = rows[r, "best_significant_under_alternative"] == "true"
                #expect(rows[r, "verdict"] == (kept ? "holds" : "within the noise"), "row \(r)")
                judged += 1
            }
        }
        #expect(judged == 3, "gdsf's advantage is significant as run; each alternative judged")
        #expect(rows.column("verdict").contains("within the noise"))
        #expect(!result.stdout.contains("the verdict holds under all"), "\(result.stdout)")
    }

    @Test(
        """
        advise --robustness: the advised layout and the one as written under each applying alternative; verdicts \
        follow the paired change (issue 38)
        """
    )
    func advise() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "advise", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--robustness", "--max-evaluations",
            "8",
            "--replications", "3", "--confirm", "0", "--format", "json", "--out", dir.appendingPathComponent("a").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["robustness"] as? [[String: Any]])
        #expect(!rows.isEmpty)
        let listed = try CLI.run(["assumptions"]).stdout
        let kept = (object["objective_advised"] as? Double) == (object["objective_as_written"] as? Double)
        for row in rows {
            let name = try #require(row["assumption"] as? String)
            let change = try #require(row["change"] as? Double)
            let low = try #require(row["change_ci_low"] as? Double)
            let verdict = try #require(row["verdict"] as? String)
            #expect(listed.contains(name), "\(name)")
            // holds: the advised layout still does better by its mean (or the layout as written is kept);
            // flips: significantly worse; within the noise otherwise.
            let expected = kept || change < 0 ? "holds" : low > 0 ? "flips" : "within the noise"
            #expect(verdict == expected, "\(row)")
        }
        #expect(
            try CLI.run([
                "advise", "Scenarios/game-background-assets.scn", "--app", "odyssey", "--robustness",
                "--max-evaluations", "8",
                "--replications", "3", "--confirm", "0", "--out", dir.appendingPathComponent("b").path,
            ]).stdout.contains("  robustness: "))
    }
}
