import ODRCore

/// A scenario: one device, its apps and network, and what happens over virtual time.
///
/// It holds only what a run reads. A `.scn` file says more (a name, the policies to compare,
/// replications, sampling): that is the experiment's business, not the kernel's (see
/// `ScenarioFile.ScenarioDocument`). The kernel knows nothing of YAML: tests and generators
/// build scenarios directly.
public struct Scenario: Sendable {
    /// Every random draw of a run derives from it.
    public var seed: UInt64
    /// Virtual seconds to simulate; events after it are not run.
    public var duration: Double
    public var platform: PlatformProfile
    public var device: DeviceSpec
    /// Piecewise-constant link; each phase holds until the next. Sorted by time.
    public var network: [NetworkPhase]
    public var apps: [AppSpec]
    /// Scripted events in time order; events at equal times run in this order.
    public var events: [ScenarioEvent]
    /// Labels of the request ids named in the scenario, indexed by ``RequestKey``.
    public var requestLabels: [String]
    /// Generators that add events, disk growth and network spells (stochastic workloads).
    public var generators: [any WorkloadGenerator]

    public init(
        seed: UInt64 = 0, duration: Double, platform: PlatformProfile = .ios17,
        device: DeviceSpec, network: [NetworkPhase] = [NetworkPhase(at: 0, bandwidth: 40e6, kind: .wifi)],
        apps: [AppSpec], events: [ScenarioEvent], requestLabels: [String] = [],
        generators: [any WorkloadGenerator] = []
    ) {
        self.seed = seed
        self.duration = duration
        self.platform = platform
        self.device = device
        self.network = network
        self.apps = apps
        self.events = events
        self.requestLabels = requestLabels
        self.generators = generators
    }

    /// About how many workload events one run makes: the scripted ones and each generator's
    /// mean. The kernel adds download completions, link changes and samples.
    public var expectedEvents: Double {
        generators.reduce(Double(events.count)) { $0 + $1.expectedEvents(over: duration) }
    }

    /// Request keys reserved for each workload generator.
    public static let generatorKeySpace = 1 << 40
}
