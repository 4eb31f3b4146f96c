import ODRCore
import Simulation

/// How often an app's resources are requested together, over a scenario's workload: what a
/// layout's merges and splits are guided by (the simulation, not this count, decides).
public struct CoAccess: Sendable {
    /// Requests of the app including resource `i`.
    public private(set) var frequency: [Int]
    /// Requests including both `i` and `j` (i < j), keyed `i * count + j`.
    private var pairs: [Int: Int] = [:]
    private let count: Int

    /// Counts the app's requests in the scenario's workload for each of `seeds` (the
    /// replications' seeds), a request of a tag meaning every resource carrying it.
    public init(scenario: Scenario, app: AppIndex, resources: [Resource], seeds: [UInt64]) {
        count = resources.count
        frequency = Array(repeating: 0, count: resources.count)
        let catalog = scenario.apps[app].catalog
        var byTag: [String: [Int]] = [:]
        for (i, resource) in resources.enumerated() {
            for tag in resource.tags { byTag[tag, default: []].append(i) }
        }
        for seed in seeds {
            let workload = ScenarioStreams.merger(scenario, seed: seed)
            while let event = workload.next(), event.time <= scenario.duration {
                let tags: RequestTags
                switch event.action {
                case .request(let a, let t, _, _, _) where a == app: tags = t
                case .requestLatest(let a, let t, _, _, _) where a == app: tags = t
                case .requestIfPresent(let a, let t, _) where a == app: tags = t
                default: continue
                }
                var members = Set<Int>()
                for tag in tags { members.formUnion(byTag[catalog.tag(tag).name] ?? []) }
                let sorted = members.sorted()
                for i in sorted { frequency[i] += 1 }
                for (x, i) in sorted.enumerated() {
                    for j in sorted[(x + 1)...] { pairs[i * count + j, default: 0] += 1 }
                }
            }
        }
    }

    /// Requests including both resources.
    public func together(_ i: Int, _ j: Int) -> Int {
        i == j ? frequency[i] : pairs[min(i, j) * count + max(i, j)] ?? 0
    }

    /// Sum over resource pairs across two groups.
    public func between(_ a: [Int], _ b: [Int]) -> Int {
        a.reduce(0) { sum, i in b.reduce(sum) { $0 + together(i, $1) } }
    }
}
