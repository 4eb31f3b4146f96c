import ODRCore

/// Intrusive doubly linked lists of packs, several lists sharing one set of node arrays.
///
/// A pack is in at most one list at a time. Nodes live in one flat array indexed by the
/// pack's device-wide raw value, so every operation is O(1) with no allocation per node
/// (12 bytes per pack, one cache line touched per node). The front of a list is its oldest
/// entry, the back its newest.
struct PackLinks {
    private struct Node {
        var prev: Int32 = -1
        var next: Int32 = -1
        /// The list the pack is in, or -1.
        var owner: Int32 = -1
    }
    private var nodes: [Node] = []
    private var heads: [Int32]
    private var tails: [Int32]
    private(set) var counts: [Int]

    init(lists: Int = 1) {
        heads = Array(repeating: -1, count: lists)
        tails = Array(repeating: -1, count: lists)
        counts = Array(repeating: 0, count: lists)
    }

    var listCount: Int { heads.count }

    /// Makes room for list `list` (lists are created on first use).
    mutating func ensureList(_ list: Int) {
        while heads.count <= list {
            heads.append(-1)
            tails.append(-1)
            counts.append(0)
        }
    }

    private mutating func ensureNode(_ p: Int) {
        if p >= nodes.count {
            let grown = Swift.max(p + 1, nodes.count * 2, 64)
            nodes.append(contentsOf: repeatElement(Node(), count: grown - nodes.count))
        }
    }

    func contains(_ p: Int32) -> Bool {
        Int(p) < nodes.count && nodes[Int(p)].owner >= 0
    }

    /// The list `p` is in, or nil.
    func list(of p: Int32) -> Int? {
        contains(p) ? Int(nodes[Int(p)].owner) : nil
    }

    func first(_ list: Int = 0) -> Int32? {
        let h = heads[list]
        return h >= 0 ? h : nil
    }

    func last(_ list: Int = 0) -> Int32? {
        let t = tails[list]
        return t >= 0 ? t : nil
    }

    /// The entry after `p` (towards the back), or nil.
    func after(_ p: Int32) -> Int32? {
        let n = nodes[Int(p)].next
        return n >= 0 ? n : nil
    }

    /// The entry before `p` (towards the front), or nil.
    func before(_ p: Int32) -> Int32? {
        let n = nodes[Int(p)].prev
        return n >= 0 ? n : nil
    }

    /// Appends `p` at the back of `list`, first unlinking it from wherever it was.
    mutating func pushBack(_ p: Int32, list: Int = 0) {
        // Already the newest of this list (a release right after a request): nothing to do.
        if tails[list] == p { return }
        ensureNode(Int(p))
        remove(p)
        let t = tails[list]
        // One uniqueness check for all the node writes, not one per write.
        nodes.withUnsafeMutableBufferPointer { n in
            n[Int(p)] = Node(prev: t, next: -1, owner: Int32(list))
            if t >= 0 { n[Int(t)].next = p }
        }
        if t < 0 { heads[list] = p }
        tails[list] = p
        counts[list] += 1
    }

    /// Unlinks `p`; does nothing if it is in no list.
    mutating func remove(_ p: Int32) {
        guard contains(p) else { return }
        let node = nodes[Int(p)]
        let list = Int(node.owner)
        nodes.withUnsafeMutableBufferPointer { n in
            if node.prev >= 0 { n[Int(node.prev)].next = node.next }
            if node.next >= 0 { n[Int(node.next)].prev = node.prev }
            n[Int(p)] = Node()
        }
        if node.prev < 0 { heads[list] = node.next }
        if node.next < 0 { tails[list] = node.prev }
        counts[list] -= 1
    }
}

// Policies keep their indexes (these lists, heaps and arrays) in stored properties marked
// `@exclusivity(unchecked)`: Swift's run-time exclusivity check on class properties costs
// more than the O(1) list operation it guards, and a policy is only ever called by its
// device, one call at a time, never re-entering itself while it modifies its own state.
