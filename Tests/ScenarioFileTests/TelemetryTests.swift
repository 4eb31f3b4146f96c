import Foundation
import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

/// Issue 29: a `{kind: trace, file: …}` workload replays recorded app events (real telemetry)
/// as scripted events, with errors at the CSV's own `FILE:LINE:COLUMN`.
@Suite("Telemetry traces")
struct TelemetryTests {
    static let scenario = """
        duration: 1d
        device: {capacity: 2000MB, used: 1500MB}
        network: [{at: 0, bandwidth: 100Mbps, kind: wifi}]
        apps:
          - id: game
            resources:
              - {name: a, size: 100MB, tags: [level-1]}
              - {name: b, size: 150MB, tags: [level-2]}
        events:
          - {at: 30s, app: game, launch: true}
        workload:
          - {kind: trace, file: telemetry.csv}

        """

    /// Parses the scenario with `csv` as its telemetry file, both in a fresh directory.
    static func parse(_ csv: String) throws -> ScenarioDocument {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("telemetry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(csv.utf8).write(to: dir.appendingPathComponent("telemetry.csv"))
        return try ScenarioParser(knownPolicies: ["lru"]).parse(
            scenario, fileName: dir.appendingPathComponent("t.scn").path)
    }

    /// Records when each request was granted, and how long it waited.
    final class Grants: SimulationObserver {
        var waits: [(time: Double, wait: Double)] = []
        func simulator(_ simulator: Simulator, emitted event: ODREvent) {
            if case .requestGranted(_, _, let wait, _) = event.kind { waits.append((event.time, wait)) }
        }
    }

    @Test("rows become events, merged with the script in time order, and they run")
    func replays() throws {
        let document = try Self.parse(
            """
            time,app,event,tags,id
            0,game,install,,
            60,game,request,level-1 level-2,r1
            5m,game,end,,r1
            1h,game,request,level-1,r2

            """)
        let events = document.scenario.events
        // install (0, telemetry), launch (30 s, script), request (60 s), end (300 s), request (3600 s).
        #expect(events.map(\.time) == [0, 30, 60, 300, 3_600])
        #expect(document.eventLocations[0].hasSuffix("telemetry.csv:2:1"))
        #expect(document.eventLocations[1].hasSuffix("t.scn:10:5"))
        #expect(document.eventLocations[4].hasSuffix("telemetry.csv:5:1"))
        guard case .request(_, let tags, _, _, _) = events[2].action else {
            Issue.record("not a request: \(events[2])")
            return
        }
        #expect(tags.count == 2)

        let grants = Grants()
        Simulator(scenario: document.scenario, policy: LRUPolicy()).run(observer: grants)
        // r1 needs both packs, 250 MB at 100 Mbit/s: 250 × 8 / 100 = 20 s, granted at 80 s.
        // r2 finds level-1 kept (500 MB free held both): a hit at 3600 s, no wait.
        #expect(grants.waits.count == 2)
        #expect(abs(grants.waits[0].time - 80) < 1e-6 && abs(grants.waits[0].wait - 20) < 1e-6)
        #expect(grants.waits[1].time == 3_600 && grants.waits[1].wait == 0)
    }

    @Test("the telemetry's text is part of the scenario's digest")
    func digest() throws {
        let a = try Self.parse("time,app,event\n0,game,install\n")
        let b = try Self.parse("time,app,event\n1,game,install\n")
        #expect(a.sourceDigest != b.sourceDigest)
    }

    @Test(
        "a bad row is an error at the CSV's line and the column of the field to blame",
        arguments: [
            ("0,gmae,install,,", "telemetry.csv:3:3: unknown app 'gmae'; did you mean 'game'?"),
            (
                "60,game,request,level-1 levl-2,r9",
                "telemetry.csv:3:25: app 'game' has no tag 'levl-2'; did you mean 'level-2'?"
            ),
            (
                "6x,game,launch,,",
                """
                telemetry.csv:3:1: time must be a time, not '6x'; use seconds or a number and a unit (ms, s, m, h, \
                d), such as 90s, 2m, 14d or 1d8h
                """
            ),
            ("0,game,launch,", "telemetry.csv:3:1: 4 fields, but the header has 5"),
            (
                "0,game,jump,,",
                """
                telemetry.csv:3:8: unknown event 'jump'; expected one of: install, launch, terminate, uninstall, \
                request, request-if-present, end, cancel, pause, resume, app-update
                """
            ),
            (
                "5m,game,end,,r7",
                """
                telemetry.csv:3:14: unknown request id 'r7' for app 'game'; no earlier request of app 'game' has \
                an id
                """
            ),
        ])
    func badRow(row: String, expected: String) throws {
        do {
            _ = try Self.parse("time,app,event,tags,id\n0,game,install,,\n\(row)\n")
            Issue.record("accepted \(row)")
        } catch {
            let text = "\(error)"
            #expect(text.hasSuffix("/" + expected), "\(text)")
        }
    }

    @Test("rows must be in time order, as the script's events")
    func order() throws {
        do {
            _ = try Self.parse("time,app,event\n1h,game,install\n0,game,launch\n")
            Issue.record("accepted rows out of order")
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    """
                    telemetry.csv:3:1: event at 0 is earlier than the event before it (at 1h); events must be in \
                    time order
                    """
                ))
        }
    }

    @Test("a header is checked before any row")
    func header() throws {
        #expect(throws: ScenarioError.self) { try Self.parse("") }
        do {
            _ = try Self.parse("time,app,evnt\n")
            Issue.record("accepted a header without event")
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    """
                    telemetry.csv:1:10: unknown column 'evnt'; did you mean 'event'? (the columns are time, app, \
                    event, tags, id, priority)
                    """
                ))
        }
    }
}
