import Metrics
import ODRCore
import ODRPolicies

@testable import Simulation

// The unit's own symbol, as the spec writes sizes (1 MB).
// swift-format-ignore: AlwaysUseLowerCamelCase
let MB: Int64 = 1_000_000

/// A one-app scenario: tags named by the keys, each one resource of the given size.
func makeScenario(
    tags: [(String, Int64)], capacity: Int64 = 64_000 * MB, used: Int64 = 0,
    network: [NetworkPhase] = [NetworkPhase(at: 0, bandwidth: 300e6)],
    onLowDisk: LowDiskResponse = .ignore, duration: Double = 3600,
    events: (_ tag: (String) -> TagID) -> [ScenarioEvent]
) -> Scenario {
    let catalog = try! Catalog(
        resources: tags.map { Resource(name: "\($0.0)-data", size: $0.1, tags: [$0.0]) }, profile: .unlimited)
    let app = AppSpec(id: "game", catalog: catalog, onLowDisk: onLowDisk)
    let scripted = events { catalog.tagID(named: $0)! }
    return Scenario(
        duration: duration, platform: .unlimited, device: DeviceSpec(capacity: capacity, used: used),
        network: network, apps: [app],
        events: [ScenarioEvent(time: 0, action: .install(0)), ScenarioEvent(time: 0, action: .launch(0))] + scripted,
        requestLabels: (0..<16).map { "r\($0)" })
}

func request(
    _ at: Double, _ tags: [TagID], key: RequestKey, priority: LoadingPriority = .normal, optional: Bool = false
) -> ScenarioEvent {
    ScenarioEvent(
        time: at, action: .request(0, tags: RequestTags(tags), key: key, priority: priority, optional: optional))
}

func end(_ at: Double, key: RequestKey) -> ScenarioEvent {
    ScenarioEvent(time: at, action: .end(0, key: key))
}

/// Records grant times by request label.
final class GrantLog: SimulationObserver {
    var grants: [String: Double] = [:]
    var events: [ODREvent] = []

    func simulator(_ simulator: Simulator, emitted event: ODREvent) {
        events.append(event)
        if case .requestGranted(let id, _, _, _) = event.kind {
            grants[RequestLabels(simulator.scenario).label(of: simulator.requestKey(of: id))] = event.time
        }
    }
}

func run(_ scenario: Scenario) -> (Simulator, GrantLog) {
    let simulator = Simulator(scenario: scenario, policy: ApplePolicy())
    let log = GrantLog()
    simulator.run(observer: log)
    return (simulator, log)
}
