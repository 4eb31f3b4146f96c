import ODRCore

/// An indexed binary min-heap of packs by `Key`: insert, change and remove any pack in
/// O(log n), peek the minimum in O(1).
///
/// Each pack's position is kept in a flat array indexed by its device-wide raw value, so a
/// policy can update a pack's key when the device notifies it, with no lazy tombstones.
/// Keys must be totally ordered and distinct where order matters (policies add a tick).
struct PackHeap<Key: Comparable> {
    private var keys: [Key] = []
    private var items: [Int32] = []
    /// Heap index of each pack, or -1.
    private var position: [Int32] = []

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }

    func contains(_ p: Int32) -> Bool {
        Int(p) < position.count && position[Int(p)] >= 0
    }

    func key(of p: Int32) -> Key? {
        contains(p) ? keys[Int(position[Int(p)])] : nil
    }

    /// The pack with the smallest key.
    var min: (pack: Int32, key: Key)? {
        items.isEmpty ? nil : (items[0], keys[0])
    }

    /// Inserts `p` with `key`, or changes its key if it is already there.
    mutating func set(_ p: Int32, _ key: Key) {
        if p >= position.count {
            let grown = Swift.max(Int(p) + 1, position.count * 2, 64)
            position.append(contentsOf: repeatElement(-1, count: grown - position.count))
        }
        let at = Int(position[Int(p)])
        if at >= 0 {
            let old = keys[at]
            keys[at] = key
            if key < old { siftUp(at) } else { siftDown(at) }
        } else {
            keys.append(key)
            items.append(p)
            position[Int(p)] = Int32(items.count - 1)
            siftUp(items.count - 1)
        }
    }

    /// Removes `p` if present.
    mutating func remove(_ p: Int32) {
        guard contains(p) else { return }
        let at = Int(position[Int(p)])
        let last = items.count - 1
        position[Int(p)] = -1
        if at == last {
            keys.removeLast()
            items.removeLast()
            return
        }
        keys[at] = keys[last]
        items[at] = items[last]
        position[Int(items[at])] = Int32(at)
        keys.removeLast()
        items.removeLast()
        if at > 0 && keys[at] < keys[(at - 1) / 2] { siftUp(at) } else { siftDown(at) }
    }

    /// Removes and returns the pack with the smallest key.
    mutating func popMin() -> (pack: Int32, key: Key)? {
        guard let top = min else { return nil }
        remove(top.pack)
        return top
    }

    // The sifts work on unsafe buffers: one uniqueness check per sift instead of three per
    // level (keys, items, positions), which dominated the heap policies' replay time.
    private mutating func siftUp(_ start: Int) {
        keys.withUnsafeMutableBufferPointer { keys in
            items.withUnsafeMutableBufferPointer { items in
                position.withUnsafeMutableBufferPointer { position in
                    var i = start
                    let key = keys[i]
                    let item = items[i]
                    while i > 0 {
                        let parent = (i - 1) / 2
                        guard key < keys[parent] else { break }
                        keys[i] = keys[parent]
                        items[i] = items[parent]
                        position[Int(items[i])] = Int32(i)
                        i = parent
                    }
                    keys[i] = key
                    items[i] = item
                    position[Int(item)] = Int32(i)
                }
            }
        }
    }

    private mutating func siftDown(_ start: Int) {
        keys.withUnsafeMutableBufferPointer { keys in
            items.withUnsafeMutableBufferPointer { items in
                position.withUnsafeMutableBufferPointer { position in
                    var i = start
                    let n = items.count
                    let key = keys[i]
                    let item = items[i]
                    while true {
                        let left = 2 * i + 1
                        guard left < n else { break }
                        var child = left
                        if left + 1 < n && keys[left + 1] < keys[left] { child = left + 1 }
                        guard keys[child] < key else { break }
                        keys[i] = keys[child]
                        items[i] = items[child]
                        position[Int(items[i])] = Int32(i)
                        i = child
                    }
                    keys[i] = key
                    items[i] = item
                    position[Int(item)] = Int32(i)
                }
            }
        }
    }
}

/// A heap key ordered by `rank`, then by `tick` (a policy-local sequence number that makes
/// every key distinct and breaks ties deterministically: smaller tick first).
struct RankedKey<Rank: Comparable>: Comparable {
    var rank: Rank
    var tick: UInt64

    static func < (a: RankedKey, b: RankedKey) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.tick < b.tick
    }
}

extension PackHeap {
    /// Pops packs in key order until the candidates among them free `bytes`, and returns
    /// those candidates (in purge order) with their keys. Packs that are not candidates of
    /// `view` (held, or of the other tier) are put back unchanged.
    ///
    /// The victims leave the heap now: the device purges every victim it is given (or stops
    /// the program), and its later ``PurgePolicy/packRemoved(_:)`` finds them gone.
    mutating func popVictims(toFree bytes: Int64, from view: PurgeView) -> [(pack: PackID, key: Key)] {
        var victims: [(pack: PackID, key: Key)] = []
        var skipped: [(Int32, Key)] = []
        var freed: Int64 = 0
        while freed < bytes, let (p, key) = popMin() {
            let id = PackID(rawValue: p)
            if view.isCandidate(id) {
                victims.append((id, key))
                freed += view.info(id).size
            } else {
                skipped.append((p, key))
            }
        }
        for (p, key) in skipped { set(p, key) }
        return victims
    }
}
