import Foundation
import Testing

/// Issue 25: where the app removes its packs, an app may run an eviction strategy of its own
/// (`apps[].strategy`); the other apps follow the run's policy.
@Suite("Each app's own strategy")
struct OwnStrategyTests {
    /// A 200 MB budget and three 100 MB packs, asked for a1, a2, a1 again, then a3: the third
    /// pack needs one of the others out. LRU removes a2 (used at 3 min; a1 again at 5 min);
    /// FIFO removes a1 (stored first, at 1 min).
    static func scenario(strategy: String?) -> String {
        """
        duration: 1h
        platform: background-assets
        policies: [lru]
        device: {capacity: 10GB}
        network: [{at: 0, bandwidth: 40Mbps, kind: wifi}]
        apps:
          - id: game
            budget: 200MB
        \(strategy.map { "    strategy: \($0)\n" } ?? "")    resources:
              - {name: a1, size: 100MB, tags: [a1]}
              - {name: a2, size: 100MB, tags: [a2]}
              - {name: a3, size: 100MB, tags: [a3]}
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: game, launch: true}
          - {at: 1m, app: game, request: [a1], id: r1}
          - {at: 2m, app: game, end: r1}
          - {at: 3m, app: game, request: [a2], id: r2}
          - {at: 4m, app: game, end: r2}
          - {at: 5m, app: game, request: [a1], id: r3}
          - {at: 6m, app: game, end: r3}
          - {at: 7m, app: game, request: [a3], id: r4}

        """
    }

    /// The first row of summary.csv of `run` on scenario `text` (one policy, one replication), by column.
    static func summaryRow(_ text: String) throws -> [String: String] {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(text.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(["run", "s.scn", "--no-report", "--out", "o"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: dir.appendingPathComponent("o/summary.csv"), encoding: .utf8).split(
            separator: "\n")
        return Dictionary(
            uniqueKeysWithValues: zip(
                lines[0].split(separator: ",").map(String.init), lines[1].split(separator: ",").map(String.init)))
    }

    /// The packs the run removed, in order (events.csv's purge rows).
    func purged(_ text: String) throws -> (status: Int32, stderr: String, packs: [String]) {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(text.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(["run", "s.scn", "--no-report", "--out", "o"], in: dir)
        guard result.status == 0 else { return (result.status, result.stderr, []) }
        let rows = try String(contentsOf: dir.appendingPathComponent("o/events.csv"), encoding: .utf8).split(
            separator: "\n")
        return (
            0, result.stderr,
            rows.filter { $0.contains(",purge,") }.map {
                String($0.split(separator: ",", omittingEmptySubsequences: false)[6])
            }
        )
    }

    @Test("keep: the packs of the tags an app keeps are never its strategy's victims (issue 39)")
    func kept() throws {
        // a1 and a2 fill the 200 MB budget; a1 is used again at 5m, so lru's victim for a3
        // would be a2. Kept, a2 stays and a1 goes; with both kept nothing is removable, and
        // a3 downloads over the budget (the disk has room).
        func keeping(_ tags: String) -> String {
            Self.scenario(strategy: nil).replacingOccurrences(
                of: "    budget: 200MB\n", with: "    budget: 200MB\n    keep: \(tags)\n")
        }
        #expect(try purged(keeping("[a2]")).packs == ["a1"])
        #expect(try purged(keeping("[a1, a2]")).packs == [])
        // An unknown tag, and keep where the system purges: located errors.
        let unknown = try purged(keeping("[a9]"))
        #expect(
            unknown.status == 1 && unknown.stderr.hasPrefix("s.scn:9:12: app 'game' has no tag 'a9' to keep"),
            "\(unknown.stderr)")
        let odr = try purged(
            keeping("[a2]").replacingOccurrences(of: "platform: background-assets", with: "platform: ios18")
                .replacingOccurrences(of: "    budget: 200MB\n", with: ""))
        #expect(
            odr.status == 1 && odr.stderr.contains("keep applies where the app removes its own packs"), "\(odr.stderr)")
    }

    @Test(
        """
        Play's app update makes the downloaded on-demand pack invalid: fetched again as an update; Background Assets \
        keeps it (issue 38)
        """
    )
    func playAppUpdate() throws {
        // a1 (100 MB, on-demand) is downloaded at 1 min; the app updates at 3 min; a1 is asked
        // for again at 5 min. On Play ("Update asset packs"): invalid since the update until its
        // patch (the full size, the preset's) downloads with the update, one pack update of
        // 100 MB, not a re-download.
        // On Background Assets packs change apart from the app: a1 stays, one download in all.
        func summary(_ platform: String) throws -> [String: String] {
            let text = """
                duration: 1h
                platform: \(platform)
                policies: [lru]
                device: {capacity: 10GB}
                network: [{at: 0, bandwidth: 40Mbps, kind: wifi}]
                apps:
                  - id: game
                    resources:
                      - {name: a1, size: 100MB, tags: [a1]}
                events:
                  - {at: 0, app: game, install: true}
                  - {at: 0, app: game, launch: true}
                  - {at: 1m, app: game, request: [a1], id: r1}
                  - {at: 2m, app: game, end: r1}
                  - {at: 3m, app: game, app-update: true}
                  - {at: 4m, app: game, launch: true}
                  - {at: 5m, app: game, request: [a1], id: r2}

                """
            return try Self.summaryRow(text)
        }
        let play = try summary("play-asset-delivery")
        #expect(
            play["downloads"] == "2" && play["pack_updates"] == "1" && play["update_bytes"] == "100000000"
                && play["redownload_bytes"] == "0", "\(play)")
        let ba = try summary("background-assets")
        #expect(ba["downloads"] == "1" && ba["pack_updates"] == "0" && ba["update_bytes"] == "0", "\(ba)")
    }

