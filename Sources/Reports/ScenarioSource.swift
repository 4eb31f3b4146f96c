import Metrics
import Simulation

/// Where a scenario's reports say it came from: its name, description and file, with the
/// scenario itself (the reports know nothing of the file's YAML).
public struct ScenarioSource {
    public var name: String
    public var description: String
    /// The path as the user gave it.
    public var file: String
    public var scenario: Scenario

    public init(name: String, description: String, file: String, scenario: Scenario) {
        self.name = name
        self.description = description
        self.file = file
        self.scenario = scenario
    }

    /// `odr-sim validate`'s line: what the scenario holds and how much a run does.
    public func validated(policies: [String]) -> String {
        let s = scenario
        let packs = s.apps.reduce(0) { $0 + $1.catalog.packs.count }
        let tags = s.apps.reduce(0) { $0 + $1.catalog.tags.count }
        return """
            \(file): ok — '\(name)' on \(s.platformNames): \(s.apps.count) app(s), \(tags) tags in \(packs) packs, \
            \(s.events.count) scripted events, \(s.generators.count) workload generator(s), \
            \(humanDuration(s.duration)), about \(scientific(s.expectedEvents)) workload events per run, \
            policies \(policies.joined(separator: ", "))
            """
    }

    /// The report's lede: the description, else what produced it.
    func lede(_ command: String) -> String {
        description.isEmpty ? "odr-sim \(command) of \(file)" : description
    }
}
