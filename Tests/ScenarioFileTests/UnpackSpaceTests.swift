import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

/// Issue 54: a download needs room beside the pack for its compressed form until it is
/// extracted (`platform: {unpack_space: SHARE}`). Worked out by hand (8 Mbps = 1 MB/s).
@Suite("Unpack space")
struct UnpackSpaceTests {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let MB: Int64 = 1_000_000

    func run(_ unpack: String) throws -> ODRDevice {
        let text = """
            duration: 1h
            platform: {base: ios17\(unpack.isEmpty ? "" : ", unpack_space: \(unpack)")}
            device: {capacity: 1GB, used: 700MB}
            network: [{at: 0, bandwidth: 8Mbps}]
            apps:
              - id: game
                resources: [{name: a, size: 200MB, tags: [a]}, {name: b, size: 100MB, tags: [b]}]
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, launch: true}
              - {at: 0, app: game, request: [a], id: r1}
              - {at: 250, app: game, end: r1}
              - {at: 300, app: game, request: [b], id: r2}
            """
        let scenario = try ScenarioParser(knownPolicies: ["lru"]).parse(text, fileName: "u.scn").scenario
        let simulator = Simulator(scenario: scenario, policy: LRUPolicy())
        simulator.run()
        return simulator.device
    }

    @Test("half the pack's size beside it while it downloads: a fits exactly, b then needs a's room")
    func halfBeside() throws {
        // 300 MB free. a (200 MB) needs 200 + 100 MB: it fits exactly, and the disk is full
        // (1,000 MB) while it downloads, 900 MB after. b (100 MB) at 300 s needs 150 MB with
        // 100 MB free, 50 MB short: a is purged (200 MB), an over-purge of 200 − 50 = 150 MB.
        let device = try run("50%")
        #expect(device.ledger.peakUsedBytes == 1_000 * Self.MB)
        #expect(device.ledger.purges == 1 && device.ledger.purgedBytes == 200 * Self.MB)
        #expect(device.ledger.overPurgeBytes == 150 * Self.MB)
        // Without it (the assumption's 0): b fits in the 100 MB left, nothing is purged.
        let plain = try run("")
        #expect(plain.ledger.purges == 0 && plain.ledger.peakUsedBytes == 1_000 * Self.MB)
        // A whole pack beside it (the alternative): a needs 400 MB of the 300 MB free, and
        // nothing can be purged for it: r1 fails out of space; b needs 200 MB of 300: fetched.
        let whole = try run("100%")
        #expect(whole.ledger.failures(.outOfSpace) == 1 && whole.ledger.downloadsFinished == 1)
        #expect(whole.ledger.peakUsedBytes == 900 * Self.MB)
    }
}
