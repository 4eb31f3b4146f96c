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
}
