import Foundation
import ODRCore
import ScenarioFile
import Simulation
import Testing

/// Defaults, extension keys and request-key assignment.
@Suite("Scenario model")
struct ScenarioModelTests {
    let parser = ScenarioParser(knownPolicies: ["apple", "lru", "android-quota"])

    @Test func defaults() throws {
        let document = try parser.parse(
            """
            duration: 1h
            device: {capacity: 32GB}
            apps:
              - id: chat
                resources: [{name: stickers, size: 10MB, tags: [stickers]}]
            """, fileName: "Scenarios/quiet.day.scn")
        #expect(document.name == "quiet.day")
        #expect(document.description == "")
        #expect(document.scenario.seed == 0)
        #expect(document.scenario.platform == .ios17)
        #expect(document.policies == ["apple"])
        #expect(document.replications == 1)
        #expect(document.sampleInterval == nil)
        #expect(
            document.scenario.device == DeviceSpec(capacity: 32_000_000_000, used: 0, onSpaceExhausted: .failRequest))
        #expect(document.scenario.network == [NetworkPhase(at: 0, bandwidth: 40_000_000, kind: .wifi)])
        #expect(document.scenario.events.isEmpty)
        #expect(document.scenario.requestLabels.isEmpty)
        #expect(document.scenario.generators.isEmpty)
        let app = document.scenario.apps[0]
        #expect(app.cellular == true)
        #expect(app.onLowDisk == .ignore)
        #expect(document.policyOptions.isEmpty)
        #expect(app.catalog.tags[0].category == .onDemand)
    }

    @Test func defaultNameFromFileName() throws {
        let text = "duration: 1h\ndevice: {capacity: 1GB}\n"
        #expect(try parser.parse(text, fileName: "game.scn").name == "game")
        #expect(try parser.parse(text, fileName: "/tmp/a/b/storm").name == "storm")
        #expect(try parser.parse(text, fileName: ".hidden").name == ".hidden")
    }

    @Test func extensionKeys() throws {
        let document = try parser.parse(
            """
            duration: 2d
            replications: 5
            sample: 10m
            platform: {base: ios18, max_pack_size: 64MB, max_pack_count: 20, max_in_use: 1GiB, max_hosted: none}
            policies: [apple, android-quota]
            device: {capacity: 128GB, used: 100GB, on_space_exhausted: terminate-app}
            apps:
              - id: game
                cache_quota: 128MiB
                on_low_disk: release-all
                resources: [{name: map, size: 60MB, tags: [level-1]}]
            """, fileName: "what-if.scn")
        #expect(document.replications == 5)
        #expect(document.sampleInterval == 600)
        #expect(document.scenario.device.onSpaceExhausted == .terminateApp)
        var expected = PlatformProfile.ios18
        expected.name = "ios18-custom"
        expected.maxPackSize = 64_000_000
        expected.maxPackCount = 20
        expected.maxInUseSize = 1 << 30
        expected.maxHostedSize = nil
        #expect(document.scenario.platform == expected)
        #expect(document.scenario.apps[0].catalog.profile == expected)
        #expect(document.policyOptions["android-quota"]?.value("cache_quota", app: "game") == 134_217_728)
        #expect(document.scenario.apps[0].onLowDisk == .releaseAll)
    }

    @Test func customPlatformNameAndDefaultBase() throws {
        let document = try parser.parse(
            """
            duration: 1d
            platform: {name: tight, max_tag_size: 100MB}
            device: {capacity: 1GB}
            """, fileName: "x.scn")
        #expect(document.scenario.platform.name == "tight")
        #expect(document.scenario.platform.maxTagSize == 100_000_000)
        #expect(document.scenario.platform.maxPackSize == PlatformProfile.ios17.maxPackSize)
    }

    @Test(arguments: ["ios17", "ios18", "tvos18", "unlimited"])
    func platformPresets(name: String) throws {
        let document = try parser.parse("duration: 1d\nplatform: \(name)\ndevice: {capacity: 1GB}\n", fileName: "x.scn")
        #expect(document.scenario.platform == PlatformProfile.named(name))
    }

    @Test func requestIdsArePerAppWithTheirOwnKeys() throws {
        let document = try parser.parse(
            """
            duration: 1d
            device: {capacity: 64GB}
            apps:
              - id: game
                resources: [{name: map, size: 40MB, tags: [level-1]}]
              - id: chat
                resources: [{name: stickers, size: 10MB, tags: [stickers]}]
            events:
              - {at: 0, app: game, request: [level-1], id: r1}
              - {at: 0, app: chat, request: [stickers], id: r1, priority: 0.9}
              - {at: 10s, app: chat, request-if-present: [stickers]}
              - {at: 20s, app: game, resume: r1}
              - {at: 30s, app: chat, cancel: r1}
              - {at: 40s, app: chat, end: r1}
              - {at: 50d, app: game, end: r1}    # after the duration: allowed, never runs
            """, fileName: "two.scn")
        #expect(document.scenario.requestLabels == ["r1", "r1"])
        #expect(
            document.scenario.events.map(\.action) == [
                .request(0, tags: [TagID(rawValue: 0)], key: 0, priority: .normal, optional: false),
                .request(1, tags: [TagID(rawValue: 0)], key: 1, priority: LoadingPriority(0.9)!, optional: false),
                .requestIfPresent(1, tags: [TagID(rawValue: 0)], key: nil),
                .resume(0, key: 0),
                .cancel(1, key: 1),
                .end(1, key: 1),
                .end(0, key: 0),
            ])
        #expect(document.scenario.events.last?.time == 4_320_000.0)
    }

    @Test func blockStyleAndMultiTagRequests() throws {
        let document = try parser.parse(
            """
            duration: 1d
            device:
              capacity: 64GB
            apps:
              - id: game
                resources:
                  - name: a
                    size: 1MB
                    tags: [t1, t2]
                  - name: b
                    size: 2MB
                    tags:
                      - t3
            events:
              - at: 1.5s
                app: game
                request: [t3, t1]
                id: both
                optional: yes
              - at: 2s
                app: game
                preserve:
                  t1: 0.25
                  t3: 1
            """, fileName: "block.scn")
        #expect(
            document.scenario.events == [
                ScenarioEvent(
                    time: 1.5,
                    action: .request(
                        0, tags: [TagID(rawValue: 2), TagID(rawValue: 0)], key: 0, priority: .normal, optional: true)),
                ScenarioEvent(
                    time: 2,
                    action: .preserve(
                        0,
                        [
                            TagPreservation(tag: TagID(rawValue: 0), priority: 0.25),
                            TagPreservation(tag: TagID(rawValue: 2), priority: 1),
                        ])),
            ])
    }

    @Test func quotedValuesAreReadLikePlainOnes() throws {
        let document = try parser.parse(
            """
            duration: "14d"
            seed: 7
            device: {capacity: '64 GB', used: "1.5GiB"}
            """, fileName: "q.scn")
        #expect(document.scenario.duration == 1_209_600)
        #expect(document.scenario.device.capacity == 64_000_000_000)
        #expect(document.scenario.device.used == 1_610_612_736)
    }

    @Test func parseFileReadsTheFileAndNamesIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "odr-sim-parser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("storm.scn").path
        try ContractExampleTests.text.write(toFile: path, atomically: true, encoding: .utf8)
        let document = try parser.parseFile(atPath: path)
        #expect(document.name == "game")
        #expect(document.scenario.events.count == 13)

        try "duration: 1d\ndevice: {capacity: 1GB}\nseed: x\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ScenarioError(file: path, line: 3, column: 7, message: "seed must be a whole number, not 'x'"))
        {
            try parser.parseFile(atPath: path)
        }
    }

    @Test func missingFileIsAScenarioError() {
        let path = "/nonexistent/odr-sim/none.scn"
        #expect(throws: ScenarioError(file: path, line: 1, column: 1, message: "no such file")) {
            try parser.parseFile(atPath: path)
        }
        #expect(throws: ScenarioError(file: "/tmp", line: 1, column: 1, message: "is a directory, not a file")) {
            try parser.parseFile(atPath: "/tmp")
        }
    }

    @Test func errorDescriptionIsOneLine() {
        let error = ScenarioError(file: "a.scn", line: 3, column: 5, message: "two\nlines")
        #expect(error.description == "a.scn:3:5: two lines")
    }
}
