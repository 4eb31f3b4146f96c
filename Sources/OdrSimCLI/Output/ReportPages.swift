import Experiments
import Foundation
import Metrics
import ODRPolicies
import Reports
import SafeOutput
import ScenarioFile

/// Every report's colours: a policy's place in the registry.
let reportPalette = Palette(policies: PolicyRegistry.names)

/// `report.html` of `run`.
func runReport(_ document: ScenarioDocument, file: String, _ results: [ExperimentRunner.RunResult]) -> RunReport {
    var runs: [RunReport.PolicyRun] = []
    for result in results {
        if let i = runs.firstIndex(where: { $0.policy == result.summary.policy }) {
            runs[i].redownloads.append(result.samples.map(\.redownloaded))
            continue
        }
        var run = RunReport.PolicyRun(
            policy: result.summary.policy, replication: result.summary.replication,
            samples: result.samples, purgeEpisodes: result.purgeEpisodes,
            lowDiskWarnings: result.lowDiskWarnings, waits: result.waitDistribution)
        run.redownloads = [result.samples.map(\.redownloaded)]
        runs.append(run)
    }
    let scenario = document.scenario
    let lede = document.description.isEmpty ? "odr-sim run of \(file)" : document.description
    return RunReport(
        title: "\(document.name): \(runs.count) purge polic\(runs.count == 1 ? "y" : "ies")", lede: lede,
        facts: ScenarioStory.facts(scenario), rows: results.map(\.summary), runs: runs,
        capacity: scenario.device.capacity, palette: reportPalette)
}
