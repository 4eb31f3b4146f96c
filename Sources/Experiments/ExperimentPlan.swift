import ODRCore
import ODRPolicies
import Simulation

/// What an experiment runs: every point (a scenario) under every policy for every
/// replication, in a canonical order (point, then policy, then replication) that every
/// report follows, whatever order the runs take on cores or shards.
///
/// Within a point, replication `r` of every policy runs with the same seed (common random
/// numbers), so paired differences between policies are meaningful.
///
/// ```swift
/// let policies = [ApplePolicy.descriptor, LRUPolicy.descriptor]
/// let plan = ExperimentPlan(points: [.init(scenario)], policies: policies, replications: 5)
/// plan.runs.count                 // 10
/// plan.shard(1, of: 4)            // the run indices of shard 1 of 4
/// ```
public struct ExperimentPlan: Sendable {
    /// One run of the plan.
    public struct Run: Sendable, Hashable {
        public let point: Int
        /// The policy's name (``PolicyDescriptor/name``), as outputs write it.
        public let policy: String
        /// 1-based.
        public let replication: Int
    }

    /// One scenario of the plan, with what its runs need beside it and the kernel does not read.
    public struct Point: Sendable {
        public var scenario: Scenario
        /// Options handed to each policy when a run makes it, by policy name.
        public var policyOptions: [String: PolicyOptions]
        /// The digest of the file the scenario came from, carried into each summary row
        /// (`scenario_hash`); empty for a scenario built in code.
        public var sourceDigest: String
        public init(_ scenario: Scenario, policyOptions: [String: PolicyOptions] = [:], sourceDigest: String = "") {
            self.scenario = scenario
            self.policyOptions = policyOptions
            self.sourceDigest = sourceDigest
        }

        /// The policies of one run of `descriptor` at this point (``Simulation/RunPolicies``:
        /// who runs which is the scenario's), each made afresh with the run's seed, the future
        /// (for a policy that reads it) and its options. The run's policy is `descriptor`
        /// itself; the others, which the parser checked, come from the registry.
        public func policies(for descriptor: PolicyDescriptor, seed: UInt64, future: FutureRequests?) -> RunPolicies {
            RunPolicies(for: scenario, run: descriptor.name) { name in
                guard let policy = name == descriptor.name ? descriptor : PolicyRegistry.descriptor(named: name) else {
                    preconditionFailure("policy '\(name)' is not registered (a scenario's names are checked when read)")
                }
                return policy.make(
                    PolicyContext(seed: seed, future: future, options: policyOptions[name] ?? PolicyOptions()))
            }
        }

        /// The apps (by index) with an eviction strategy of their own (`apps[].strategy`).
        var ownStrategies: [(app: AppIndex, strategy: String)] {
            scenario.apps.indices.compactMap { i in scenario.apps[i].eviction.strategy.map { (i, $0) } }
        }

        /// Where apps fix their own strategy (`apps[].strategy`): a sentence saying what the
        /// run's policies then vary (the other apps, or nothing); nil where no app does.
        public var fixedStrategiesNote: String? {
            let own = ownStrategies
            guard !own.isEmpty else { return nil }
            let apps = scenario.apps
            let fixed = own.map { "\(apps[$0.app].id) (\($0.strategy))" }
            let varied = apps.indices.filter {
                apps[$0].eviction.strategy == nil
                    && (scenario.systemPolicy == nil || scenario.platform(of: $0).appRemovesPacks)
            }.map { apps[$0].id }
            let what =
                varied.isEmpty ? "nothing: every app's eviction is fixed" : "only \(varied.joined(separator: ", "))"
            return
                "Fixed in every run: the own strategy of \(fixed.joined(separator: ", ")); the policies vary \(what)."
        }

        /// Whether the run's policy is only the strategy of the apps that evict (the system's
        /// purge order being ``systemPolicy``).
        public var policiesAreStrategies: Bool { scenario.systemPolicy != nil || !scenario.systemPurges }
    }

    public let points: [Point]
    /// The policies, resolved once where the plan is made (each name once).
    public let policies: [PolicyDescriptor]
    public let replications: Int
    /// Every run, in canonical order.
    public let runs: [Run]
    private let byName: [String: PolicyDescriptor]

    public init(points: [Point], policies: [PolicyDescriptor], replications: Int) {
        self.points = points
        self.policies = policies
        self.replications = replications
        byName = Dictionary(policies.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        runs = points.indices.flatMap { point in
            policies.flatMap { policy in
                (1...max(1, replications)).map { Run(point: point, policy: policy.name, replication: $0) }
            }
        }
    }

    /// The names of ``policies``, in order.
    public var policyNames: [String] { policies.map(\.name) }

    /// The policy a run runs.
    public func descriptor(of run: Run) -> PolicyDescriptor { byName[run.policy]! }

    /// The seed of replication `r` (1-based) at a point: the point's seed + r − 1.
    public func seed(of run: Run) -> UInt64 { points[run.point].scenario.seed &+ UInt64(run.replication - 1) }

    /// A run's expected cost, in the workload events it will process: the scheduling weight
    /// for longest-first order and for balancing shards.
    public func cost(of run: Run) -> Double {
        let scenario = points[run.point].scenario
        // Offline policies read the whole future first: about one more pass over the workload.
        let passes = descriptor(of: run).needsFuture ? 2.0 : 1.0
        return (scenario.expectedEvents + 1) * passes
    }

    /// Run indices from the most to the least costly (ties in canonical order): started in
    /// this order, the last runs to finish are short ones, so every core stays busy to the end.
    public func longestFirst(_ indices: [Int]) -> [Int] {
        let costs = indices.map { cost(of: runs[$0]) }
        return indices.indices.sorted { a, b in
            costs[a] != costs[b] ? costs[a] > costs[b] : indices[a] < indices[b]
        }.map { indices[$0] }
    }

    /// Run indices point by point, point `first` first and then the others in point order,
    /// each point's from the most to the least costly (``longestFirst(_:)``): a study folded as
    /// it runs (``StudyFold``) holds the rows of about one point at a time, and the last runs
    /// to finish are still short ones.
    public func pointByPoint(_ indices: [Int], first: Int?) -> [Int] {
        var byPoint: [Int: [Int]] = [:]
        for index in indices { byPoint[runs[index].point, default: []].append(index) }
        let order = byPoint.keys.sorted { a, b in a == first || (b != first && a < b) }
        return order.flatMap { longestFirst(byPoint[$0]!) }
    }

    /// The runs of shard `k` (1-based) of `n`, in canonical order: each run goes, longest
    /// first, to the shard with the least cost so far (the lowest-numbered among equals).
    /// Deterministic, so every machine computes the same split from the same study.
    public func shard(_ k: Int, of n: Int) -> [Int] {
        precondition(n >= 1 && (1...n).contains(k), "shard \(k) of \(n)")
        var load = [Double](repeating: 0, count: n)
        var mine: [Int] = []
        for index in longestFirst(Array(runs.indices)) {
            var target = 0
            for s in 1..<n where load[s] < load[target] { target = s }
            load[target] += cost(of: runs[index])
            if target == k - 1 { mine.append(index) }
        }
        return mine.sorted()
    }
}
