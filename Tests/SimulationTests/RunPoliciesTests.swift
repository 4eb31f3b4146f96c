import ODRCore
import ODRPolicies
import Testing

@testable import Simulation

/// Who runs which policy is the scenario's (``RunPolicies/init(for:run:make:)``): the system
/// under `system_policy` or the run's policy, an app's own `strategy`, and where the system's
/// order is fixed, the run's policy as every other evicting app's strategy.
@Suite struct RunPoliciesTests {
    /// `maps` on ODR, `game` and `video` on Background Assets; `video` names its own strategy.
    private func scenario(systemPolicy: String?) throws -> Scenario {
        let catalog = try Catalog(resources: [Resource(name: "a", size: 1_000, tags: ["a"])], profile: .unlimited)
        var game = AppSpec(id: "game", catalog: catalog)
        game.platform = .backgroundAssets
        var video = AppSpec(id: "video", catalog: catalog)
        video.platform = .backgroundAssets
        video.eviction.strategy = "fifo"
        var scenario = Scenario(
            duration: 60, platform: .ios17, device: DeviceSpec(capacity: 1_000_000, used: 0),
            apps: [AppSpec(id: "maps", catalog: catalog), game, video], events: [])
        scenario.systemPolicy = systemPolicy
        return scenario
    }

    /// Each policy made, by name, in the order asked.
    private final class Maker {
        var made: [String] = []
        func make(_ name: String) -> any PurgePolicy {
            made.append(name)
            return PolicyRegistry.descriptor(named: name)!.make(PolicyContext())
        }
    }

    @Test func theSystemsOrderFixedMakesTheRunsPolicyTheEvictingAppsStrategy() throws {
        let maker = Maker()
        let policies = RunPolicies(for: try scenario(systemPolicy: "apple"), run: "lru", make: maker.make)
        #expect(policies.system.name == "apple")
        #expect(policies.strategies[0] == nil)  // maps: the system purges it
        #expect(policies.strategies[1]?.name == "lru")  // game: the run's policy
        #expect(policies.strategies[2]?.name == "fifo")  // video: its own
    }

    @Test func withoutASystemPolicyTheRunsPolicyDoesBoth() throws {
        let maker = Maker()
        let policies = RunPolicies(for: try scenario(systemPolicy: nil), run: "lru", make: maker.make)
        #expect(policies.system.name == "lru")
        #expect(policies.strategies.keys.sorted() == [2])
        #expect(policies.strategies[2]?.name == "fifo")
        #expect(maker.made.sorted() == ["fifo", "lru"])
    }
}
