import Simulation
import Stochastic

/// Faults of the link: downloads that fail (a server error, a dropped connection) and
/// transfers that stall (a slow or silent server), each a Poisson process. At a failure every
/// download under way fails (``ODRCore/ODRDevice/failDownloads(at:)``); a stall holds every
/// transfer on the link for `stall` seconds (``ODRCore/ODRDevice/setTransferStalled(_:_:at:)``).
/// A fault of one pack is a scripted event (`fail-download: PACK`, `stall: PACK`).
///
/// ```yaml
/// workload:
///   - {kind: faults, failures: 2/d, stalls: 1/h, stall: 30s}
/// ```
public struct FaultsGenerator: WorkloadGenerator {
    public let kind = "faults"
    public var failures: Rate
    public var stalls: Rate
    /// How long each stall lasts, in seconds.
    public var stall: Double

    public init(failures: Rate, stalls: Rate, stall: Double) {
        self.failures = failures
        self.stalls = stalls
        self.stall = stall
    }

    public var stallsTransfers: Bool { stalls > 0 }

    public func makeStream(scenario: Scenario, seed: UInt64, firstKey: RequestKey, keySpace: Int) -> any EventStream {
        Stream(self, seed: seed)
    }

    public func expectedEvents(over duration: Double) -> Double { (failures + stalls) * duration }

    /// A class, as ``SessionsGenerator/Stream`` is, for the same reasons.
    final class Stream: EventStream {
        let spec: FaultsGenerator
        @exclusivity(unchecked) var failures: PoissonArrivals
        @exclusivity(unchecked) var stalls: PoissonArrivals
        var nextFailure: Double
        var nextStall: Double

        init(_ spec: FaultsGenerator, seed: UInt64) {
            self.spec = spec
            failures = PoissonArrivals(
                rate: spec.failures, cycle: nil, stream: RandomStream(seed: seed, purpose: "faults/failures"), start: 0)
            stalls = PoissonArrivals(
                rate: spec.stalls, cycle: nil, stream: RandomStream(seed: seed, purpose: "faults/stalls"), start: 0)
            nextFailure = failures.next()
            nextStall = stalls.next()
        }

        func next() -> ScenarioEvent? {
            // A failure and a stall at one instant: the failure first (it is the first drawn).
            if nextFailure.isFinite && nextFailure <= nextStall {
                defer { nextFailure = failures.next() }
                return ScenarioEvent(time: nextFailure, action: .failDownloads)
            }
            guard nextStall.isFinite else { return nil }
            defer { nextStall = stalls.next() }
            return ScenarioEvent(time: nextStall, action: .stallTransfer(nil, packs: [], seconds: spec.stall))
        }
    }
}