    @Test(
        "a budget that cannot be met is counted, not silent (issue 38): 100 MB above it from 7 min to the end, 3,180 s")
    func budgetExceeded() throws {
        // Both a1 and a2 kept: 200 MB, the budget. At 7 min a3's download reserves 100 MB more,
        // and nothing is removable: 100 MB above the budget until the run ends at 60 min,
        // 53 min = 3,180 s. With a2 alone kept, a1 goes and the app stays within it: 0 and 0.
        func summary(_ tags: String) throws -> [String: String] {
            let text = Self.scenario(strategy: nil).replacingOccurrences(
                of: "    budget: 200MB\n", with: "    budget: 200MB\n    keep: \(tags)\n")
            return try Self.summaryRow(text)
        }
        let over = try summary("[a1, a2]")
        #expect(over["budget_exceeded_bytes"] == "100000000" && over["budget_exceeded_s"] == "3180.000000", "\(over)")
        let within = try summary("[a2]")
        #expect(within["budget_exceeded_bytes"] == "0" && within["budget_exceeded_s"] == "0.000000", "\(within)")
    }

    @Test("the budget clock stops when the app is uninstalled: above it from 1 to 30 min, 1,740 s, not 3,540 s")
    func budgetClockStopsAtUninstall() throws {
        // A 50 MB budget; a1 (100 MB, kept) reserves its bytes at 1 min: 50 MB above it. The app
        // is uninstalled at 30 min: 29 min = 1,740 s above it, not the 59 min to the run's end.
        // a1 is the app's last pack, so only a count after every pack has left stops the clock.
        let text = """
            duration: 1h
            platform: background-assets
            policies: [lru]
            device: {capacity: 10GB}
            network: [{at: 0, bandwidth: 40Mbps, kind: wifi}]
            apps:
              - id: game
                budget: 50MB
                keep: [a1]
                resources:
                  - {name: a2, size: 10MB, tags: [a2]}
                  - {name: a1, size: 100MB, tags: [a1]}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, launch: true}
              - {at: 1m, app: game, request: [a1], id: r1}
              - {at: 2m, app: game, end: r1}
              - {at: 30m, app: game, uninstall: true}

            """
        let row = try Self.summaryRow(text)
        #expect(row["budget_exceeded_bytes"] == "50000000" && row["budget_exceeded_s"] == "1740.000000", "\(row)")
    }

