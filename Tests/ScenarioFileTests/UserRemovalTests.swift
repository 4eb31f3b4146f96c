import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

/// Issue 54: the user removes an app's content: iOS's "Offload App", Android's "Clear
/// storage". Every expected number is worked out by hand in the test (8 Mbps = 1 MB/s).
@Suite("Offload and clear storage")
struct UserRemovalTests {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let MB: Int64 = 1_000_000

    func run(_ text: String) throws -> (ODRDevice, [Double]) { try FaultTests().run(text) }

    @Test(
        """
        Android's Clear storage removes the fast-follow and on-demand packs, not install-time; they come back as \
        re-downloads
        """
    )
    func clearStorage() throws {
        // Install at 0: `it` (30 MB, install-time) 0–30 s, then the fast-follow `ff` (50 MB)
        // 30–80 s. r1 fetches `a` (100 MB) 100–200 s and ends at 250 s. Clear storage at 300 s
        // removes a and ff (150 MB) and stops the app; `it` stays. r2 at 320 s fetches a again
        // (100 MB of re-download), 320–420 s; ff is not fetched again by itself.
        let (device, grants) = try run(
            """
            duration: 1h
            platform: play-asset-delivery
            device: {capacity: 10GB}
            network: [{at: 0, bandwidth: 8Mbps, kind: wifi}]
            apps:
              - id: game
                resources:
                  - {name: it, size: 30MB, tags: [it]}
                  - {name: ff, size: 50MB, tags: [ff]}
                  - {name: a, size: 100MB, tags: [a]}
                tags:
                  it: {category: install-time}
                  ff: {category: fast-follow}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, launch: true}
              - {at: 100, app: game, request: [a], id: r1}
              - {at: 250, app: game, end: r1}
              - {at: 300, app: game, clear-storage: true}
              - {at: 310, app: game, launch: true}
              - {at: 320, app: game, request: [a], id: r2}
            """)
        #expect(grants == [200, 420])
        #expect(device.ledger.clearedBytes == 150 * Self.MB && device.ledger.purges == 0)
        #expect(device.ledger.redownloadBytes == 100 * Self.MB)
        #expect(device.ledger.downloadedBytes == (30 + 50 + 100 + 100) * Self.MB)
        let app = AppID(rawValue: 0)
        #expect(device.state(of: device.pack(0, of: app)) == .downloaded)
        #expect(device.state(of: device.pack(1, of: app)) == .purged)
    }

    @Test("iOS's Offload App removes the app with its packs; the reinstall's downloads are re-downloads")
    func offload() throws {
        // Install at 0: `i` (40 MB, initial-install) 0–40 s. r1 fetches `a` (60 MB) 50–110 s and
        // ends at 120 s. Offload at 200 s: 100 MB removed. The reinstall at 300 s fetches i
        // again, 300–340 s; r2 at 400 s fetches a again, 400–460 s: 100 MB of re-downloads.
        let (device, grants) = try run(
            """
            duration: 1h
            device: {capacity: 10GB}
            network: [{at: 0, bandwidth: 8Mbps, kind: wifi}]
            apps:
              - id: game
                resources:
                  - {name: i, size: 40MB, tags: [i]}
                  - {name: a, size: 60MB, tags: [a]}
                tags:
                  i: {category: initial-install}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, launch: true}
              - {at: 50, app: game, request: [a], id: r1}
              - {at: 120, app: game, end: r1}
              - {at: 200, app: game, offload: true}
              - {at: 300, app: game, install: true}
              - {at: 300, app: game, launch: true}
              - {at: 400, app: game, request: [a], id: r2}
            """)
        #expect(grants == [110, 460])
        #expect(device.ledger.clearedBytes == 100 * Self.MB && device.ledger.removedBytes == 100 * Self.MB)
        #expect(device.ledger.redownloadBytes == 100 * Self.MB)
        #expect(device.ledger.downloadedBytes == 200 * Self.MB)
    }

    @Test("each is the other platform's error")
    func refused() throws {
        func parse(_ platform: String, _ verb: String) throws {
            _ = try ScenarioParser(knownPolicies: ["lru"]).parse(
                """
                duration: 1h
                platform: \(platform)
                device: {capacity: 10GB}
                apps:
                  - id: game
                    resources: [{name: a, size: 1MB, tags: [a]}]
                events:
                  - {at: 0, app: game, install: true}
                  - {at: 1, app: game, \(verb): true}
                """, fileName: "u.scn")
        }
        #expect { try parse("play-asset-delivery", "offload") } throws: {
            "\($0)".contains("u.scn:9:33: offload is iOS's")
        }
        #expect { try parse("ios17", "clear-storage") } throws: { "\($0)".contains("clear-storage is Android's") }
        try parse("background-assets", "offload")
    }
}
