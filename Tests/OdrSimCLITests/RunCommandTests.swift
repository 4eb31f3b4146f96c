import Experiments
import Foundation
import Metrics
import ODRPolicies
import ScenarioFile
import Testing

@Suite("odr-sim run, end to end", .serialized)
struct RunCommandTests {
    func write(_ text: String, named name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ dir: URL, _ name: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("writes summary, events and time series with the contract's columns and hand-computed numbers")
    func reports() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try write(smallScenario, named: "small.scn", in: dir)
        let out = dir.appendingPathComponent("out")
        let result = try CLI.run(["run", scenario, "--out", out.path, "--sample", "10m"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try read(out, "summary.csv").split(separator: "\n")
        let header = summary[0].split(separator: ",").map(String.init)
        for column in [
            "policy", "seed", "requests", "hits", "downloads", "downloaded_bytes", "redownload_bytes", "purges",
            "purged_bytes", "over_purge_bytes", "low_disk_notifications", "app_terminations", "failed_requests",
            "failed_out_of_space", "failed_no_network", "failed_cellular", "failed_in_use_limit",
            "failed_invalid_tag", "wait_p50_s", "wait_p95_s", "wait_p99_s", "peak_used_bytes",
        ] {
            #expect(header.contains(column), "missing column \(column)")
        }
        #expect(summary.count == 2)
        let row = Dictionary(
            uniqueKeysWithValues: zip(
                header, summary[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        // 100 MB free; map (64 MB) leaves 36 MB. Photos need 50 MB: 14 MB short, the map (64 MB)
        // goes: over-purge 50 MB. The photos are deleted (100 MB free again) and the second
        // request downloads the map again: 64 MB re-downloaded, no low-disk warning.
        #expect(row["requests"] == "2")
        #expect(row["downloaded_bytes"] == "128000000")
        #expect(row["redownload_bytes"] == "64000000")
        #expect(row["purged_bytes"] == "64000000")
        #expect(row["over_purge_bytes"] == "50000000")
        #expect(row["low_disk_notifications"] == "0")
        // Each download takes 64e6 · 8 / 300e6 = 1.706667 s.
        #expect(row["wait_p50_s"].flatMap(Double.init).map { abs($0 - 1.706667) < 0.002 } == true)
        let events = try read(out, "events.csv")
        #expect(events.hasPrefix("policy,replication,time_s,event,"))
        // Download rows name the request they serve; bytes is what the download fetches.
        #expect(events.contains("apple,1,240.000000,request,game,r2,,,,,,\n"))
        #expect(events.contains("apple,1,240.000000,download_start,game,r2,level-1,64000000,,,,redownload"))
        #expect(events.contains("apple,1,241.706667,download_finish,game,r2,level-1,64000000,,,,\n"))
        #expect(events.contains("apple,1,241.706667,grant,game,r2,,,,,1.706667,\n"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let series = try read(out, "timeseries.csv").split(separator: "\n")
        #expect(series.count == 1 + 7)  // header, samples at 0, 10, …, 60 min
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".out.tmp-").path))
    }

    @Test(
        """
        events.csv has a row for every change of state: priority, preservation, suspension by an urgent download and \
        its end
        """
    )
    func everyStateChange() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 8 Mbps = 1 MB/s. r1's 10 MB start at 0; at 1 s the urgent r2 (2 MB) suspends it
        // (1 MB fetched) and has the link to itself until 3 s; r1 continues then and needs
        // 9 s more: granted at 12 s, having waited 12 s.
        let scenario = try write(
            """
            duration: 1m
            device: {capacity: 1000MB}
            network: [{at: 0, bandwidth: 8Mbps, kind: wifi}]
            apps:
              - id: game
                resources:
                  - {name: a, size: 10MB, tags: [a]}
                  - {name: b, size: 2MB, tags: [b]}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, launch: true}
              - {at: 0, app: game, request: [a], id: r1}
              - {at: 1s, app: game, request: [b], id: r2, priority: urgent}
              - {at: 2s, app: game, set-priority: r1, priority: 0.9}
              - {at: 4s, app: game, preserve: {b: 0.75}}

            """, named: "states.scn", in: dir)
        let out = dir.appendingPathComponent("out")
        let result = try CLI.run(["run", scenario, "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try read(out, "events.csv").split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).joined(separator: ",")
        }
        for expected in [
            "0.000000,download_start,game,r1,a,10000000,,,,",
            "1.000000,download_start,game,r2,b,2000000,,,,",
            "1.000000,download_stall,game,r1,a,,,,,suspended-by-urgent",
            "2.000000,set_priority,game,r1,,,,,,0.9",
            "3.000000,download_finish,game,r2,b,2000000,,,,",
            "3.000000,download_continue,game,r1,a,,,,,",
            "4.000000,preserve,game,,,,,,,b=0.75",
            "12.000000,download_finish,game,r1,a,10000000,,,,",
            "12.000000,grant,game,r1,,,,,12.000000,",
        ] {
            #expect(rows.contains(expected), "no row \(expected)")
        }
    }

    @Test("what a scripted event asks for that cannot happen is a warning at its FILE:LINE:COLUMN, once for all runs")
    func notices() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 900 MB of other data: -1GB removes only those (100 MB clamped). r1 is ended twice.
        // The app is terminated before r2. At 7 min: no other data, r2 holds the 64 MB map, so
        // 936 MB fit of the 2 GB asked: 1.064 GB refused.
        let scenario = try write(
            """
            duration: 1h
            device: {capacity: 1000MB, used: 900MB}
            apps:
              - id: game
                resources:
                  - {name: map, size: 64MB, tags: [level-1]}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, launch: true}
              - {at: 1m, app: game, request: [level-1], id: r1}
              - {at: 2m, app: game, end: r1}
              - {at: 3m, app: game, end: r1}
              - {at: 4m, disk: -1GB}
              - {at: 5m, app: game, terminate: true}
              - {at: 6m, app: game, request: [level-1], id: r2}
              - {at: 7m, disk: +2GB}

            """, named: "notices.scn", in: dir)
        let out = dir.appendingPathComponent("out")
        let result = try CLI.run([
            "run", scenario, "--policy", "apple", "--policy", "lru", "--replications", "2", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n") == [
                "\(scenario):12:5: warning: request 'r1' of app 'game' was already ended; this end does nothing",
                """
                \(scenario):13:5: warning: other data cannot shrink by 1 GB: only 900 MB was left, so it stops at \
                zero (100 MB not removed)
                """,
                """
                \(scenario):15:5: warning: app 'game' is not running; the request is made all the same, and its \
                app's content is purged as that of an app not running
                """,
                """
                \(scenario):16:5: warning: other data cannot grow by 2 GB: 1.06 GB did not fit, even after purging, \
                and was refused (refused_other_bytes)
                """,
            ])
        let events = try read(out, "events.csv")
        #expect(events.contains("apple,1,240.000000,disk_change,,,,-900000000,,,,clamped 100000000\n"))
        #expect(events.contains("apple,1,420.000000,disk_change,,,,936000000,,,,refused 1064000000\n"))
    }

    @Test("bad input: one line FILE:LINE:COLUMN, exit 1, nothing written and the old report kept")
    func badInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try write(smallScenario, named: "small.scn", in: dir)
        let out = dir.appendingPathComponent("out")
        #expect(try CLI.run(["run", good, "--out", out.path]).status == 0)
        let before = try read(out, "summary.csv")
        let bad = try write(
            smallScenario.replacingOccurrences(of: "size: 64MB", with: "size: 64 gigs"), named: "bad.scn", in: dir)
        let result = try CLI.run(["run", bad, "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(bad):9:27: size must be a size, not '64 gigs'"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try read(out, "summary.csv") == before)
        let fresh = dir.appendingPathComponent("fresh")
        #expect(try CLI.run(["run", bad, "--out", fresh.path]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
    }

    @Test("two runs give byte-identical reports")
    func deterministic() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try write(smallScenario, named: "small.scn", in: dir)
        let a = dir.appendingPathComponent("a")
        let b = dir.appendingPathComponent("b")
        #expect(try CLI.run(["run", scenario, "--out", a.path]).status == 0)
        #expect(try CLI.run(["run", scenario, "--out", b.path, "--jobs", "1"]).status == 0)
        for file in ["summary.csv", "events.csv", "timeseries.csv"] {
            #expect(try read(a, file) == (try read(b, file)), "\(file) differs")
        }
    }

