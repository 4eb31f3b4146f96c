import Experiments
import Foundation
import Metrics
import ODRPolicies
import Reports
import SafeOutput
import ScenarioFile
import Simulation

/// Every report's colours: a policy's place in the registry.
let reportPalette = Palette(policies: PolicyRegistry.names)

/// The scenario's story in a few facts: device, platform, network, apps, duration.
func storyFacts(_ scenario: Scenario) -> [(name: String, value: String)] {
    let d = scenario.device
    var facts: [(name: String, value: String)] = [
        ("device", "\(Units.bytes(Double(d.capacity))), \(Units.bytes(Double(d.capacity - d.used))) free at the start (\(scenario.platform.name))"),
        ("duration", Units.duration(scenario.duration)),
        ("network", scenario.network.isEmpty ? "offline" : scenario.network.prefix(4).map {
            $0.bandwidth > 0 ? "\(Units.number($0.bandwidth / 1e6)) Mbps \($0.kind.rawValue) at \(Units.duration($0.at))" : "offline at \(Units.duration($0.at))"
        }.joined(separator: ", ") + (scenario.network.count > 4 ? ", …" : "")),
    ]
    for app in scenario.apps {
        let bytes = app.catalog.packs.reduce(Int64(0)) { $0 + $1.size }
        facts.append(("app \(app.id)", "\(app.catalog.tags.count) tags in \(app.catalog.packs.count) packs, \(Units.bytes(Double(bytes)))"))
    }
    facts.append(("workload", "\(scenario.events.count) scripted events" + (scenario.generators.isEmpty ? "" : ", generators: " + scenario.generators.map(\.kind).joined(separator: ", "))))
    return facts
}

/// `report.html` of `run`.
func runReport(_ document: ScenarioDocument, file: String, _ results: [ExperimentRunner.RunResult]) -> RunReport {
    var runs: [RunReport.PolicyRun] = []
    for result in results {
        if let i = runs.firstIndex(where: { $0.policy == result.summary.policy }) {
            runs[i].redownloads.append(result.samples.map(\.redownloaded))
            continue
        }
        var run = RunReport.PolicyRun(policy: result.summary.policy, replication: result.summary.replication,
                                      samples: result.samples, purgeEpisodes: result.purgeEpisodes,
                                      lowDiskWarnings: result.lowDiskWarnings, waits: result.waitDistribution)
        run.redownloads = [result.samples.map(\.redownloaded)]
        runs.append(run)
    }
    let scenario = document.scenario
    let lede = document.description.isEmpty ? "odr-sim run of \(file)" : document.description
    return RunReport(title: "\(document.name): \(runs.count) purge polic\(runs.count == 1 ? "y" : "ies")", lede: lede,
                     facts: storyFacts(scenario), rows: results.map(\.summary), runs: runs,
                     capacity: scenario.device.capacity, palette: reportPalette)
}
