/// Produces a stream of events for one run; the stream must depend only on the seed, so
/// every policy sees the identical workload.
public protocol WorkloadGenerator: Sendable {
    /// A short name for messages, such as `popularity`.
    var kind: String { get }
    /// A fresh stream for one run of `scenario` with `seed`. Request keys it creates must
    /// start at `firstKey` and stay below `firstKey + keySpace`.
    func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream
    /// About how many events the generator makes over `duration` seconds (its mean), so a
    /// runaway workload is seen before it runs.
    func expectedEvents(over duration: Double) -> Double
    /// The apps whose launches the generator makes, and those it makes requests for: what
    /// the checks before a run read (an app that asks for content but is never launched).
    var roles: (launches: [AppIndex], requests: [AppIndex]) { get }
    /// Whether its events stall transfers, whose ends the kernel must wake the driver for.
    var stallsTransfers: Bool { get }
}

extension WorkloadGenerator {
    /// By default a generator launches no app and requests nothing (disk, network, updates).
    public var roles: (launches: [AppIndex], requests: [AppIndex]) { ([], []) }
    /// By default a generator stalls nothing.
    public var stallsTransfers: Bool { false }
}
