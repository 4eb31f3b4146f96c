import Foundation
import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing
import Workload

/// Issue 54: downloads that fail and transfers that stall, per pack and per link, scripted and
/// generated. Every expected number is worked out by hand in the test.
@Suite("Download faults")
struct FaultTests {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let MB: Int64 = 1_000_000

    func run(_ text: String, resumes: Bool = true) throws -> (ODRDevice, [Double]) {
        var scenario = try ScenarioParser(knownPolicies: PolicyRegistry.names).parse(text, fileName: "f.scn").scenario
        scenario.modifyPlatforms { $0.resumesFailedDownloads = resumes }
        let grants = Grants()
        let simulator = Simulator(scenario: scenario, policy: LRUPolicy())
        simulator.run(observer: grants)
        return (simulator.device, grants.times)
    }

    final class Grants: SimulationObserver {
        var times: [Double] = []
        func simulator(_ simulator: Simulator, emitted event: ODREvent) {
            if case .requestGranted = event.kind { times.append(event.time) }
        }
    }

    func pack(_ device: ODRDevice, _ index: Int) -> PackID { device.pack(index, of: AppID(rawValue: 0)) }

    /// `Tests/Fixtures/scenarios/faults.scn` (8 Mbps = 1 MB/s; a and b are 100 MB each).
    static func scenario() throws -> String {
        try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/scenarios/faults.scn"),
            encoding: .utf8)
    }

    @Test("a pack's stall and failure, then the link's: bytes, failures and the resumed download by hand")
    func scripted() throws {
        // r1: 10 MB by 10 s, stalled to 30 s, 30 MB by 50 s when a fails: r1 fails, 30 MB kept.
        // r2 resumes a (70 MB left) and r3 starts b at 60 s, 0.5 MB/s each: 5 MB each by 70 s,
        // the link stalls to 80 s, 10 MB more each by 100 s, when both fail: a holds 45 MB,
        // b 15 MB. r4 at 200 s fetches a's last 55 MB alone: granted at 255 s.
        let (device, grants) = try run(try Self.scenario())
        #expect(grants == [255])
        #expect(device.ledger.downloadFailures == 3)
        #expect(device.ledger.failures(.downloadFailed) == 3 && device.ledger.failedRequests == 3)
        #expect(device.ledger.downloadedBytes == (30 + 15 + 15 + 55) * Self.MB)
        #expect(device.state(of: pack(device, 1)) == .partiallyDownloaded(bytes: 15 * Self.MB))
        // Discarded instead (the assumption's alternative): r2 starts a from 0 and has 15 MB
        // at 100 s, all lost; r4 fetches 100 MB from 200 s: granted at 300 s.
        let (discarded, later) = try run(try Self.scenario(), resumes: false)
        #expect(later == [300])
        #expect(discarded.ledger.downloadedBytes == (30 + 15 + 15 + 100) * Self.MB)
        #expect(discarded.state(of: pack(discarded, 1)) == .notDownloaded)
        // Discarding also takes an earlier partial download's bytes: r1 is cancelled at 20 s
        // (20 MB kept), r2 resumes at 30 s and fails at 40 s: nothing of a is left.
        let partial = """
            duration: 1h
            platform: {base: play-asset-delivery}
            device: {capacity: 10GB}
            network: [{at: 0, bandwidth: 8Mbps, kind: wifi}]
            apps:
              - id: game
                resources: [{name: a, size: 100MB, tags: [a]}]
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, request: [a], id: r1}
              - {at: 20, app: game, cancel: r1}
              - {at: 30, app: game, request: [a], id: r2}
              - {at: 40, app: game, fail-download: a}
            """
        let (kept, _) = try run(partial)
        #expect(kept.state(of: pack(kept, 0)) == .partiallyDownloaded(bytes: 30 * Self.MB))
        let (gone, _) = try run(partial, resumes: false)
        #expect(gone.state(of: pack(gone, 0)) == .notDownloaded && gone.odrBytes == 0)
        #expect(gone.checkInvariants().isEmpty, "\(gone.checkInvariants())")
    }

    @Test("a failed install-time download stops blocking the launch; a failed prefetch goes on to the next")
    func systemDownloads() throws {
        // Background Assets: the essential pack e (100 MB) blocks the launch at 0; its download
        // fails at 10 s, and the system stops blocking the launch: 10 s blocked. The prefetch
        // packs p1 and p2 (50 MB each) then download in order: p1 fails at 40 s (30 MB in),
        // p2 starts at once and is stored at 90 s; p1 stays partial.
        let text = """
            duration: 1h
            platform: background-assets
            device: {capacity: 10GB}
            network: [{at: 0, bandwidth: 8Mbps, kind: wifi}]
            apps:
              - id: game
                resources:
                  - {name: e, size: 100MB, tags: [e]}
                  - {name: p1, size: 50MB, tags: [p1]}
                  - {name: p2, size: 50MB, tags: [p2]}
                tags:
                  e: {category: essential}
                  p1: {category: prefetch}
                  p2: {category: prefetch}
            events:
              - {at: 0, app: game, install: true}
              - {at: 0, app: game, launch: true}
              - {at: 10, app: game, fail-download: e}
              - {at: 40, app: game, fail-download: p1}
            """
        let (device, _) = try run(text)
        #expect(device.ledger.blockedLaunches == 1 && abs(device.ledger.launchBlockedSeconds - 10) < 1e-9)
        #expect(device.isRunning(AppID(rawValue: 0)))
        #expect(device.ledger.downloadFailures == 2 && device.ledger.failedRequests == 0)
        #expect(device.state(of: pack(device, 1)) == .partiallyDownloaded(bytes: 30 * Self.MB))
        #expect(device.state(of: pack(device, 2)) == .downloaded)
        #expect(device.ledger.downloadedBytes == (10 + 30 + 50) * Self.MB)
    }

    @Test("the faults generator: failures and stalls at their rates, each stall as long as asked, seeded")
    func generator() throws {
        let generator = FaultsGenerator(failures: 2.0 / 3_600, stalls: 1.0 / 3_600, stall: 30)
        let scenario = try ScenarioParser(knownPolicies: ["lru"]).parse(
            "duration: 1000h\ndevice: {capacity: 1GB}\n", fileName: "g.scn"
        ).scenario
        func events(seed: UInt64) -> [ScenarioEvent] {
            var stream = generator.makeStream(scenario: scenario, seed: seed, firstKey: 0, keySpace: 1)
            var list: [ScenarioEvent] = []
            while let event = stream.next(), event.time < 1_000 * 3_600 { list.append(event) }
            return list
        }
        let list = events(seed: 7)
        #expect(list == events(seed: 7) && list != events(seed: 8))
        #expect(zip(list, list.dropFirst()).allSatisfy { $0.time <= $1.time })
        let failures = list.filter { $0.action == .failDownloads }.count
        let stalls = list.filter { $0.action == .stallTransfer(nil, packs: [], seconds: 30) }.count
        // Poisson counts over 1,000 h: 2,000 ± 4·√2000 (179) and 1,000 ± 4·√1000 (126).
        #expect(abs(failures - 2_000) < 179 && abs(stalls - 1_000) < 126, "\(failures) \(stalls)")
        #expect(failures + stalls == list.count)
    }

    @Test("fault events read as written, and refused where they say nothing")
    func parsing() throws {
        func parse(_ event: String) throws -> ScenarioDocument {
            try ScenarioParser(knownPolicies: ["lru"]).parse(
                try Self.scenario().replacingOccurrences(
                    of: "  - {at: 200, app: game, request: [a], id: r4}", with: event),
                fileName: "f.scn")
        }
        for (event, message) in [
            ("  - {at: 200, fail-download: a}", "without app, fail-download takes 'all'"),
            ("  - {at: 200, stall: link}", "stall event is missing required key 'for'"),
            ("  - {at: 200, stall: link, for: 0s}", "for must be a duration above zero"),
            ("  - {at: 200, app: game, stall: zz, for: 1s}", "zz"),
        ] {
            #expect {
                _ = try parse(event)
            } throws: { error in "\(error)".contains(message) }
        }
        let workload = try ScenarioParser(knownPolicies: ["lru"]).parse(
            try Self.scenario() + "\nworkload:\n  - {kind: faults, stalls: 1/h, stall: 30s}\n", fileName: "f.scn")
        #expect(workload.scenario.generators.first?.stallsTransfers == true)
        #expect {
            _ = try ScenarioParser(knownPolicies: ["lru"]).parse(
                try Self.scenario() + "\nworkload:\n  - {kind: faults, stalls: 1/h}\n", fileName: "f.scn")
        } throws: { error in "\(error)".contains("missing required key 'stall'") }
    }
}
