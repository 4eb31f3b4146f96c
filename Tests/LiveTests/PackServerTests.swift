import Foundation
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

@testable import Live

/// `odr-sim serve`'s answers, read by a plain socket client, against the content computed
/// apart (``PackContent``).
@Suite("Pack server")
struct PackServerTests {
    static func scenario() throws -> Scenario {
        try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(
            atPath: LiveHarness.repository.path + "/Scenarios/live/rehearsal.scn"
        ).scenario
    }

    @Test("Whole packs, ranges, If-Range, HEAD, 404, 416 and /stats counting exactly the body bytes written")
    func answers() throws {
        let server = try PackServer(packs: ServedPacks(Self.scenario()), port: 0)
        defer { server.stop() }
        let content = PackContent(app: "game", pack: "level-1", version: 1, size: 4 << 20)
        let whole = try LiveHarness.get(port: server.port, "/packs/game/level-1/v1")
        #expect(whole.status == 200)
        #expect(whole.body == content.bytes())
        #expect(whole.headers["etag"] == PackDigest.etag(content.digest))
        #expect(whole.headers["accept-ranges"] == "bytes")

        let part = try LiveHarness.get(
            port: server.port, "/packs/game/level-1/v1", headers: ["Range": "bytes=1000-1999"])
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 1000-1999/4194304")
        #expect(part.body == content.bytes(from: 1000, count: 1000))

        let tagged = try LiveHarness.get(
            port: server.port, "/packs/game/level-1/v1",
            headers: ["Range": "bytes=4194000-", "If-Range": PackDigest.etag(content.digest)])
        #expect(tagged.status == 206 && tagged.body == content.bytes(from: 4_194_000))
        // Another version's tag: the whole pack, not a range of bytes that would not join.
        let stale = try LiveHarness.get(
            port: server.port, "/packs/game/level-1/v1", headers: ["Range": "bytes=0-9", "If-Range": "\"odr64-0\""])
        #expect(stale.status == 200 && stale.body.count == 4 << 20)

        let second = try LiveHarness.get(port: server.port, "/packs/game/level-1/v2", method: "HEAD")
        #expect(second.status == 200 && second.body.isEmpty)
        #expect(
            second.headers["etag"]
                == PackDigest.etag(PackContent(app: "game", pack: "level-1", version: 2, size: 4 << 20).digest))
        #expect(second.headers["content-length"] == "4194304")

        #expect(try LiveHarness.get(port: server.port, "/packs/game/no-such/v1").status == 404)
        #expect(try LiveHarness.get(port: server.port, "/packs/game/level-1/v1", method: "DELETE").status == 405)
        #expect(
            try LiveHarness.get(port: server.port, "/packs/game/level-1/v1", headers: ["Range": "bytes=5000000-"])
                .status == 416)

        let stats = try LiveHarness.get(port: server.port, "/stats")
        let json = try JSONSerialization.jsonObject(with: Data(stats.body)) as! [String: Any]
        // 4 MiB + 1,000 + 304 + 4 MiB: the three bodies sent (HEAD and errors send none).
        #expect(json["bytes_served"] as? Int == 2 * (4 << 20) + 1_000 + 304)
        #expect(server.stats.bytesServed == Int64(2 * (4 << 20) + 1_000 + 304))
        let packs = json["packs"] as! [[String: Any]]
        // Six requests of the pack: whole, range, tagged range, stale tag, HEAD, past the end
        // (the 404 names no pack; the 405 is refused before the pack is looked at).
        #expect(packs.count == 1 && packs[0]["pack"] as? String == "level-1" && packs[0]["requests"] as? Int == 6)
    }

    @Test("An unpaced pack of 4,096 chunks goes whole (each chunk through the event loop, not one frame deeper)")
    func unpacedLargePack() throws {
        let text = """
            name: large
            duration: 1h
            platform: unlimited
            device: {capacity: 1GiB, used: 0}
            apps:
              - id: app
                resources: [{name: big, size: 256MiB, tags: [big]}]
            events: []

            """
        let scenario = try ScenarioParser(knownPolicies: PolicyRegistry.names).parse(text, fileName: "l.scn").scenario
        let server = try PackServer(packs: ServedPacks(scenario), port: 0)
        defer { server.stop() }
        let response = try LiveHarness.get(port: server.port, "/packs/app/big/v1")
        #expect(response.status == 200 && response.body.count == 256 << 20)
        var digest = PackDigest()
        response.body.withUnsafeBytes { digest.add($0) }
        #expect(PackDigest.etag(digest.value) == response.headers["etag"])
    }

    @Test("A paced server takes the rate's time for a pack")
    func pacing() throws {
        // 2 MiB a second: 4 MiB takes 2 s (the first chunk goes at once: 2 s less 32 ms).
        let server = try PackServer(packs: ServedPacks(Self.scenario()), port: 0, rate: 2 * 1_048_576)
        defer { server.stop() }
        let start = Date()
        _ = try LiveHarness.get(port: server.port, "/packs/game/level-1/v1")
        let one = Date().timeIntervalSince(start)
        #expect(one > 1.9 && one < 3.0, "\(one) s")
    }
}
