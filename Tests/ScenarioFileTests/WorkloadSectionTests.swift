import ODRCore
import Simulation
import Testing
import Workload

@testable import ScenarioFile

private let base = """
    duration: 7d
    device: {capacity: 64GB, used: 60GB}
    apps:
      - id: game
        resources:
          - {name: a, size: 10MB, tags: [level-1]}
          - {name: b, size: 20MB, tags: [level-2]}

    """

private func parse(_ workload: String) throws(ScenarioError) -> Scenario {
    try ScenarioParser(knownPolicies: ["apple"]).parse(base + workload, fileName: "w.scn").scenario
}

@Suite("The workload section (odr-sim extension)")
struct WorkloadSectionTests {
    @Test("levels without tags take every tag of the app, in catalog order; prefetch_depth is read and bounded")
    func levelsDefaults() throws {
        let s = try parse(
            """
            workload:
              - {kind: levels, app: game, rate: 1/d, prefetch_depth: 0}
            """)
        let levels = try #require(s.generators[0] as? LevelProgressionGenerator)
        #expect(levels.levels == [TagID(rawValue: 0), TagID(rawValue: 1)] && levels.prefetchDepth == 0)
        // 2 tags: at most 1 level ahead.
        #expect(throws: ScenarioError.self) {
            try parse("workload:\n  - {kind: levels, app: game, rate: 1/d, prefetch_depth: 2}\n")
        }
    }

    @Test("within: sessions needs the app's sessions generator, and is read")
    func withinSessions() throws {
        let s = try parse(
            """
            workload:
              - {kind: popularity, app: game, rate: 4/h, alpha: 1, hold: {median: 5m, sigma: 1}, within: sessions}
              - {kind: sessions, app: game, rate: 3/d, length: {median: 20m, sigma: 0.8}}
            """)
        #expect((s.generators[0] as? PopularityGenerator)?.withinSessions == true)
        // Levels too, taking their sessions' rate (3/d) for the estimate of events.
        let levels = try parse(
            """
            workload:
              - {kind: levels, app: game, rate: 1/h, within: sessions}
              - {kind: sessions, app: game, rate: 3/d, length: {median: 20m, sigma: 0.8}}
            """)
        #expect((levels.generators[0] as? LevelProgressionGenerator)?.withinSessions == 3.0 / 86_400)
        #expect(
            (try parse("workload:\n  - {kind: levels, app: game, rate: 1/h}\n").generators[0]
                as? LevelProgressionGenerator)?.withinSessions == nil)
        #expect(throws: ScenarioError.self) {
            try parse("workload:\n  - {kind: levels, app: game, rate: 1/h, within: sessions}\n")
        }
        do {
            _ = try parse(
                """
                workload:\n  - {kind: popularity, app: game, rate: 4/h, alpha: 1, hold: {median: 5m, sigma: 1}, \
                within: sessions}\n
                """
            )
            Issue.record("accepted within: sessions without sessions")
        } catch {
            #expect(error.message.hasPrefix("within: sessions needs a sessions generator for app 'game'"))
        }
    }

    @Test("every generator kind parses with its units: rates per day or hour, durations, sizes")
    func kinds() throws {
        let s = try parse(
            """
            workload:
              - {kind: sessions, app: game, rate: 3/d, length: {median: 20m, sigma: 0.8}, daily_cycle: {amplitude: \
            0.5, peak: 20h}}
              - {kind: levels, app: game, tags: [level-1, level-2], rate: 2/h, prefetch_priority: 0.3}
              - {kind: popularity, app: game, rate: 40/d, alpha: 0.9, hold: {median: 5m, sigma: 1}}
              - {kind: disk, rate: 1/w, size: {median: 150MB, sigma: 1.2}, cleanup_rate: 1/d, cleanup_fraction: 0.6}
              - {kind: network, wifi: {mean: 10h, bandwidth: 40Mbps}, offline: {mean: 30m}}
            """)
        #expect(s.generators.map(\.kind) == ["sessions", "levels", "popularity", "disk", "network"])
        let sessions = try #require(s.generators[0] as? SessionsGenerator)
        #expect(sessions.rate == 3.0 / 86_400)
        #expect(sessions.length == Lognormal(median: 1_200, sigma: 0.8))
        #expect(sessions.cycle == DailyCycle(amplitude: 0.5, peak: 72_000))
        let levels = try #require(s.generators[1] as? LevelProgressionGenerator)
        #expect(levels.rate == 2.0 / 3_600 && levels.levels == [TagID(rawValue: 0), TagID(rawValue: 1)])
        let popularity = try #require(s.generators[2] as? PopularityGenerator)
        #expect(popularity.tags.count == 2)  // all of the app's tags when none are listed
        let disk = try #require(s.generators[3] as? DiskPressureGenerator)
        #expect(disk.rate == 1.0 / 604_800 && disk.size.median == 150e6 && disk.cleanupFraction == 0.6)
        let network = try #require(s.generators[4] as? NetworkSpellsGenerator)
        #expect(network.spells.map(\.bandwidth) == [40e6, 0])
    }

    // Columns are 1-based positions of the offending token in line 9 (the generator line).
    @Test(
        "errors point at the offending node",
        arguments: [
            ("workload:\n  - {kind: sesions, app: game}", "9:12: unknown kind 'sesions'; did you mean 'sessions'?"),
            (
                "workload:\n  - {kind: disk, rate: 3 per day, size: {median: 1MB, sigma: 1}}",
                "9:24: rate must be a rate such as 3/d, 2/h or 1/w"
            ),
            (
                "workload:\n  - {kind: popularity, app: gmae, rate: 1/d, alpha: 1, hold: {median: 1m, sigma: 1}}",
                "9:29: unknown app 'gmae'; did you mean 'game'?"
            ),
            (
                "workload:\n  - {kind: levels, app: game, tags: [level-3], rate: 1/d}",
                "9:38: app 'game' has no tag 'level-3'"
            ),
            (
                "workload:\n  - {kind: disk, rate: 1/d, size: {median: 1MB, sigma: 1}, colour: red}",
                "9:60: unknown disk workload key 'colour'"
            ),
            (
                "workload:\n  - {kind: network, offline: {mean: 1h, bandwidth: 1Mbps}}",
                "9:41: an offline spell has no bandwidth"
            ),
            ("workload:\n  - {app: game}", "9:5: workload generator is missing required key 'kind'"),
        ] as [(String, String)])
    func errors(workload: String, expected: String) {
        do {
            _ = try parse(workload)
            Issue.record("no error for \(workload)")
        } catch {
            #expect(error.description.hasPrefix("w.scn:" + expected), "\(error.description)")
        }
    }

    @Test("generated catalogs: N single-tag resources with sizes from the scenario seed")
    func generatedCatalog() throws {
        let text = """
            duration: 1d
            seed: 5
            device: {capacity: 64GB, used: 10GB}
            apps:
              - id: lumen
                generate: {tags: 50, size: {median: 6MB, sigma: 0.5}, prefix: filter-}
                resources:
                  - {name: model, size: 100MB, tags: [fx]}
            """
        let s = try ScenarioParser(knownPolicies: ["apple"]).parse(text, fileName: "g.scn").scenario
        let catalog = s.apps[0].catalog
        #expect(catalog.tags.count == 51)
        #expect(catalog.tagID(named: "filter-50") != nil)
        let again = try ScenarioParser(knownPolicies: ["apple"]).parse(text, fileName: "g.scn").scenario
        #expect(again.apps[0].catalog.packs.map(\.size) == catalog.packs.map(\.size))
    }
}
