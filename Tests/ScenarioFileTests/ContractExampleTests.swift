import ODRCore
import ScenarioFile
import Simulation
import Testing

/// The examples of the scenario format (docs/scenario-format.md), put together as one file, must parse and mean what
/// the page says.
@Suite("The contract's examples")
struct ContractExampleTests {
    /// The page's top-level, apps and events examples verbatim, with one addition: the events
    /// request `level-3`, which the apps example does not define, and the page also says an
    /// unknown tag is an error; so the catalog here has a `level3-map` resource.
    static let text = """
        name: game                      # default: the file name without extension
        description: A level-based game on a nearly full phone.
        seed: 42                        # every random draw of the run derives from it
        duration: 14d                   # virtual time to simulate; events after it are not run
        platform: ios17                 # size-limit profile: ios17 | ios18 | tvos18 (see ODR-SPEC.md)
        policies: [apple, lru]          # purge policies to run, each on the same workload; default [apple]
        device:
          capacity: 64GB                # total disk
          used: 58GB                    # space taken by everything that is not ODR content, at time 0
        network:                        # piecewise-constant link; each entry holds until the next
          - {at: 0, bandwidth: 40Mbps, kind: wifi}
          - {at: 8h, bandwidth: 0}      # offline: running downloads stall, packs stay partially downloaded
          - {at: 9h, bandwidth: 12Mbps, kind: cellular}
        apps:
          - id: game
            cellular: false             # may it download over cellular? default true
            on_low_disk: release-unused # app's reaction to the low-disk warning:
                                        #   ignore | release-unused (end requests marked `optional`) | release-all
            resources:                  # the catalog: resources and their tags (packs = groups of equal tag sets)
              - {name: level1-map, size: 40MB, tags: [level-1]}
              - {name: forest, size: 120MB, tags: [level-1, level-2]}
              - {name: level2-map, size: 45MB, tags: [level-2]}
              - {name: level3-map, size: 64MiB, tags: [level-3]}
            tags:                       # optional per-tag settings; a tag not listed is on-demand, preservation 0
              level-1: {category: initial-install}
              level-2: {category: prefetch, order: 1, preservation: 0.5}
        events:
          - {at: 0, app: game, install: true}          # installs the app; initial-install tags are downloaded
                                                       # first (the app cannot launch before), then prefetch tags in \
        order
          - {at: 1m, app: game, launch: true}          # the app is running (its packs are protected from purging)
          - {at: 2m, app: game, request: [level-2], id: r1, priority: urgent}   # beginAccessing
          - {at: 2m, app: game, request-if-present: [level-1], id: r2}          # conditionallyBeginAccessing
          - {at: 3m, app: game, request: [level-3], id: r3, optional: true}     # released on a low-disk warning
          - {at: 5m, app: game, set-priority: r3, priority: 0.1}                # change loading priority
          - {at: 6m, app: game, pause: r3}            # also: resume: r3, cancel: r3
          - {at: 30m, app: game, end: r1}              # endAccessing
          - {at: 31m, app: game, preserve: {level-2: 1.0}}   # setPreservationPriority
          - {at: 2h, disk: +3GB}                        # other data grows (photos, another app) …
          - {at: 3h, disk: -1GB}                        # … or shrinks
          - {at: 4h, app: game, terminate: true}        # no longer running; its requests end
          - {at: 5d, app: game, uninstall: true}        # all its packs leave the disk
        """

    let parser = ScenarioParser(knownPolicies: ["apple", "lru", "android-quota"])

    @Test func topLevel() throws {
        let document = try parser.parse(Self.text, fileName: "Scenarios/example.scn")
        #expect(document.name == "game")
        #expect(document.description == "A level-based game on a nearly full phone.")
        #expect(document.scenario.seed == 42)
        #expect(document.scenario.duration == 14 * 86_400)
        #expect(document.scenario.platform == .ios17)
        #expect(document.policies == ["apple", "lru"])
        #expect(
            document.scenario.device
                == DeviceSpec(capacity: 64_000_000_000, used: 58_000_000_000, onSpaceExhausted: .failRequest))
        #expect(
            document.scenario.network == [
                NetworkPhase(at: 0, bandwidth: 40_000_000, kind: .wifi),
                NetworkPhase(at: 8 * 3_600, bandwidth: 0, kind: .wifi),
                NetworkPhase(at: 9 * 3_600, bandwidth: 12_000_000, kind: .cellular),
            ])
        #expect(document.replications == 1)
        #expect(document.sampleInterval == nil)
        #expect(document.scenario.generators.isEmpty)
    }

    @Test func appAndCatalog() throws {
        let document = try parser.parse(Self.text, fileName: "example.scn")
        #expect(document.scenario.apps.count == 1)
        let app = try #require(document.scenario.apps.first)
        #expect(app.id == "game")
        #expect(app.cellular == false)
        #expect(app.onLowDisk == .releaseUnused)
        #expect(document.policyOptions.isEmpty)

        let catalog = app.catalog
        #expect(catalog.profile == .ios17)
        // One pack per exact tag set: level-1, level-1+level-2, level-2, level-3.
        #expect(catalog.packs.map(\.name) == ["level-1", "level-1+level-2", "level-2", "level-3"])
        #expect(catalog.packs.map(\.size) == [40_000_000, 120_000_000, 45_000_000, 67_108_864])
        let level1 = catalog.tag(try #require(catalog.tagID(named: "level-1")))
        let level2 = catalog.tag(try #require(catalog.tagID(named: "level-2")))
        let level3 = catalog.tag(try #require(catalog.tagID(named: "level-3")))
        #expect(level1.category == .initialInstall)
        #expect(level1.size == 160_000_000)
        #expect(level1.preservation == 0)
        #expect(level2.category == .prefetch(order: 1))
        #expect(level2.preservation == 0.5)
        #expect(level2.size == 165_000_000)
        #expect(level3.category == .onDemand)
        #expect(level3.size == 67_108_864)
    }

    @Test func events() throws {
        let document = try parser.parse(Self.text, fileName: "example.scn")
        let catalog = document.scenario.apps[0].catalog
        let level1 = try #require(catalog.tagID(named: "level-1"))
        let level2 = try #require(catalog.tagID(named: "level-2"))
        let level3 = try #require(catalog.tagID(named: "level-3"))
        let game: AppIndex = 0
        #expect(document.scenario.requestLabels == ["r1", "r2", "r3"])
        let expected: [ScenarioEvent] = [
            .init(time: 0, action: .install(game)),
            .init(time: 60, action: .launch(game)),
            .init(time: 120, action: .request(game, tags: [level2], key: 0, priority: .urgent, optional: false)),
            .init(time: 120, action: .requestIfPresent(game, tags: [level1], key: 1)),
            .init(time: 180, action: .request(game, tags: [level3], key: 2, priority: .normal, optional: true)),
            .init(time: 300, action: .setPriority(game, key: 2, LoadingPriority(0.1)!)),
            .init(time: 360, action: .pause(game, key: 2)),
            .init(time: 1_800, action: .end(game, key: 0)),
            .init(time: 1_860, action: .preserve(game, [TagPreservation(tag: level2, priority: 1)])),
            .init(time: 7_200, action: .disk(3_000_000_000)),
            .init(time: 10_800, action: .disk(-1_000_000_000)),
            .init(time: 14_400, action: .terminate(game)),
            .init(time: 432_000, action: .uninstall(game)),
        ]
        #expect(document.scenario.events.count == expected.count)
        for (event, wanted) in zip(document.scenario.events, expected) {
            #expect(event == wanted)
        }
        #expect(document.scenario.requestLabels[2] == "r3")
    }
}
