import ODRCore

/// First in, first out: purge the pack that finished downloading earliest; requests do not
/// move it (libCacheSim's FIFO).
///
/// Cost: O(1) per notification; a purge walks from the oldest, O(victims + skipped).
public final class FIFOPolicy: PurgePolicy {
    public let name = "fifo"
    @exclusivity(unchecked) private var order = PackLinks()
    /// Pack sizes, kept here so a purge need not ask the device for a snapshot per victim.
    @exclusivity(unchecked) private var size: [Int64] = []

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "fifo", summary: "earliest downloaded first; requests do not refresh a pack"
    ) { _ in FIFOPolicy() }

    public func packStored(_ pack: PurgeCandidate) {
        let p = Int(pack.pack.rawValue)
        if p >= size.count { size.append(contentsOf: repeatElement(0, count: Swift.max(p + 1, size.count * 2) - size.count)) }
        size[p] = pack.size
        order.pushBack(pack.pack.rawValue)
    }
    public func packRemoved(_ pack: PurgeCandidate) { order.remove(pack.pack.rawValue) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var victims: [PackID] = []
        var freed: Int64 = 0
        var cursor = order.first()
        while let p = cursor, freed < bytes {
            let id = PackID(rawValue: p)
            if view.isCandidate(id) {
                victims.append(id)
                freed += size[Int(p)]
            }
            cursor = order.after(p)
        }
        return victims
    }
}
