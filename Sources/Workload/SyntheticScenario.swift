import ODRCore
import Simulation

/// Large generated scenarios for benchmarks and stress studies: many apps with generated
/// catalogs, Zipf-popular requests, app sessions, disk pressure and network spells, all
/// generated lazily so memory follows live state, not simulated time.
public enum SyntheticScenario {
    /// `apps` apps sharing `tags` tags (lognormal sizes around `medianTagSize`), each with
    /// `requestsPerDay` Zipf(0.9) requests held for minutes, over `days` days, on a device
    /// whose free space holds about `fitFraction` of all content.
    public static func make(
        apps: Int = 50, tags: Int = 10_000, days: Double = 365, requestsPerDay: Double = 140,
        medianTagSize: Double = 20e6, fitFraction: Double = 0.1, seed: UInt64 = 1
    ) -> Scenario {
        let perApp = max(1, tags / max(apps, 1))
        var specs: [AppSpec] = []
        var total: Int64 = 0
        for a in 0..<apps {
            let resources = CatalogGenerator.resources(
                count: perApp, size: Lognormal(median: medianTagSize, sigma: 0.6),
                prefix: "t", seed: seed, app: "app\(a)")
            total += resources.reduce(0) { $0 + $1.size }
            let catalog = try! Catalog(resources: resources, profile: .unlimited)
            specs.append(AppSpec(id: "app\(a)", catalog: catalog, onLowDisk: a % 3 == 0 ? .releaseUnused : .ignore))
        }
        let free = Int64(Double(total) * fitFraction)
        let capacity: Int64 = 256_000_000_000
        var generators: [any WorkloadGenerator] = []
        for a in 0..<apps {
            let ids = (0..<perApp).map { TagID(rawValue: Int32($0)) }
            generators.append(
                PopularityGenerator(
                    app: a, tags: ids, rate: requestsPerDay / 86_400, alpha: 0.9,
                    hold: Lognormal(median: 300, sigma: 1)))
            generators.append(SessionsGenerator(app: a, rate: 4 / 86_400, length: Lognormal(median: 1200, sigma: 0.8)))
        }
        generators.append(
            DiskPressureGenerator(
                rate: 6 / 86_400, size: Lognormal(median: 200e6, sigma: 1),
                cleanupRate: 1 / 86_400, cleanupFraction: 0.7))
        generators.append(
            NetworkSpellsGenerator(spells: [
                .init(bandwidth: 100e6, kind: .wifi, mean: 8 * 3600),
                .init(bandwidth: 20e6, kind: .cellular, mean: 2 * 3600),
                .init(bandwidth: 0, kind: .wifi, mean: 1800),
            ]))
        let install = (0..<apps).map { ScenarioEvent(time: 0, action: .install($0)) }
        return Scenario(
            seed: seed, duration: days * 86_400, platform: .unlimited,
            device: DeviceSpec(capacity: capacity, used: capacity - free),
            network: [NetworkPhase(at: 0, bandwidth: 100e6)],
            apps: specs, events: install, generators: generators)
    }
}
