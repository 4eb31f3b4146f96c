import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

/// Issue 18: at equal times, scripted events run before generated ones, all of them.
@Suite("Tie order of scripted and generated events")
struct TieOrderTests {
    /// Two scripted installs at t = 0; a `levels` generator of the second app requests its first
    /// level at t = 0. Before the fix the request ran between the two installs and failed
    /// `app-not-installed` (the first install's successor was scheduled after the generator's
    /// first event); with the installs swapped it passed.
    static func scenario(secondApp: String) -> String {
        let first = secondApp == "game" ? "maps" : "game"
        return """
            duration: 1h
            device: {capacity: 10GB}
            apps:
              - id: game
                resources:
                  - {name: l1, size: 10MB, tags: [level-1]}
                  - {name: l2, size: 10MB, tags: [level-2]}
              - id: maps
                resources:
                  - {name: city, size: 10MB, tags: [city]}
            events:
              - {at: 0, app: \(first), install: true}
              - {at: 0, app: \(secondApp), install: true}
            workload:
              - {kind: levels, app: game, tags: [level-1, level-2], rate: 1/d}

            """
    }

    @Test(
        "the generator's request at t = 0 finds its app installed, in either install order",
        arguments: ["game", "maps"])
    func scriptedFirst(secondApp: String) throws {
        let scenario = try ScenarioParser(knownPolicies: ["apple"]).parse(
            Self.scenario(secondApp: secondApp), fileName: "tie.scn"
        ).scenario
        let simulator = Simulator(scenario: scenario, policy: ApplePolicy())
        simulator.run()
        let ledger = simulator.device.ledger
        #expect(ledger.failures(.appNotInstalled) == 0)
        // level-1 (urgent) and level-2 (prefetched) are both requested at t = 0 and granted.
        #expect(ledger.requests == 2)
        #expect(ledger.grants == 2)
    }
}
