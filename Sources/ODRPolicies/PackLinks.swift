import CPrefetch
import ODRCore

/// Intrusive doubly linked lists of packs, several lists sharing one set of nodes: what
/// the multi-list policies use (``Links`` with a ``ListNode`` per pack).
typealias PackLinks = Links<ListNode>

/// Intrusive doubly linked lists of packs, several lists sharing one set of nodes (or one
/// list, with ``QueueNode``s).
///
/// A pack is in at most one list at a time. Nodes live in one flat block indexed by the
/// pack's device-wide raw value, so every operation is O(1) with no allocation per node
/// (12 bytes per pack, 8 for a single queue: one cache line touched per node). The front
/// of a list is its oldest entry, the back its newest.
///
/// Performance: a class over manually managed blocks, so that moving a pack (on every
/// request, for LRU) is a handful of stores, with no copy-on-write uniqueness checks.
final class Links<Node: LinkNode> {
    private struct Ends {
        var head: Int32 = -1
        var tail: Int32 = -1
        var count = 0
    }
    private var nodes: UnsafeMutablePointer<Node>
    private var nodeCapacity = 0
    private var ends: UnsafeMutablePointer<Ends>
    private(set) var listCount: Int
    private var endsCapacity: Int

    init(lists: Int = 1) {
        nodes = .allocate(capacity: 1)
        endsCapacity = Swift.max(lists, 4)
        ends = .allocate(capacity: endsCapacity)
        ends.initialize(repeating: Ends(), count: endsCapacity)
        precondition(lists <= Node.lists, "\(Node.self) links at most \(Node.lists) list")
        listCount = lists
    }

    deinit {
        nodes.deallocate()
        ends.deallocate()
    }

    /// Entries in `list`.
    func count(_ list: Int = 0) -> Int { ends[list].count }

    /// Makes room for list `list` (lists are created on first use).
    func ensureList(_ list: Int) {
        guard list >= listCount else { return }
        precondition(list < Node.lists, "\(Node.self) links at most \(Node.lists) list")
        if list >= endsCapacity {
            let grown = Swift.max(list + 1, endsCapacity * 2)
            ends = regrow(ends, from: endsCapacity, to: grown, filling: Ends())
            endsCapacity = grown
        }
        listCount = list + 1
    }

    /// Makes room for packs below `count` at once.
    func reserve(_ count: Int) {
        guard count > nodeCapacity else { return }
        nodes = regrow(nodes, from: nodeCapacity, to: count, filling: Node())
        nodeCapacity = count
    }

    /// Makes room at once for every pack of `candidate`'s device, so that a list of a
    /// million packs grows once rather than doubling as they arrive.
    @inline(__always)
    func cover(_ candidate: PurgeCandidate) {
        if candidate.pack.index >= nodeCapacity { reserve(Swift.max(candidate.pack.index + 1, candidate.packCount)) }
    }

    private func ensureNode(_ p: Int) {
        guard p >= nodeCapacity else { return }
        let grown = Swift.max(p + 1, nodeCapacity * 2, 64)
        nodes = regrow(nodes, from: nodeCapacity, to: grown, filling: Node())
        nodeCapacity = grown
    }

    /// Starts loading `p`'s node into the cache (a hint; changes nothing).
    @inline(__always)
    func prefetch(_ pack: PackID) {
        let p = pack.rawValue
        if p >= 0 && Int(p) < nodeCapacity { odr_prefetch(nodes + Int(p)) }
    }

    func contains(_ pack: PackID) -> Bool {
        let p = pack.rawValue
        return p >= 0 && Int(p) < nodeCapacity && nodes[Int(p)].owner >= 0
    }

    /// The list `p` is in, or nil.
    func list(of pack: PackID) -> Int? {
        contains(pack) ? Int(nodes[pack.index].owner) : nil
    }

    func first(_ list: Int = 0) -> PackID? {
        precondition(list < listCount, "no list \(list)")
        let h = ends[list].head
        return h >= 0 ? PackID(rawValue: h) : nil
    }

    func last(_ list: Int = 0) -> PackID? {
        precondition(list < listCount, "no list \(list)")
        let t = ends[list].tail
        return t >= 0 ? PackID(rawValue: t) : nil
    }

    /// The entry after `p` (towards the back), or nil.
    func after(_ pack: PackID) -> PackID? {
        precondition(contains(pack), "\(pack) is in no list")
        let n = nodes[pack.index].next
        return n >= 0 ? PackID(rawValue: n) : nil
    }

    /// The entry before `p` (towards the front), or nil.
    func before(_ pack: PackID) -> PackID? {
        precondition(contains(pack), "\(pack) is in no list")
        let n = nodes[pack.index].prev
        return n >= 0 ? PackID(rawValue: n) : nil
    }

    /// The oldest pack of `list` that is a candidate of `view` and passes `test`, with its
    /// size; nil when none is (a purge passes over held packs and other tiers' packs).
    func oldestCandidate(_ list: Int = 0, of view: PurgeView, where test: (PackID) -> Bool = { _ in true })
        -> (PackID, Int64)?
    {
        var cursor = first(list)
        while let pack = cursor {
            if test(pack), let size = view.candidateSize(pack) { return (pack, size) }
            cursor = after(pack)
        }
        return nil
    }

    /// Appends `p` at the back of `list`, first unlinking it from wherever it was.
    ///
    /// Performance: a pack that is already the newest of its list (a release right after its
    /// request, on every line of a replay) returns here, inlined into the caller; only a
    /// move calls ``relink(_:list:)``.
    @inline(__always)
    func pushBack(_ pack: PackID, list: Int = 0) {
        precondition(pack.rawValue >= 0 && list < listCount, "bad pack \(pack.rawValue) or list \(list)")
        if ends[list].tail == pack.rawValue { return }
        relink(pack, list: list)
    }

    /// ``pushBack(_:list:)`` of a pack that is not the newest of `list`.
    private func relink(_ pack: PackID, list: Int) {
        let p = pack.rawValue
        ensureNode(Int(p))
        if nodes[Int(p)].owner >= 0 { unlink(p) }
        let t = ends[list].tail
        nodes[Int(p)] = Node(prev: t, next: -1, owner: Int32(list))
        if t >= 0 { nodes[Int(t)].next = p } else { ends[list].head = p }
        ends[list].tail = p
        ends[list].count += 1
    }

    /// Unlinks `p`; does nothing if it is in no list.
    func remove(_ pack: PackID) {
        guard contains(pack) else { return }
        unlink(pack.rawValue)
    }

    /// Unlinks `p`, which is in a list.
    @inline(__always)
    private func unlink(_ p: Int32) {
        let node = nodes[Int(p)]
        let list = Int(node.owner)
        if node.prev >= 0 { nodes[Int(node.prev)].next = node.next } else { ends[list].head = node.next }
        if node.next >= 0 { nodes[Int(node.next)].prev = node.prev } else { ends[list].tail = node.prev }
        nodes[Int(p)] = Node()
        ends[list].count -= 1
    }
}
