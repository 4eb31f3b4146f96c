import Simulation

/// What a report says of the scenario before its numbers: device, platform, network, apps,
/// duration and workload, a few facts each one line.
public enum ScenarioStory {
    /// The scenario's story in a few facts: device, platform, network, apps, duration.
    public static func facts(_ scenario: Scenario) -> [(name: String, value: String)] {
        let d = scenario.device
        var facts: [(name: String, value: String)] = [
            (
                "device",
                """
                \(Units.bytes(Double(d.capacity))), \(Units.bytes(Double(d.capacity - d.used))) free at the start \
                (\(scenario.platform.name))
                """
            ),
            ("duration", Units.duration(scenario.duration)),
            (
                "network",
                scenario.network.isEmpty
                    ? "offline"
                    : scenario.network.prefix(4).map {
                        $0.bandwidth > 0
                            ? """
                            \(Units.number($0.bandwidth / 1e6)) Mbps \($0.kind.rawValue) at \
                            \(Units.duration($0.at))
                            """
                            : "offline at \(Units.duration($0.at))"
                    }.joined(separator: ", ") + (scenario.network.count > 4 ? ", …" : "")
            ),
        ]
        for app in scenario.apps {
            let bytes = app.catalog.packs.reduce(Int64(0)) { $0 + $1.size }
            let own = app.platform.map { " on \($0.name)" } ?? ""
            facts.append(
                (
                    "app \(app.id)",
                    """
                    \(app.catalog.tags.count) tags in \(app.catalog.packs.count) packs, \
                    \(Units.bytes(Double(bytes)))\(own)
                    """
                ))
        }
        facts.append(
            (
                "workload",
                "\(scenario.events.count) scripted events"
                    + (scenario.generators.isEmpty
                        ? "" : ", generators: " + scenario.generators.map(\.kind).joined(separator: ", "))
            ))
        return facts
    }
}
