import Foundation
import ODRPolicies
import ScenarioFile
import Testing

@testable import Live

/// Issue 56: `odr-sim live` and `odr-sim run` agree on scenarios whose events do not race:
/// the same downloads, bytes, purges, hits and failures, every number computed by hand
/// below, and times within the clock's resolution; the folder ends holding exactly the
/// stored packs, and the server sent exactly the bytes the device downloaded.
///
/// The packs of both scenarios (A = level-1 4 MiB, B = level-2 6, C = level-3 5, D = level-4
/// 7, E = level-5 6, F = forest 8, G = desert 9) come level after level, each request
/// ended before the next: l1 = A+F, l2 = B+F, l3 = C+G, l4 = D+G, l5 = E+F, l1b = A+F; then
/// (rehearsal only) l5b = E+F at 56m, and l2b = B at 59m, after the link went at 58m.
/// Under LRU, a pack's last use is its request's end; packs ended together go in request
/// order (B before F, C before G, D before G).
@Suite("odr-sim live against odr-sim run", .serialized)
struct LiveAgreementTests {
    /// Virtual seconds a real one: a 40 Mbps link is 50 MB/s on the loopback.
    static let speed = 10.0
    /// How far a live time may be from run's: 0.2 s of real time at `speed` (a debug build's
    /// loop, connection and digest check per download).
    static let tolerance = 0.2 * speed

    struct Runs {
        let run: [String: String]
        let live: [String: String]
        let runEvents: [[String: String]]
        let liveEvents: [[String: String]]
        let bytesServed: Int64
        let folder: [String: Int64]
    }

