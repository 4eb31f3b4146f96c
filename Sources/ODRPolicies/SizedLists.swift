import ODRCore

/// Packs in several intrusive lists (``PackLinks``), each list's bytes counted as packs move:
/// the queues and ghost lists of ``ARCPolicy`` and ``TwoQPolicy``, whose rules compare them.
///
/// A pack is in at most one list. Its size is set by the owner (``sizes``) before it is
/// pushed, and a ghost (an id kept after its pack left) counts at that size.
final class SizedLists {
    private let links = PackLinks()
    private var totals: [Int64]
    /// Each pack's size, as its lists count it.
    let sizes = Column<Int64>(initial: 0)

    init(lists: Int) {
        totals = [Int64](repeating: 0, count: lists)
        for list in 0..<lists { links.ensureList(list) }
    }

    func cover(_ pack: PurgeCandidate) {
        links.cover(pack)
        sizes.cover(pack)
    }

    /// The bytes of the packs in `list`.
    func bytes(_ list: Int) -> Int64 { totals[list] }
    /// The bytes of every list.
    var totalBytes: Int64 { totals.reduce(0, +) }

    func list(of pack: PackID) -> Int? { links.list(of: pack) }
    func first(_ list: Int) -> PackID? { links.first(list) }
    func after(_ pack: PackID) -> PackID? { links.after(pack) }
    func oldestCandidate(_ list: Int, of view: PurgeView) -> (PackID, Int64)? { links.oldestCandidate(list, of: view) }

    /// Moves `pack` to the newest end of `list` (from wherever it was).
    func push(_ pack: PackID, _ list: Int) {
        if let from = links.list(of: pack) { totals[from] -= sizes[pack] }
        links.pushBack(pack, list: list)
        totals[list] += sizes[pack]
    }

    /// Takes `pack` out of its list, if it is in one.
    func drop(_ pack: PackID) {
        guard let from = links.list(of: pack) else { return }
        totals[from] -= sizes[pack]
        links.remove(pack)
    }
}