    @Test("compare says what the policies vary when an app's strategy is fixed: here nothing (issue 40)")
    func fixedStrategySaid() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.scenario(strategy: "fifo").utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(
            [
                "compare", "s.scn", "--policy", "lru", "--policy", "gdsf", "--replications", "2", "--no-report",
                "--out", "o",
            ], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                """
                Fixed in every run: the own strategy of game (fifo); the policies vary nothing: every app's eviction \
                is fixed.
                """
            ), "\(result.stdout)")
        try Data(Self.scenario(strategy: nil).utf8).write(to: dir.appendingPathComponent("t.scn"))
        let free = try CLI.run(
            [
                "compare", "t.scn", "--policy", "lru", "--policy", "gdsf", "--replications", "2", "--no-report",
                "--out", "p",
            ], in: dir)
        #expect(free.status == 0 && !free.stdout.contains("Fixed in every run"), "\(free.stdout)")
    }

    @Test("the run's lru removes a2; the app's own fifo removes a1")
    func ownStrategy() throws {
        #expect(try purged(Self.scenario(strategy: nil)).packs == ["a2"])
        #expect(try purged(Self.scenario(strategy: "fifo")).packs == ["a1"])
    }

    @Test("refused: a strategy on ODR (the system purges), an unknown one, one that reads the future")
    func refused() throws {
        let odr = try purged(
            Self.scenario(strategy: "fifo").replacingOccurrences(of: "platform: background-assets\n", with: "")
                .replacingOccurrences(of: "    budget: 200MB\n", with: ""))
        #expect(odr.status == 1)
        #expect(
            odr.stderr.hasPrefix("s.scn:7:15: strategy applies where the app removes its own packs"), "\(odr.stderr)")
        let unknown = try purged(Self.scenario(strategy: "fifp"))
        #expect(
            unknown.status == 1 && unknown.stderr.contains("unknown strategy 'fifp'; did you mean 'fifo'?"),
            "\(unknown.stderr)")
        let future = try purged(Self.scenario(strategy: "belady"))
        #expect(future.status == 1)
        // At the strategy's own place, as every other problem of the file (issue 42).
        #expect(
            future.stderr
                == """
                s.scn:9:15: strategy 'belady' reads the future; an app's own code cannot (run it as the run's \
                policy, a bound)\n
                """
        )
    }

    /// 1000 MB, 500 MB used; `a1` (200 MB, app `game`, its own fifo) and `b1` (100 MB, app
    /// `maps`, the run's lru) stored and let go; then photos grow by 400 MB with 200 MB free.
    static func pressure(_ platform: String) -> String {
        """
        duration: 1h
        platform: \(platform)
        policies: [lru]
        device: {capacity: 1000MB, used: 500MB}
        network: [{at: 0, bandwidth: 400Mbps, kind: wifi}]
        apps:
          - id: game
            strategy: fifo
            resources:
              - {name: a1, size: 200MB, tags: [a1]}
          - id: maps
            resources:
              - {name: b1, size: 100MB, tags: [b1]}
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: maps, install: true}
          - {at: 1m, app: game, request: [a1], id: r1}
          - {at: 1m, app: maps, request: [b1], id: r2}
          - {at: 2m, app: game, end: r1}
          - {at: 2m, app: maps, end: r2}
          - {at: 3m, disk: +400MB}

        """
    }

    @Test(
        """
        other data that does not fit: refused by default (no source says the system removes managed packs); with the \
        undocumented alternative the system removes packs of every app, each app's by its own strategy; on \
        Play the alternative is refused
        """
    )
    func systemRemoval() throws {
        // By default (issue 38) nothing is removed: 200 MB of the 400 MB fit, the rest is refused.
        let keeps = try purged(Self.pressure("background-assets"))
        #expect(keeps.status == 0 && keeps.packs.isEmpty, "\(keeps.stderr)")
        #expect(keeps.stderr.contains("200 MB did not fit"), "\(keeps.stderr)")
        // system_removes_for_other_data: true, 200 MB short: the run's lru offers b1 (100 MB,
        // the only pack it knows), then game's fifo a1; both go (300 MB freed for 200 needed).
        let removes = try purged(Self.pressure("{base: background-assets, system_removes_for_other_data: true}"))
        #expect(removes.status == 0, "\(removes.stderr)")
        #expect(removes.packs == ["b1", "a1"])
        // Play's packs are app files, which Android never clears: the alternative is refused there.
        let play = try purged(Self.pressure("{base: play-asset-delivery, system_removes_for_other_data: true}"))
        #expect(play.status == 1)
        #expect(play.stderr.hasPrefix("s.scn:2:"), "\(play.stderr)")
        #expect(play.stderr.contains("Android never clears"), "\(play.stderr)")
    }
}
