import ODRCore

/// CLOCK (Corbató, 1968), as libCacheSim's `Clock.c` runs it with its defaults (a one-bit
/// counter, arrivals unreferenced): a FIFO queue with a "referenced" bit per pack.
///
/// - An arrival joins the new end with its bit clear; a request that finds the pack on the
///   device sets the bit (nothing moves).
/// - To purge, the hand looks at the oldest pack: a referenced one has its bit cleared and
///   goes to the new end (a second chance); the first unreferenced one is purged.
///
/// Unlike SIEVE, whose hand stays where it stopped, CLOCK moves each survivor to the new end,
/// so after a purge the oldest pack is again the first looked at. Packs that are not
/// candidates (held, another tier) go to the new end with their bit kept, as the hand passes
/// them; a walk gives up after two full turns without finding a candidate.
///
/// Cost: O(1) per notification; a purge is O(victims + survivors passed), O(n) at worst.
public final class ClockPolicy: DescribedPolicy {
    /// Front: the oldest (where the hand looks); back: the newest.
    private let queue = PackLinks()
    private let referenced = Column<Bool>(initial: false)

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "clock",
        summary: "CLOCK: FIFO with a referenced bit, a second chance at the new end (libCacheSim's Clock)"
    ) { _ in ClockPolicy() }

    /// It does nothing on a release (the protocol's default).
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        referenced.cover(pack)
        referenced[pack.pack] = false
        queue.pushBack(pack.pack)
    }

    public func packRequested(_ pack: PurgeCandidate) {
        if queue.contains(pack.pack) { referenced[pack.pack] = true }
    }

    public func packRemoved(_ pack: PurgeCandidate) { queue.remove(pack.pack) }

    public func prefetch(_ pack: PackID) {
        referenced.prefetch(pack)
        queue.prefetch(pack)
    }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var victims: [PackID] = []
        var freed: Int64 = 0
        while freed < bytes, let (victim, size) = nextVictim(view) {
            queue.remove(victim)
            victims.append(victim)
            freed += size
        }
        if let next = queue.first() { view.prefetch(next) }
        return victims
    }

    /// The oldest unreferenced candidate, after giving every referenced pack before it its
    /// second chance (and passing over what is no candidate); nil if there is none.
    private func nextVictim(_ view: PurgeView) -> (PackID, Int64)? {
        var steps = 2 * queue.count() + 2
        while steps > 0, let p = queue.first() {
            steps -= 1
            if let size = view.candidateSize(p) {
                if !referenced[p] { return (p, size) }
                referenced[p] = false
            }
            queue.pushBack(p)
        }
        return nil
    }
}
