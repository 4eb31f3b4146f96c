import Foundation
import Testing

/// Issue 29: a scenario whose app is never installed validated "ok" and ran with every
/// request failing, and no word of why; the same for other nonsense that runs.
@Suite("Nonsense that runs: warnings")
struct NeverInstalledTests {
    static let scenario = """
        duration: 1h
        device: {capacity: 1GB}
        apps:
          - id: game
            resources:
              - {name: a, size: 10MB, tags: [t]}
          - id: maps
            resources:
              - {name: b, size: 10MB, tags: [u]}
        events:
          - {at: 0, app: maps, install: true}
          - {at: 1m, app: game, request: [t], id: r1}

        """

    @Test("validate and run warn, naming the app; an installed app gets no warning", arguments: ["validate", "run"])
    func warned(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.scenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(
            [command, "s.scn"] + (command == "run" ? ["--out", "o", "--no-report"] : []), in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == """
                odr-sim: warning: s.scn: app 'game' is never installed (no {at: …, app: game, install: true} \
                event): every request of it fails with app-not-installed\n
                """
        )
    }

    @Test("a pack under 1 KiB is warned of: a size written without its unit is bytes (issue 39)")
    func tinyPack() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // `size: 45` is 45 bytes; 1023 bytes is under 1 KiB too; 1024 and 10MB are not.
        let text = Self.scenario.replacingOccurrences(
            of: "{name: a, size: 10MB, tags: [t]}",
            with:
                """
                {name: a, size: 45, tags: [t]}\n      - {name: a2, size: 1023, tags: [t2]}\n      - {name: a3, size: \
                1024, tags: [t3]}
                """
        )
        .replacingOccurrences(
            of: "  - {at: 1m, app: game, request: [t], id: r1}", with: "  - {at: 0, app: game, install: true}")
        try Data(text.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(["validate", "s.scn"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == """
                odr-sim: warning: s.scn: pack 't' of app 'game' is 45 bytes (a size without a unit is bytes); did \
                you mean 45MB? (and 1 more pack under 1 KiB)\n
                """,
            "\(result.stderr)")
    }

    @Test("an app that asks for content but is never launched, and a generator that makes nothing, are warned of")
    func neverLaunched() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = """
            duration: 1h
            device: {capacity: 1GB}
            apps:
              - id: game
                resources:
                  - {name: a, size: 10MB, tags: [t]}
              - id: maps
                resources:
                  - {name: b, size: 10MB, tags: [u]}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: maps, install: true}
              - {at: 0, app: maps, launch: true}
              - {at: 1m, app: game, request: [t], id: r1}
              - {at: 2m, app: maps, request: [u], id: r2}
            workload:
              - {kind: disk, rate: 0/d, size: {median: 10MB, sigma: 1}}

            """
        try Data(text.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(["validate", "s.scn"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == """
                odr-sim: warning: s.scn: app 'game' makes requests but is never launched (no {at: …, app: game, \
                launch: true} event, no sessions generator); a real app asks for content only while it runs
                odr-sim: warning: s.scn: workload generator 1 (disk) makes no event over the run (a rate of 0, or a \
                start past the run's end?)

                """)
        // Levels that start after the run's end make nothing either.
        let late = text.replacingOccurrences(
            of: "  - {kind: disk, rate: 0/d, size: {median: 10MB, sigma: 1}}",
            with: "  - {kind: levels, app: maps, rate: 1/d, start: 30d}")
        try Data(late.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let lateResult = try CLI.run(["validate", "s.scn"], in: dir)
        #expect(
            lateResult.stderr.contains(
                """
                workload generator 1 (levels) makes no event over the run (a rate of 0, or a start past the run's \
                end?)
                """
            ),
            "\(lateResult.stderr)")
        // A sessions generator launches the app: no warning of it then.
        let sessions = text.replacingOccurrences(
            of: "  - {kind: disk, rate: 0/d, size: {median: 10MB, sigma: 1}}",
            with: "  - {kind: sessions, app: game, rate: 3/d, length: {median: 20m, sigma: 0.5}}")
        try Data(sessions.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let quiet = try CLI.run(["validate", "s.scn"], in: dir)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test("compare names the metrics no policy moved, with why for low-disk warnings")
    func identicalMetrics() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // smallScenario: one pack, never more than one candidate; every policy purges the
        // same and posts no warning, so every main metric is the same under each.
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(
            ["compare", "s.scn", "--policy", "lru", "--policy", "fifo", "--no-report", "--out", "o"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                """
                odr-sim: note: identical under every policy in every replication: redownload_bytes, \
                over_purge_bytes, low_disk_notifications, failed_requests, wait_p95_s (a low-disk warning is \
                posted only when
                """
            ), "\(result.stderr)")
        // One policy: nothing to compare, no note.
        let one = try CLI.run(["compare", "s.scn", "--policy", "lru", "--no-report", "--out", "o"], in: dir)
        #expect(!one.stderr.contains("identical"), "\(one.stderr)")
    }
}
