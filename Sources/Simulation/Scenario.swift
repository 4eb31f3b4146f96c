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
    /// The device's platform: every app's unless it names its own (``AppSpec/platform``).
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
    /// Where the apps mix platforms: the name of the policy the system purges under
    /// (`system_policy`), the run's policy then being the strategy of each app that evicts;
    /// nil: the run's policy does both (see ``RunPolicies``).
    public var systemPolicy: String? = nil

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

    /// App `app`'s platform: its own, or the device's.
    public func platform(of app: AppIndex) -> PlatformProfile {
        apps[app].platform ?? platform
    }

    /// Every app's platform, in app order.
    public var appPlatforms: [PlatformProfile] {
        apps.indices.map(platform(of:))
    }

    /// Changes the device's platform and every app's own alike (a what-if on a rule).
    public mutating func modifyPlatforms(_ change: (inout PlatformProfile) -> Void) {
        change(&platform)
        for i in apps.indices where apps[i].platform != nil { change(&apps[i].platform!) }
    }

    /// Whether some app's own code removes its packs (Background Assets, Play Asset Delivery).
    public var someAppEvicts: Bool {
        appPlatforms.contains(where: \.appRemovesPacks)
    }

    /// Whether the system purges some app's packs (On-Demand Resources, Android's cache).
    public var systemPurges: Bool {
        apps.isEmpty ? !platform.appRemovesPacks : appPlatforms.contains { !$0.appRemovesPacks }
    }

    /// The device's platform, then each app's own: `ios17; odyssey on background-assets`.
    public var platformNames: String {
        ([platform.name] + apps.compactMap { app in app.platform.map { "\(app.id) on \($0.name)" } }).joined(
            separator: "; ")
    }

    /// Whether the apps have different platforms (an ODR app beside a Background Assets app).
    public var mixesPlatforms: Bool {
        Set(appPlatforms.map(\.name)).count > 1
    }

    /// About how many workload events one run makes: the scripted ones and each generator's
    /// mean. The kernel adds download completions, link changes and samples.
    public var expectedEvents: Double {
        generators.reduce(Double(events.count)) { $0 + $1.expectedEvents(over: duration) }
    }

    /// Request keys reserved for each workload generator.
    public static let generatorKeySpace = 1 << 40
}
