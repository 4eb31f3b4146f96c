import ODRCore

/// First in, first out: purge the pack that finished downloading earliest; requests do not
/// move it (libCacheSim's FIFO).
///
/// Cost: O(1) per notification; a purge walks from the oldest, O(victims + skipped).
public final class FIFOPolicy: PurgePolicy {
    public let name = "fifo"
    @exclusivity(unchecked) private var order = PackLinks()

    public init() {}

    public static let descriptor = PolicyDescriptor(
        name: "fifo", summary: "earliest downloaded first; requests do not refresh a pack"
    ) { _ in FIFOPolicy() }

    public func packStored(_ pack: PurgeCandidate) { order.pushBack(pack.pack.rawValue) }
    public func packRemoved(_ pack: PurgeCandidate) { order.remove(pack.pack.rawValue) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        var victims: [PackID] = []
        var freed: Int64 = 0
        var cursor = order.first()
        while let p = cursor, freed < bytes {
            let id = PackID(rawValue: p)
            if view.isCandidate(id) {
                victims.append(id)
                freed += view.info(id).size
            }
            cursor = order.after(p)
        }
        return victims
    }
}