    /// `odr-sim run` and `odr-sim live` of `scenario` under LRU, live into `folder` (made
    /// beforehand by `prepare`) from a server paced to the scenario's 40 Mbps × `speed`.
    static func both(_ scenario: String, folder: String) throws -> Runs {
        let out = try LiveHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let parsed = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: scenario)
        let server = try PackServer(packs: ServedPacks(parsed.scenario), port: 0, rate: 40e6 / 8 * speed)
        defer { server.stop() }
        let run = try LiveHarness.run(
            LiveHarness.binary("odr-sim"),
            ["run", scenario, "--policy", "lru", "--out", out.path + "/run", "--no-report"])
        #expect(run.status == 0, "\(run.stderr)")
        let live = try LiveHarness.run(
            LiveHarness.binary("odr-sim-live"),
            [
                "live", scenario, "--server", server.url, "--folder", folder, "--speed", String(speed), "--policy",
                "lru", "--out", out.path + "/live", "--no-report",
            ])
        #expect(live.status == 0, "\(live.stderr)")
        var files: [String: Int64] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            if attributes[.type] as? FileAttributeType == .typeRegular {
                files[name] = (attributes[.size] as? NSNumber)?.int64Value
            }
        }
        return Runs(
            run: try LiveHarness.rows(out.path + "/run/summary.csv")[0],
            live: try LiveHarness.rows(out.path + "/live/summary.csv")[0],
            runEvents: try LiveHarness.rows(out.path + "/run/events.csv"),
            liveEvents: try LiveHarness.rows(out.path + "/live/events.csv"),
            bytesServed: server.stats.bytesServed, folder: files)
    }

    /// Every column of the two summaries the same, times within ``tolerance``; every event
    /// the same, in the same order, its time within it too.
    static func agree(_ runs: Runs) {
        for (column, value) in runs.run {
            let other = runs.live[column] ?? "missing"
            if column.hasSuffix("_s") || column.hasSuffix("_seconds") {
                #expect(
                    abs((Double(value) ?? 0) - (Double(other) ?? .infinity)) <= tolerance,
                    "\(column): \(value) against \(other)")
            } else {
                #expect(value == other, "\(column): run \(value), live \(other)")
            }
        }
        #expect(runs.runEvents.count == runs.liveEvents.count)
        for (a, b) in zip(runs.runEvents, runs.liveEvents) {
            for column in [
                "policy", "replication", "event", "app", "request", "pack", "bytes", "needed_bytes", "purged_bytes",
                "detail",
            ] {
                #expect(a[column] == b[column], "\(column): \(a) against \(b)")
            }
            for column in ["time_s", "wait_s"] where !(a[column] ?? "").isEmpty {
                #expect(
                    abs(Double(a[column]!)! - (Double(b[column] ?? "") ?? .infinity)) <= tolerance,
                    "\(column): \(a) against \(b)")
            }
        }
    }

    static let mib: Int64 = 1 << 20

    @Test("A nearly full disk (a tmpfs of the device's free space as root): purges, re-downloads, over-purge")
    func fullDisk() throws {
        // 96 MiB with 64 MiB used: 32 MiB for packs, 8 KiB more for the manifest and its
        // rewrite (docs/live.md).
        let folder = try LiveHarness.SizedFolder(bytes: 32 * Self.mib + 8192)
        defer { folder.stop() }
        let runs = try Self.both(
            LiveHarness.repository.path + "/Scenarios/live/rehearsal.scn", folder: folder.path + "/packs")
        Self.agree(runs)
        // By hand: l1 A+F (12 MiB used), l2 B (18), l3 C+G (32: full). l4 D needs 7, 0 free:
        // purge A 4, B 6 (over 3). l5 E needs 6, 3 free: purge C 5 (over 2). l1b A again (a
        // re-download) needs 4, 2 free: purge D 7 (over 5).
        let live = runs.live
        #expect(live["downloads"] == "8")
        #expect(live["downloaded_bytes"] == String((4 + 8 + 6 + 5 + 9 + 7 + 6 + 4) * Self.mib))
        #expect(live["redownload_bytes"] == String(4 * Self.mib))
        #expect(live["purges"] == "4" && live["purge_episodes"] == "3")
        #expect(live["purged_bytes"] == String((4 + 6 + 5 + 7) * Self.mib))
        #expect(live["over_purge_bytes"] == String((3 + 2 + 5) * Self.mib))
        // At 56m level-5 (E and F) is all on the disk: a hit. At 59m, offline since 58m, level-2
        // (B, purged at l4) cannot come: a failure for the network.
        #expect(live["requests"] == "8" && live["hits"] == "1")
        #expect(live["failed_requests"] == "1" && live["failed_no_network"] == "1")
        // The folder holds what the device stores: A, F, G and E whole, nothing partial.
        #expect(runs.folder["odr-sim-live.manifest"] != nil)
        #expect(
            runs.folder.filter { $0.key != "odr-sim-live.manifest" } == [
                "game/level-1": 4 * Self.mib, "game/level-1%2Blevel-2%2Blevel-5": 8 * Self.mib,
                "game/level-3%2Blevel-4": 9 * Self.mib, "game/level-5": 6 * Self.mib,
            ])
        #expect(runs.bytesServed == Int64(live["downloaded_bytes"]!)!)
    }

    @Test(
        "Someone else's file on the tmpfs is the device's other data: more purges, the file untouched",
        .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func foreignData() throws {
        let folder = try LiveHarness.SizedFolder(bytes: 32 * Self.mib + 8192)
        defer { folder.stop() }
        #expect(folder.isSized)
        // 8 MiB and a page: with the manifest's page, exactly 8 MiB more than the slack.
        let foreign = [UInt8](repeating: 7, count: Int(8 * Self.mib) + 4096)
        try Data(foreign).write(to: URL(fileURLWithPath: folder.path + "/photos.bin"))
        let out = try LiveHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let scenario = LiveHarness.repository.path + "/Scenarios/live/rehearsal.scn"
        let parsed = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: scenario)
        let server = try PackServer(packs: ServedPacks(parsed.scenario), port: 0, rate: 40e6 / 8 * Self.speed)
        defer { server.stop() }
        let live = try LiveHarness.run(
            LiveHarness.binary("odr-sim-live"),
            [
                "live", scenario, "--server", server.url, "--folder", folder.path + "/packs", "--speed",
                String(Self.speed), "--policy", "lru", "--out", out.path, "--no-report",
            ])
        #expect(live.status == 0, "\(live.stderr)")
        let summary = try LiveHarness.rows(out.path + "/summary.csv")[0]
        // By hand, with 24 MiB for packs: l1 A+F (12), l2 B (18). l3 C+G needs 14, 6 free: purge
        // A, B (over 2). l4 D needs 7, 2 free: purge F (over 3). l5 E+F again needs 14, 3 free:
        // purge C, D (over 1). l1b A again needs 4, 1 free: purge G (over 6). As `run` with
        // `used: 72MiB` has it.
        #expect(summary["downloads"] == "9")
        #expect(summary["downloaded_bytes"] == String(57 * Self.mib))
        #expect(summary["redownload_bytes"] == String((8 + 4) * Self.mib))
        #expect(summary["purges"] == "6" && summary["purge_episodes"] == "4")
        #expect(summary["purged_bytes"] == String((4 + 6 + 8 + 5 + 7 + 9) * Self.mib))
        #expect(summary["over_purge_bytes"] == String((2 + 3 + 1 + 6) * Self.mib))
        // E and F resident at 56m (a hit), B not at 59m, offline (a failure), as with 24 MiB.
        #expect(summary["hits"] == "1" && summary["failed_no_network"] == "1")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/photos.bin")) == Data(foreign))
    }

    @Test("An app's budget (Background Assets): its own code removes packs before each download that passes it")
    func budget() throws {
        let folder = try LiveHarness.SizedFolder(bytes: 960 * Self.mib + 8192)
        defer { folder.stop() }
        let runs = try Self.both(LiveHarness.fixture("budget.scn"), folder: folder.path + "/packs")
        Self.agree(runs)
        // By hand, within 20 MiB: l1 A+F (12), l2 B (18). l3 C+G would make 32: remove A, B, F
        // (18, over 6). l4 D would make 21: remove C (5, over 4). l5 E+F (F again) would make
        // 30: remove D, G (16, over 6). l1b A again: 18.
        let live = runs.live
        #expect(live["downloads"] == "9")
        #expect(live["downloaded_bytes"] == String((4 + 8 + 6 + 5 + 9 + 7 + 6 + 8 + 4) * Self.mib))
        #expect(live["redownload_bytes"] == String((8 + 4) * Self.mib))
        #expect(live["purges"] == "6" && live["purge_episodes"] == "3")
        #expect(live["purged_bytes"] == String((4 + 6 + 8 + 5 + 7 + 9) * Self.mib))
        #expect(live["over_purge_bytes"] == String((6 + 4 + 6) * Self.mib))
        let packs = runs.folder.filter { $0.key != "odr-sim-live.manifest" }
        #expect(
            packs == [
                "game/level-1": 4 * Self.mib, "game/level-1%2Blevel-2%2Blevel-5": 8 * Self.mib,
                "game/level-5": 6 * Self.mib,
            ])
        #expect(runs.bytesServed == Int64(live["downloaded_bytes"]!)!)
    }
}
