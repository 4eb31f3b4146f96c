import ODRCore

/// Intrusive doubly linked lists of packs, several lists sharing one set of node arrays.
///
/// A pack is in at most one list at a time. Nodes are flat `Int32` arrays indexed by the
/// pack's device-wide raw value, so every operation is O(1) with no allocation per node
/// (12 bytes per pack). The front of a list is its oldest entry, the back its newest.
struct PackLinks {
    private var prev: [Int32] = []
    private var next: [Int32] = []
    /// The list a pack is in, or -1.
    private var owner: [Int32] = []
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
        if p >= owner.count {
            let grown = Swift.max(p + 1, owner.count * 2, 64)
            prev.append(contentsOf: repeatElement(-1, count: grown - prev.count))
            next.append(contentsOf: repeatElement(-1, count: grown - next.count))
            owner.append(contentsOf: repeatElement(-1, count: grown - owner.count))
        }
    }

    func contains(_ p: Int32) -> Bool {
        Int(p) < owner.count && owner[Int(p)] >= 0
    }

    /// The list `p` is in, or nil.
    func list(of p: Int32) -> Int? {
        contains(p) ? Int(owner[Int(p)]) : nil
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
        let n = next[Int(p)]
        return n >= 0 ? n : nil
    }

    /// The entry before `p` (towards the front), or nil.
    func before(_ p: Int32) -> Int32? {
        let n = prev[Int(p)]
        return n >= 0 ? n : nil
    }

    /// Appends `p` at the back of `list`, first unlinking it from wherever it was.
    mutating func pushBack(_ p: Int32, list: Int = 0) {
        ensureNode(Int(p))
        if owner[Int(p)] >= 0 { remove(p) }
        let i = Int(p)
        let t = tails[list]
        prev[i] = t
        next[i] = -1
        owner[i] = Int32(list)
        if t >= 0 { next[Int(t)] = p } else { heads[list] = p }
        tails[list] = p
        counts[list] += 1
    }

    /// Unlinks `p`; does nothing if it is in no list.
    mutating func remove(_ p: Int32) {
        guard contains(p) else { return }
        let i = Int(p)
        let list = Int(owner[i])
        let b = prev[i]
        let a = next[i]
        if b >= 0 { next[Int(b)] = a } else { heads[list] = a }
        if a >= 0 { prev[Int(a)] = b } else { tails[list] = b }
        prev[i] = -1
        next[i] = -1
        owner[i] = -1
        counts[list] -= 1
    }
}

// Policies keep their indexes (these lists, heaps and arrays) in stored properties marked
// `@exclusivity(unchecked)`: Swift's run-time exclusivity check on class properties costs
// more than the O(1) list operation it guards, and a policy is only ever called by its
// device, one call at a time, never re-entering itself while it modifies its own state.
