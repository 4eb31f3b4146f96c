import Foundation
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

@testable import Live

/// Issue 56, restart safety: a live run killed with SIGKILL in the middle of a download, run
/// again on the same folder, adopts what is complete, resumes what is partial from its
/// length, and fetches no byte twice (beyond what was in flight); the folder's files that
/// odr-sim did not write are never touched.
@Suite("odr-sim live, killed and run again", .serialized)
struct LiveRestartTests {
    static let mib: Int64 = 1 << 20

    /// One request of a 4 MiB and an 8 MiB pack at once, over a 16 Mbps link.
    static let scenario = """
        name: restart
        seed: 1
        duration: 1h
        platform: ios17
        policies: [lru]
        device: {capacity: 1GiB, used: 0}
        network: [{at: 0, bandwidth: 16Mbps, kind: wifi}]
        apps:
          - id: game
            resources:
              - {name: small, size: 4MiB, tags: [small]}
              - {name: big, size: 8MiB, tags: [big]}
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: game, launch: true}
          - {at: 0, app: game, request: [small, big], id: r, priority: urgent}
          - {at: 30m, app: game, end: r}

        """

    static func server(_ file: String, rate: Double) throws -> PackServer {
        let parsed = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: file)
        return try PackServer(packs: ServedPacks(parsed.scenario), port: 0, rate: rate)
    }

    static func size(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? -1
    }

    @Test("SIGKILL mid-download, then again: the complete pack adopted, the partial one resumed, no byte sent twice")
    func killedAndResumed() throws {
        let work = try LiveHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.path + "/restart.scn"
        try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)
        // 2 MiB a second for both transfers together: small ends after 4 s (8 MiB sent), big at 6 s.
        let server = try Self.server(file, rate: 2 * Double(Self.mib))
        defer { server.stop() }
        let folder = work.path + "/packs"
        let arguments = [
            "live", file, "--server", server.url, "--folder", folder, "--policy", "lru", "--no-report",
        ]
        let first = Process()
        first.executableURL = LiveHarness.binary("odr-sim-live")
        first.arguments = arguments + ["--out", work.path + "/first"]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        // Killed once big's part file holds 5 MiB (small is whole by then).
        let deadline = Date().addingTimeInterval(60)
        while Self.size(folder + "/game/big.part") < 5 * Self.mib && Date() < deadline && first.isRunning {
            usleep(20_000)
        }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == .uncaughtSignal)
        let partial = Self.size(folder + "/game/big.part")
        #expect(Self.size(folder + "/game/small") == 4 * Self.mib)
        #expect(partial >= 5 * Self.mib && partial < 8 * Self.mib)
        let manifest = try String(contentsOfFile: folder + "/odr-sim-live.manifest", encoding: .utf8)
        #expect(manifest.contains("pack complete game small 1 4194304 %22odr64-"))
        #expect(manifest.contains("pack part game big 1 8388608 %22odr64-"))
        // What the server wrote before it saw the connection go (a write under way ends first).
        usleep(300_000)
        let servedBefore = server.stats.bytesServed(app: "game", pack: "big")

        let second = try LiveHarness.run(
            LiveHarness.binary("odr-sim-live"), arguments + ["--out", work.path + "/second"])
        #expect(second.status == 0, "\(second.stderr)")
        // Both whole, with their content's digests.
        for (pack, size) in [("small", 4 * Self.mib), ("big", 8 * Self.mib)] {
            let path = folder + "/game/" + pack
            #expect(Self.size(path) == size)
            #expect(
                try PackFolder.digest(of: path)
                    == PackContent(app: "game", pack: pack, version: 1, size: size).digest)
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/game/big.part"))
        // small was never fetched again; big only from where its part file ended, give or take
        // what was in flight when the first run died (a chunk or two of the server's 64 KiB).
        #expect(server.stats.bytesServed(app: "game", pack: "small") == 4 * Self.mib)
        let big = server.stats.bytesServed(app: "game", pack: "big")
        #expect(big >= 8 * Self.mib && big <= 8 * Self.mib + 2 * Int64(PackRequestHandler.chunkSize), "\(big)")
        #expect(big - servedBefore == 8 * Self.mib - partial, "the second run asked for exactly what was missing")
        // The device of the second run downloaded both (from the disk and the server alike).
        let summary = try LiveHarness.rows(work.path + "/second/summary.csv")[0]
        #expect(summary["downloads"] == "2" && summary["downloaded_bytes"] == String(12 * Self.mib))
    }

    @Test(
        "A disk filled by someone else mid-download (ENOSPC): the request fails out of space, their file untouched",
        .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func diskFilledUnderneath() throws {
        let work = try LiveHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.path + "/full.scn"
        // 64 MiB with 32 used; one 16 MiB pack, requested at once.
        try """
        name: full
        duration: 1h
        platform: ios17
        device: {capacity: 64MiB, used: 32MiB}
        apps:
          - id: game
            resources: [{name: big, size: 16MiB, tags: [big]}]
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: game, launch: true}
          - {at: 0, app: game, request: [big], id: r, priority: urgent}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let disk = try LiveHarness.SizedFolder(bytes: 32 * Self.mib + 8192)
        defer { disk.stop() }
        #expect(disk.isSized)
        let server = try Self.server(file, rate: 2 * Double(Self.mib))
        defer { server.stop() }
        let live = Process()
        live.executableURL = LiveHarness.binary("odr-sim-live")
        live.arguments = [
            "live", file, "--server", server.url, "--folder", disk.path + "/packs", "--out", work.path + "/out",
            "--no-report",
        ]
        live.standardOutput = FileHandle.nullDevice
        live.standardError = FileHandle.nullDevice
        try live.run()
        let deadline = Date().addingTimeInterval(60)
        while Self.size(disk.path + "/packs/game/big.part") < 2 * Self.mib && Date() < deadline { usleep(20_000) }
        // Someone else's 31 MiB: more than is left, so theirs fills the disk and ours hits ENOSPC.
        let theirs = FileManager.default.createFile(atPath: disk.path + "/video.mov", contents: nil)
        #expect(theirs)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: disk.path + "/video.mov"))
        let block = Data(repeating: 1, count: 1 << 20)
        var written = 0
        for _ in 0..<31 {
            do { try handle.write(contentsOf: block) } catch { break }
            written += 1
        }
        try? handle.close()
        let kept = Self.size(disk.path + "/video.mov")
        live.waitUntilExit()
        #expect(live.terminationStatus == 0)
        let summary = try LiveHarness.rows(work.path + "/out/summary.csv")[0]
        #expect(summary["failed_requests"] == "1" && summary["failed_out_of_space"] == "1", "\(summary)")
        // The download began and never finished: some of its bytes came, not all.
        let bytes = Int64(summary["downloaded_bytes"] ?? "") ?? -1
        #expect(summary["downloads"] == "0" && bytes > 0 && bytes < 16 * Self.mib, "\(summary)")
        #expect(Self.size(disk.path + "/video.mov") == kept && kept >= Int64(written - 1) * Self.mib)
    }

    @Test("A file odr-sim did not write, at a pack's name or beside the packs, is never touched")
    func foreignFiles() throws {
        let work = try LiveHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.path + "/restart.scn"
        try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)
        let server = try Self.server(file, rate: 64 * Double(Self.mib))
        defer { server.stop() }
        let folder = work.path + "/packs"
        try FileManager.default.createDirectory(atPath: folder + "/game", withIntermediateDirectories: true)
        try "mine".write(toFile: folder + "/game/big", atomically: true, encoding: .utf8)
        try "notes".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let arguments = ["live", file, "--server", server.url, "--folder", folder, "--no-report"]
        let refused = try LiveHarness.run(LiveHarness.binary("odr-sim-live"), arguments + ["--out", work.path + "/a"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("game/big is there and odr-sim did not write it"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: folder + "/game/big", encoding: .utf8) == "mine")
        #expect(server.stats.bytesServed == 0)

        try FileManager.default.removeItem(atPath: folder + "/game/big")
        let ran = try LiveHarness.run(LiveHarness.binary("odr-sim-live"), arguments + ["--out", work.path + "/b"])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "notes")
        // The app folder was the user's: it stays, with the packs in it.
        #expect(Self.size(folder + "/game/big") == 8 * Self.mib)
    }

    @Test("--server must be this machine, and odr-sim serve binds to loopback unless told")
    func loopbackOnly() throws {
        let refused = try LiveHarness.run(
            LiveHarness.binary("odr-sim-live"),
            ["live", "Scenarios/live/rehearsal.scn", "--server", "http://192.0.2.7:8437", "--folder", "/tmp/never"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("is not this machine"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never"))
        let server = try PackServer(packs: ServedPacks(Self.scenarioValue()), port: 0)
        #expect(server.host == "127.0.0.1" && server.url.hasPrefix("http://127.0.0.1:"))
        // Once it has stopped, nothing listens there: one line, before any folder is made.
        let url = server.url
        server.stop()
        let folder = try LiveHarness.temporaryDirectory().path + "/packs"
        let nobody = try LiveHarness.run(
            LiveHarness.binary("odr-sim-live"),
            ["live", "Scenarios/live/rehearsal.scn", "--server", url, "--folder", folder])
        #expect(nobody.status == 1 && nobody.stderr.contains("nothing listens there"), "\(nobody.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        let slow = try LiveHarness.run(
            LiveHarness.binary("odr-sim-live"),
            ["live", "Scenarios/live/rehearsal.scn", "--server", url, "--folder", folder, "--speed", "0"])
        #expect(slow.status == 64 && slow.stderr.contains("--speed must be between 0.001 and 1000000"))
    }

    static func scenarioValue() throws -> Scenario {
        try ScenarioParser(knownPolicies: PolicyRegistry.names).parse(scenario, fileName: "restart.scn").scenario
    }
}
