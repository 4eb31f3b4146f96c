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

    /// The report's lede: the description, else what produced it.
    func lede(_ command: String) -> String {
        description.isEmpty ? "odr-sim \(command) of \(file)" : description
    }
}
