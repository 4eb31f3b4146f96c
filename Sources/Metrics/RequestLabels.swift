import Simulation

/// The names `events.csv` gives requests: a scripted request's `id` from the scenario, and
/// `<kind><generator>-<n>` for the n-th request of a workload generator (`popularity2-17`).
///
/// The kernel knows a request only by its ``RequestKey`` (``Simulator/requestKey(of:)``);
/// naming it is the report's business, so the names are built here, once per run.
public struct RequestLabels: Sendable {
    private let scripted: [String]
    /// "popularity3-" and so on, by generator.
    private let prefixes: [String]

    public init(_ scenario: Scenario) {
        scripted = scenario.requestLabels
        prefixes = scenario.generators.indices.map { Self.generatorName(scenario, $0) + "-" }
    }

    /// The label of a request key, or "" for none.
    public func label(of key: RequestKey?) -> String {
        guard let key else { return "" }
        let offset = key - scripted.count
        guard offset >= 0 else { return scripted[key] }
        let generator = offset / Scenario.generatorKeySpace
        let prefix = generator < prefixes.count ? prefixes[generator] : "w\(generator + 1)-"
        return prefix + String(offset % Scenario.generatorKeySpace + 1)
    }

    /// A generator's name: its kind and 1-based index, "popularity3".
    public static func generatorName(_ scenario: Scenario, _ generator: Int) -> String {
        "\(generator < scenario.generators.count ? scenario.generators[generator].kind : "w")\(generator + 1)"
    }
}
