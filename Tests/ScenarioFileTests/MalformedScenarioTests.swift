import ScenarioFile
import Testing

/// A malformed scenario and the one error it must give: exact line, column and message.
struct MalformedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let line: Int
    let column: Int
    let message: String

    var testDescription: String { name }
}

/// Each file here is wrong in one way; the error must point at the offending node.
@Suite("Malformed scenarios")
struct MalformedScenarioTests {
    static let parser = ScenarioParser(knownPolicies: ["apple", "lru", "fifo", "android-quota"])

    static let cases: [MalformedCase] = [
        MalformedCase(
            name: "unknown top-level key, with a hint",
            text: """
                duration: 1d
                polices: [apple]
                device: {capacity: 64GB}
                """, line: 2, column: 1, message: "unknown top-level key 'polices'; did you mean 'policies'?"),

        MalformedCase(
            name: "unknown key inside device",
            text: """
                duration: 1d
                device:
                  capacity: 64GB
                  usd: 10GB
                """, line: 4, column: 3, message: "unknown device key 'usd'; did you mean 'used'?"),

        MalformedCase(
            name: "misspelt workload key",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                workloads: []
                """, line: 3, column: 1, message: "unknown top-level key 'workloads'; did you mean 'workload'?"),

        MalformedCase(
            name: "workload must be a list",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                workload: {}
                """, line: 3, column: 11,
            message:
                """
                workload must be a list of generators such as {kind: popularity, app: game, rate: 10/d}, not a \
                mapping
                """
        ),

        MalformedCase(
            name: "unknown event key",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, request: [level-1], id: r1, priorty: 0.5}
                """, line: 7, column: 52, message: "unknown event key 'priorty'; did you mean 'priority'?"),

        MalformedCase(
            name: "unknown resource key",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: map, sise: 40MB, tags: [level-1]}
                """, line: 6, column: 21, message: "unknown resource key 'sise'; did you mean 'size'?"),

        MalformedCase(
            name: "unknown app key",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    celular: false
                """, line: 5, column: 5, message: "unknown app key 'celular'; did you mean 'cellular'?"),

        MalformedCase(
            name: "unknown tag settings key",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                    tags:
                      level-1: {categroy: prefetch}
                """, line: 7, column: 17, message: "unknown tag settings key 'categroy'; did you mean 'category'?"),

        MalformedCase(
            name: "unknown network phase key",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                network:
                  - {at: 0, bandwith: 40Mbps}
                """, line: 4, column: 13, message: "unknown network phase key 'bandwith'; did you mean 'bandwidth'?"),

        MalformedCase(
            name: "unknown platform key",
            text: """
                duration: 1d
                platform: {base: ios17, max_pak_size: 64MB}
                device: {capacity: 64GB}
                """, line: 2, column: 25,
            message: "unknown platform key 'max_pak_size'; did you mean 'max_pack_size'?"),

        MalformedCase(
            name: "unknown app",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: gmae, install: true}
                """, line: 7, column: 18, message: "unknown app 'gmae'; did you mean 'game'?"),

