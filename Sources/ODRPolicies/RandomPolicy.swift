import ODRCore
import Stochastic

/// Uniformly random victims: the baseline every informed policy must beat.
///
/// Draws come from a ``RandomStream`` derived from the run seed and the purpose
/// `"purge-random"`, so a seed gives the same victims on every run, and the draws never shift
/// the streams of the workload. Resident packs are kept in an array with swap-removal; a draw
/// that lands on a pack that is not a candidate (held, other tier) is redrawn, and after 32
/// such misses in a row the policy draws from an explicit list of the candidates instead, so a
/// purge never loops for long when most packs are held.
///
/// Cost: O(1) per notification; O(victims) per purge in the usual case.
public final class RandomPolicy: DescribedPolicy {
    private let stream: RandomStream
    private let members = PolicyState<[PackID]>([])
    /// Index of each pack in ``members``, or -1.
    private let slot = Column<Int32>(initial: -1)
    private let size = Column<Int64>(initial: 0)

    public init(seed: UInt64) {
        stream = RandomStream(seed: seed, purpose: "purge-random")
    }

    public static let descriptor = PolicyDescriptor(
        name: "random", summary: "uniformly random pack (seeded: same seed, same victims)"
    ) { context in RandomPolicy(seed: context.seed) }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        slot.cover(pack)
        size.cover(pack)
        size[pack.pack] = pack.size
        if slot[pack.pack] < 0 {
            slot[pack.pack] = Int32(members.value.count)
            members.value.append(pack.pack)
        }
    }

    public func packRemoved(_ pack: PurgeCandidate) { drop(pack.pack) }

    private func drop(_ p: PackID) {
        guard slot.covers(p), slot[p] >= 0 else { return }
        let at = Int(slot[p])
        let last = members.value.removeLast()
        if at < members.value.count {
            members.value[at] = last
            slot[last] = Int32(at)
        }
        slot[p] = -1
    }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var victims: [PackID] = []
        var freed: Int64 = 0
        var misses = 0
        // Victims leave `members` at once so they are not drawn twice; the device's
        // packRemoved for them then finds nothing to do.
        while freed < bytes && !members.value.isEmpty && misses < 32 {
            let p = members.value[stream.uniformInt(below: members.value.count)]
            if view.isCandidate(p) {
                drop(p)
                victims.append(p)
                freed += size[p]
                misses = 0
            } else {
                misses += 1
            }
        }
        if freed < bytes {
            var pool = members.value.filter { view.isCandidate($0) }
            while freed < bytes && !pool.isEmpty {
                let i = stream.uniformInt(below: pool.count)
                let p = pool[i]
                pool.swapAt(i, pool.count - 1)
                pool.removeLast()
                drop(p)
                victims.append(p)
                freed += size[p]
            }
        }
        return victims
    }
}
