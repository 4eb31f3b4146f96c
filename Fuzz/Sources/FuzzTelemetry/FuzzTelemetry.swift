import Foundation
import ODRPolicies
import ScenarioFile

/// One input: a telemetry trace (`{kind: trace, file: …}`), read by a small scenario with two
/// apps, through the same reader as a user's file (the one text reader, then the rows checked
/// in one streaming pass). Every answer is a scenario or a located error, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTelemetry(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("odr-sim-fuzz-telemetry-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let trace = directory.appendingPathComponent("t.csv")
    guard (try? Data(UnsafeBufferPointer(start: data, count: count)).write(to: trace)) != nil else { return 0 }
    let scenario = """
        name: fuzz
        duration: 1d
        device: {capacity: 10GB, used: 5GB}
        network: [{at: 0, bandwidth: 100Mbps, kind: wifi}]
        apps:
          - id: game
            resources: [{name: a, size: 10MB, tags: [level-1]}, {name: b, size: 20MB, tags: [level-2]}]
          - id: maps
            resources: [{name: c, size: 30MB, tags: [region]}]
        workload: [{kind: trace, file: t.csv}]

        """
    let path = directory.appendingPathComponent("s.scn").path
    do {
        let document = try ScenarioParser(knownPolicies: PolicyRegistry.names).parse(scenario, fileName: path)
        precondition(document.eventLocations.count == document.scenario.events.count, "an event without its location")
        precondition(
            zip(document.scenario.events, document.scenario.events.dropFirst()).allSatisfy { $0.time <= $1.time },
            "events out of time order")
    } catch {
        precondition(
            error.line >= 1 && error.column >= 1 && !error.message.contains("\n"), "a malformed error: \(error)")
    }
    return 0
}