        MalformedCase(
            name: "unknown tag for that app",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: map1, size: 40MB, tags: [level-1]}
                      - {name: map2, size: 40MB, tags: [level-2]}
                events:
                  - {at: 2m, app: game, request: [level-1, level-3], id: r1}
                """, line: 9, column: 44, message: "app 'game' has no tag 'level-3'; did you mean 'level-1'?"),

        MalformedCase(
            name: "duplicate request id within an app",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, request: [level-1], id: r1}
                  - {at: 1m, app: game, request-if-present: [level-1], id: r1}
                """, line: 8, column: 60,
            message: "request id 'r1' is already used by app 'game' (line 7); ids are unique within an app"),

        MalformedCase(
            name: "unknown request id",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, request: [level-1], id: r1}
                  - {at: 5m, app: game, end: r2}
                """, line: 8, column: 30, message: "unknown request id 'r2' for app 'game'; did you mean 'r1'?"),

        MalformedCase(
            name: "request id of another app",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                  - id: chat
                    resources: [{name: stickers, size: 4MB, tags: [stickers]}]
                events:
                  - {at: 0, app: chat, request: [stickers], id: s1}
                  - {at: 5m, app: game, pause: s1}
                """, line: 10, column: 32,
            message: "unknown request id 's1' for app 'game'; 's1' is a request of app 'chat'"),

        MalformedCase(
            name: "event out of time order",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                events:
                  - {at: 2h, disk: +1GB}
                  - {at: 90m, disk: -1GB}
                """, line: 5, column: 10,
            message: "event at 90m is earlier than the event before it (at 2h); events must be in time order"),

        MalformedCase(
            name: "negative size",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: map, size: -40MB, tags: [level-1]}
                """, line: 6, column: 27, message: "size '-40MB' is negative; a size cannot be below 0"),

        MalformedCase(
            name: "unparsable size",
            text: """
                duration: 1d
                device:
                  capacity: 64 gigs
                """, line: 3, column: 13,
            message:
                """
                capacity must be a size, not '64 gigs'; use a number and a unit (B, KB, MB, GB, TB, PB, KiB, MiB, \
                GiB, TiB, PiB), such as 512MB or 1.5GB
                """
        ),

        MalformedCase(
            name: "priority 1.5",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, request: [level-1], id: r1, priority: 1.5}
                """, line: 7, column: 62, message: "priority is 1.5, outside 0…1"),

        MalformedCase(
            name: "preservation outside 0…1",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                    tags:
                      level-1: {preservation: 2}
                """, line: 7, column: 31, message: "preservation is 2, outside 0…1"),

        MalformedCase(
            name: "unknown policy, with a hint",
            text: """
                duration: 1d
                policies: [apple, lur]
                device: {capacity: 64GB}
                """, line: 2, column: 19, message: "unknown policy 'lur'; did you mean 'lru'?"),

        MalformedCase(
            name: "two verbs",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, install: true, launch: true}
                """, line: 7, column: 39,
            message: "event has two verbs, 'install' and 'launch'; give each its own event"),

        MalformedCase(
            name: "no verb",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game}
                """, line: 7, column: 5,
            message:
                """
                event has no verb; give one of install, launch, terminate, uninstall, request, request-if-present, \
                set-priority, pause, resume, cancel, end, preserve, disk, update, app-update, obsolete, \
                check-updates, fail-download, stall, offload, clear-storage
                """
        ),

        MalformedCase(
            name: "missing at",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - app: game
                    install: true
                """, line: 7, column: 5, message: "event is missing required key 'at'"),

        MalformedCase(
            name: "missing duration",
            text: """
                # a scenario without its length
                device: {capacity: 64GB}
                """, line: 2, column: 1, message: "the scenario is missing required key 'duration'"),

        MalformedCase(
            name: "request without id",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, request: [level-1]}
                """, line: 7, column: 5, message: "request event is missing required key 'id'"),

        MalformedCase(
            name: "key that does not apply to the verb",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, disk: +1GB}
                """, line: 7, column: 13, message: "'app' does not apply to a disk event"),

        MalformedCase(
            name: "YAML syntax error",
            text: """
                duration: 1d
                device: {capacity: 64GB
                apps: []
                """, line: 3, column: 5,
            message: """
                invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at line 2, \
                column 9)
                """
        ),

        MalformedCase(
            name: "YAML duplicate key",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                duration: 2d
                """, line: 3, column: 1, message: "duplicate key 'duration' (first at line 1)"),

        MalformedCase(
            name: "YAML duplicate key in a flow mapping",
            text: """
                duration: 1d
                device: {capacity: 64GB, used: 1GB, capacity: 32GB}
                """, line: 2, column: 37, message: "duplicate key 'capacity' (first at line 2)"),

        MalformedCase(
            name: "YAML duplicate empty key at column 1 (found by FuzzStudy: it read before the line)",
            text: """
                "": 1
                "": 2
                """, line: 2, column: 1, message: "duplicate key '' (first at line 1)"),

        MalformedCase(
            name: "YAML duplicate key in a block list item",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                events:
                  - at: 0
                    disk: 1GB
                    at: 1m
                  - at: 2m
                    disk: 1GB
                """, line: 6, column: 5, message: "duplicate key 'at' (first at line 4)"),

        MalformedCase(
            name: "catalog limit: a 600 MB pack on ios17",
            text: """
                duration: 1d
                platform: ios17
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: intro, size: 10MB, tags: [intro]}
                      - {name: movie, size: 600MB, tags: [cinematics]}
                """, line: 8, column: 9,
            message: "asset pack 'cinematics' is 600 MB, over the 512 MB per-pack limit of ios17"),

        MalformedCase(
            name: "catalog limit: too many packs on a custom profile",
            text: """
                duration: 1d
                platform: {base: ios17, max_pack_count: 2}
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: a, size: 1MB, tags: [x]}
                      - {name: b, size: 1MB, tags: [x, y]}
                      - {name: c, size: 1MB, tags: [x]}
                      - {name: d, size: 1MB, tags: [y]}
                """, line: 10, column: 9,
            message: "the catalog forms 3 asset packs (one per exact tag set), over the limit of 2 of ios17-custom"),

        MalformedCase(
            name: "catalog: tag settings for a tag no resource has",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                    tags:
                      level-2: {category: prefetch, order: 1}
                """, line: 7, column: 7, message: "tag 'level-2' has settings but no resource carries it"),

        MalformedCase(
            name: "catalog limit: a tag over 512 MB points at the resource that crosses it",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: a, size: 300MB, tags: [shared, x]}
                      - {name: b, size: 100MB, tags: [shared]}
                      - {name: c, size: 200MB, tags: [shared, y]}
                """, line: 8, column: 9, message: "tag 'shared' is 600 MB, over the 512 MB per-tag limit of ios17"),

        MalformedCase(
            name: "catalog limit: hosting on a custom profile",
            text: """
                duration: 1d
                platform: {base: tvos18, max_hosted: 1GB}
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: a, size: 500MB, tags: [x]}
                      - {name: b, size: 500MB, tags: [y]}
                      - {name: c, size: 1B, tags: [z]}
                """, line: 9, column: 9,
            message: "on-demand content totals 1 GB, over the 1 GB hosting limit of tvos18-custom"),

        MalformedCase(
            name: "catalog: a resource listed twice",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: map, size: 1MB, tags: [x]}
                      - {name: map, size: 1MB, tags: [y]}
                """, line: 7, column: 16, message: "resource 'map' is listed twice"),

        MalformedCase(
            name: "catalog: a resource without tags",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources:
                      - {name: map, size: 1MB, tags: []}
                """, line: 6, column: 38,
            message: "resource 'map' has no tag; every on-demand resource needs at least one"),

        MalformedCase(
            name: "unparsable loading priority",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, request: [level-1], id: r1}
                  - {at: 1s, app: game, set-priority: r1, priority: high}
                """, line: 8, column: 53,
            message: "priority must be a loading priority, not 'high'; use a number in 0…1, such as 0.5, or urgent"),

        MalformedCase(
            name: "negative event time",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                events:
                  - {at: -5s, disk: 1GB}
                """, line: 4, column: 10, message: "at '-5s' is negative; a time cannot be below 0"),

        MalformedCase(
            name: "wrong type: a value where a list of tags is expected",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                events:
                  - {at: 0, app: game, request: level-1, id: r1}
                """, line: 7, column: 33,
            message: "request must be a list of tags such as [level-1], not the value 'level-1'"),

        MalformedCase(
            name: "wrong type: a mapping where a list is expected",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  id: game
                """, line: 4, column: 3,
            message: "apps must be a list of apps such as {id: game, resources: [...]}, not a mapping"),

        MalformedCase(
            name: "unknown platform, with a hint",
            text: """
                duration: 1d
                platform: ios71
                device: {capacity: 64GB}
                """, line: 2, column: 11, message: "unknown platform 'ios71'; did you mean 'ios17'?"),

        MalformedCase(
            name: "network out of order",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                network:
                  - {at: 0, bandwidth: 40Mbps}
                  - {at: 2h, bandwidth: 0}
                  - {at: 1h, bandwidth: 1Mbps, kind: cellular}
                """, line: 6, column: 10,
            message: "network phase at 1h is not after the phase before it (at 2h); phases must be in time order"),

        MalformedCase(
            name: "unknown link kind",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                network:
                  - {at: 0, bandwidth: 40Mbps, kind: wify}
                """, line: 4, column: 38, message: "unknown kind 'wify'; did you mean 'wifi'?"),

        MalformedCase(
            name: "used above capacity",
            text: """
                duration: 1d
                device: {capacity: 64GB, used: 65GB}
                """, line: 2, column: 32, message: "used (65 GB) is more than the capacity (64 GB)"),

        MalformedCase(
            name: "replications below 1",
            text: """
                duration: 1d
                replications: 0
                device: {capacity: 64GB}
                """, line: 2, column: 15, message: "replications must be at least 1, not 0"),

        MalformedCase(
            name: "unparsable time",
            text: """
                duration: 2 weeks
                device: {capacity: 64GB}
                """, line: 1, column: 11,
            message:
                """
                duration must be a time, not '2 weeks'; use seconds or a number and a unit (ms, s, m, h, d), such as \
                90s, 2m, 14d or 1d8h
                """
        ),

        MalformedCase(
            name: "two apps with one id",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - {id: game}
                  - {id: game}
                """, line: 5, column: 10, message: "app id 'game' is already used by another app (line 4)"),

        MalformedCase(
            name: "order on a non-prefetch tag",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - id: game
                    resources: [{name: map, size: 40MB, tags: [level-1]}]
                    tags:
                      level-1: {category: initial-install, order: 2}
                """, line: 7, column: 44,
            message: "order applies only to prefetch tags; tag 'level-1' is initial-install"),

        MalformedCase(
            name: "install: false",
            text: """
                duration: 1d
                device: {capacity: 64GB}
                apps:
                  - {id: game}
                events:
                  - {at: 0, app: game, install: false}
                """, line: 6, column: 33, message: "install must be true; leave the event out rather than write false"),

        MalformedCase(
            name: "empty file",
            text: "# nothing here", line: 1, column: 1,
            message: "the file is empty; a scenario needs at least duration and device"),

        MalformedCase(
            name: "a list at the top",
            text: "- duration: 1d", line: 1, column: 1,
            message: "a scenario must be a mapping of keys such as duration, device, apps and events, not a list"),
    ]

    @Test(arguments: cases)
    func pointsAtTheOffendingNode(_ malformed: MalformedCase) {
        do {
            let scenario = try Self.parser.parse(malformed.text, fileName: "bad.scn")
            Issue.record("parsed without error: \(scenario.name)")
        } catch {
            #expect(error.description == "bad.scn:\(malformed.line):\(malformed.column): \(malformed.message)")
        }
    }

    @Test func atLeastFifteenCases() {
        #expect(Self.cases.count >= 15)
    }
}
