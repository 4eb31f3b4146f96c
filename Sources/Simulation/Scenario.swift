import ODRCore

/// A scenario: one device, its apps and network, and what happens over virtual time.
///
/// This is the parsed, validated form of a `.scn` file (see `ScenarioFile`), but the kernel
/// knows nothing of YAML: tests and generators build scenarios directly.
public struct Scenario: Sendable {
    public var name: String
    public var description: String
    /// Every random draw of a run derives from it.
    public var seed: UInt64
    /// Virtual seconds to simulate; events after it are not run.
    public var duration: Double
    public var platform: PlatformProfile
    /// Purge policies to run, each on the same workload.
    public var policies: [String]
    /// Options of the policies that take some, by policy name (`policy_options:`), handed
    /// to each policy when a run makes it.
    public var policyOptions: [String: PolicyOptions] = [:]
    /// Independent workloads (seeds) per policy.
    public var replications: Int
    public var device: DeviceSpec
    /// Piecewise-constant link; each phase holds until the next. Sorted by time.
    public var network: [NetworkPhase]
    public var apps: [AppSpec]
    /// Scripted events in time order; events at equal times run in this order.
    public var events: [ScenarioEvent]
    /// Where each scripted event was written (`FILE:LINE:COLUMN`), parallel to ``events``,
    /// for the run's notices; empty for a scenario built in code.
    public var eventLocations: [String] = []
    /// Labels of the request ids named in the scenario, indexed by ``RequestKey``.
    public var requestLabels: [String]
    /// Generators that add events, disk growth and network spells (stochastic workloads).
    public var generators: [any WorkloadGenerator]
    /// Virtual seconds between time-series samples; nil lets the runner choose.
    public var sampleInterval: Double?
    /// A digest of the file the scenario was read from (16 hex digits), or empty for a
    /// scenario built in code; reports carry it so a baseline names the scenario it came from.
    public var sourceDigest: String = ""

    public init(
        name: String, description: String = "", seed: UInt64 = 0, duration: Double,
        platform: PlatformProfile = .ios17, policies: [String] = ["apple"], replications: Int = 1,
        device: DeviceSpec, network: [NetworkPhase] = [NetworkPhase(at: 0, bandwidth: 40e6, kind: .wifi)],
        apps: [AppSpec], events: [ScenarioEvent], requestLabels: [String] = [],
        generators: [any WorkloadGenerator] = [], sampleInterval: Double? = nil
    ) {
        self.name = name
        self.description = description
        self.seed = seed
        self.duration = duration
        self.platform = platform
        self.policies = policies
        self.replications = replications
        self.device = device
        self.network = network
        self.apps = apps
        self.events = events
        self.requestLabels = requestLabels
        self.generators = generators
        self.sampleInterval = sampleInterval
    }

    /// The label of a request key: the scenario's id, or `<kind><generator>-<n>` for the n-th
    /// request of a workload generator (e.g. `popularity2-17`).
    public func label(of key: RequestKey) -> String {
        guard let (generator, number) = generatorRequest(key) else { return requestLabels[key] }
        return labelPrefix(ofGenerator: generator) + String(number)
    }

    /// For a generated request's key, its generator's index and its 1-based number there.
    public func generatorRequest(_ key: RequestKey) -> (generator: Int, number: Int)? {
        let offset = key - requestLabels.count
        guard offset >= 0 else { return nil }
        return (offset / Scenario.generatorKeySpace, offset % Scenario.generatorKeySpace + 1)
    }

    /// What a generator's request labels start with: its kind and 1-based index, "popularity3-".
    public func labelPrefix(ofGenerator generator: Int) -> String {
        "\(generator < generators.count ? generators[generator].kind : "w")\(generator + 1)-"
    }

    /// About how many workload events one run makes: the scripted ones and each generator's
    /// mean. The kernel adds download completions, link changes and samples.
    public var expectedEvents: Double {
        generators.reduce(Double(events.count)) { $0 + $1.expectedEvents(over: duration) }
    }

    /// Most replications a scenario or a command may ask for: each is a run per policy whose
    /// summary is kept until the report is written, and 10,000 already narrow a 95 % interval
    /// a hundredfold from one run's spread.
    public static let maximumReplications = 10_000

    /// Most time-series samples one run may take: the rows are kept until the report is
    /// written (about 100 bytes each), so `sample: 1ms` over ten years is refused up front.
    public static let maximumSamples = 1_000_000

    /// Request keys reserved for each workload generator.
    public static let generatorKeySpace = 1 << 40
}