    @Test("events.csv streamed per run through part files equals the rows kept in memory, in plan order")
    func streamedEvents() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try write(smallScenario, named: "small.scn", in: dir)
        let out = dir.appendingPathComponent("out")
        let policies = ["apple", "lru", "largest-first"]
        let arguments =
            ["run", scenario, "--out", out.path, "--jobs", "2", "--replications", "2"]
            + policies.flatMap { ["--policy", $0] }
        #expect(try CLI.run(arguments).status == 0)
        // The same runs through the library, rows in memory.
        let parsed = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: scenario)
        let inMemory = try ExperimentRunner(
            scenario: parsed.scenario, policies: try PolicyRegistry.resolve(policies), replications: 2,
            sampleInterval: parsed.sampleInterval, jobs: 1
        ).run()
        let expected = RunRecorder.eventsHeader + inMemory.map(\.eventRows).joined()
        #expect(expected.split(separator: "\n").count > 10)
        #expect(try read(out, "events.csv") == expected)
        // No part file or temporary directory is left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == [
                    ".odr-sim-report", "apps.csv", "comparison-long.csv", "comparison.csv", "events.csv", "packs.csv",
                    "report.html",
                    "summary.csv", "timeseries.csv",
                ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["out", "small.scn"])
    }

    @Test("validate accepts the shipped scenarios and rejects a broken one")
    func validate() throws {
        for name in ["game", "photo-filters", "tvos-big-tags", "overpurge-stress"] {
            let result = try CLI.run(["validate", "scenarios/\(name).scn"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try write(
            smallScenario.replacingOccurrences(of: "duration: 1h", with: "duraton: 1h"), named: "bad.scn", in: dir)
        let result = try CLI.run(["validate", bad])
        #expect(result.status == 1)
        #expect(result.stderr == "\(bad):2:1: unknown top-level key 'duraton'; did you mean 'duration'?\n")
    }

    @Test("--help teaches with an example")
    func help() throws {
        for command in ["run", "validate", "compare", "check"] {
            let result = try CLI.run([command, "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("odr-sim \(command) scenarios/"), "\(command) --help has no example")
        }
    }
}
