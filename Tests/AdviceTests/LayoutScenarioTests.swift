import Advice
import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

/// Issue 37: advise edits the typed scenario. A layout applied to a scenario regroups one
/// app's catalog and keeps every request meaning the same content.
@Suite("A layout applied to a typed scenario")
struct LayoutScenarioTests {
    /// Three resources of the game, a request of each tag, and an update of the pack holding
    /// `c`; a second app with an update of its own pack.
    static let text = """
        platform: background-assets
        duration: 2d
        device: {capacity: 64GB, used: 40GB}
        apps:
          - id: game
            budget: 1GB
            resources:
              - {name: a, size: 10MB, tags: [A]}
              - {name: b, size: 20MB, tags: [B]}
              - {name: c, size: 30MB, tags: [C]}
          - id: other
            resources:
              - {name: x, size: 5MB, tags: [X]}
        workload:
          - {kind: popularity, app: game, rate: 2/d, alpha: 1, hold: {median: 1m, sigma: 0.5}}
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: other, install: true}
          - {at: 1m, app: game, launch: true}
          - {at: 2m, app: game, request: [B], id: b}
          - {at: 1h, app: game, update: c, version: 2}
          - {at: 1h, app: other, update: x, version: 2}
        """

    static func document() throws -> ScenarioDocument {
        try ScenarioParser(knownPolicies: PolicyRegistry.names).parse(text, fileName: "layout.scn")
    }

    @Test("the layout as written gives the catalog as written, and the run is the same")
    func asWritten() throws {
        let document = try Self.document()
        let applied = try Layout.asWritten(document.resources[0]).applied(
            to: document.scenario, app: 0, resources: document.resources[0])
        #expect(applied.apps[0].catalog.packs.map(\.name) == document.scenario.apps[0].catalog.packs.map(\.name))
        #expect(applied.apps[0].catalog.tags.map(\.name) == document.scenario.apps[0].catalog.tags.map(\.name))
        #expect(applied.apps[0].eviction.budget == 1_000_000_000)
    }

    @Test("a merge keeps the tags' numbers, moves the update to the pack now holding c, and leaves the other app alone")
    func merged() throws {
        let document = try Self.document()
        // Groups {a, c} and {b}: packs A+C (index 0) and B (index 1); as written, c's pack was 2.
        var layout = Layout(groups: [[0, 2], [1]])
        layout.budget = 500_000_000
        let applied = try layout.applied(to: document.scenario, app: 0, resources: document.resources[0])
        let catalog = applied.apps[0].catalog
        #expect(catalog.tags.map(\.name) == ["A", "B", "C"])
        #expect(catalog.packs.map(\.name) == ["A+C", "B"])
        #expect(applied.apps[0].eviction.budget == 500_000_000)
        let updates = applied.events.compactMap { event -> [Int]? in
            if case .update(let app, let pack) = event.action { return [app, Int(pack)] }
            return nil
        }
        // The game's update: pack 2 as written (C) → pack 0 (A+C). The other app's: pack 0, kept.
        #expect(updates == [[0, 0], [1, 0]])
        // The request of B still names tag 1, which is B in both catalogs.
        let requests = applied.events.compactMap { event -> [TagID]? in
            if case .request(_, let tags, _, _, _) = event.action { return Array(tags) }
            return nil
        }
        #expect(requests == [[TagID(rawValue: 1)]])
    }

    @Test(
        """
        a popularity workload over every tag requests the same tags under any layout: a layout's own tags are never \
        requested
        """
    )
    func sameWorkload() throws {
        // The game's popularity entry lists no tags: every tag of the app as written (A, B, C).
        // Promoting b adds a tag of its own; re-reading a rewritten file would have counted it
        // among "every tag" and changed the requests, so layouts were compared on different
        // workloads (photo-filters.scn: a promotion "saved" 3.2 GB that way).
        let document = try Self.document()
        let promoted = try Layout(groups: [[0], [1], [2]]).promoting(1)
            .applied(to: document.scenario, app: 0, resources: document.resources[0])
        #expect(promoted.apps[0].catalog.tags.map(\.name) == ["A", "B", "C", "pack-2"])
        func requests(_ scenario: Scenario) -> [String] {
            var stream = scenario.generators[0].makeStream(scenario: scenario, seed: 7, firstKey: 0, keySpace: 1 << 20)
            return (0..<40).compactMap { _ in stream.next() }.map { "\($0.time) \($0.action)" }
        }
        let asWritten = requests(document.scenario)
        #expect(asWritten.count == 40)
        #expect(requests(promoted) == asWritten)
    }

    @Test("a layout over the platform's limits is refused with the catalog's own message")
    func overLimits() throws {
        var document = try Self.document()
        // iOS 17 packs hold at most 512 MB (ODR-SPEC §2): three of 300 MB each are fine apart,
        // 900 MB as one pack is refused.
        let big = (0..<3).map { Resource(name: "r\($0)", size: 300_000_000, tags: ["T\($0)"]) }
        document.scenario.platform = .ios17
        document.scenario.apps[0].catalog = try Catalog(resources: big, profile: .ios17)
        #expect(
            throws: CatalogError.packTooLarge(pack: "T0+T1+T2", size: 900_000_000, limit: 512_000_000, profile: "ios17")
        ) {
            try Layout(groups: [[0, 1, 2]]).applied(to: document.scenario, app: 0, resources: big)
        }
    }
}
