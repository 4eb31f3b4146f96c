import ODRCore

/// An indexed binary min-heap of packs by rank: insert, change and remove any pack in
/// O(log n), peek the minimum in O(1).
///
/// Each pack's position is kept in a flat block indexed by its device-wide raw value, so a
/// policy can update a pack's rank when the device notifies it, with no lazy tombstones.
/// Equal ranks leave in the order they were set (each ``set(_:rank:)`` takes the heap's next
/// tick), which makes every key distinct and the order deterministic.
///
/// Performance: a class over manually managed blocks, so that a policy holds it in a `let`
/// and a sift is loads and stores, with no copy-on-write uniqueness checks and no run-time
/// exclusivity checks on the policy's stored properties.
final class PackHeap<Rank: Comparable & BitwiseCopyable> {
    typealias Key = RankedKey<Rank>
    private var keys: UnsafeMutablePointer<Key>
    private var items: UnsafeMutablePointer<Int32>
    private var heapCapacity = 0
    private(set) var count = 0
    /// Heap index of each pack, or -1.
    private var position: UnsafeMutablePointer<Int32>
    private var positionCapacity = 0
    private var tick: UInt64 = 0
    /// The walk of ``bytes(atMost:limit:size:)``: heap indices still to look at.
    private var scratch: [Int] = []

    init() {
        keys = .allocate(capacity: 1)
        items = .allocate(capacity: 1)
        position = .allocate(capacity: 1)
    }

    deinit {
        keys.deallocate()
        items.deallocate()
        position.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    func contains(_ pack: PackID) -> Bool {
        let p = pack.rawValue
        return p >= 0 && Int(p) < positionCapacity && position[Int(p)] >= 0
    }

    func key(of pack: PackID) -> Key? {
        contains(pack) ? keys[Int(position[pack.index])] : nil
    }

    /// The pack with the smallest key.
    var min: (pack: PackID, key: Key)? {
        count == 0 ? nil : (PackID(rawValue: items[0]), keys[0])
    }

    /// Inserts `p` with `rank`, or changes its rank if it is already there; either way it
    /// goes after every pack of equal rank set before.
    func set(_ pack: PackID, rank: Rank) {
        tick += 1
        set(pack, Key(rank: rank, tick: tick))
    }

    /// Inserts `p` with `key` as it was (a popped pack put back), or changes its key.
    func set(_ pack: PackID, _ key: Key) {
        let p = pack.rawValue
        if Int(p) >= positionCapacity {
            let grown = Swift.max(Int(p) + 1, positionCapacity * 2, 64)
            position = regrow(position, from: positionCapacity, to: grown, filling: -1)
            positionCapacity = grown
        }
        let at = Int(position[Int(p)])
        if at >= 0 {
            let old = keys[at]
            keys[at] = key
            if key < old { siftUp(at) } else { siftDown(at) }
        } else {
            if count == heapCapacity {
                let grown = Swift.max(16, heapCapacity * 2)
                keys = regrow(keys, from: count, to: grown, filling: nil)
                items = regrow(items, from: count, to: grown, filling: nil)
                heapCapacity = grown
            }
            keys[count] = key
            items[count] = p
            position[Int(p)] = Int32(count)
            count += 1
            siftUp(count - 1)
        }
    }

    /// Removes `p` if present.
    func remove(_ pack: PackID) {
        guard contains(pack) else { return }
        let p = pack.rawValue
        let at = Int(position[Int(p)])
        let last = count - 1
        position[Int(p)] = -1
        count -= 1
        if at == last { return }
        keys[at] = keys[last]
        items[at] = items[last]
        position[Int(items[at])] = Int32(at)
        if at > 0 && keys[at] < keys[(at - 1) / 2] { siftUp(at) } else { siftDown(at) }
    }

    /// Removes and returns the pack with the smallest key.
    func popMin() -> (pack: PackID, key: Key)? {
        guard let top = min else { return nil }
        remove(top.pack)
        return top
    }

    private func siftUp(_ start: Int) {
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

    private func siftDown(_ start: Int) {
        var i = start
        let n = count
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

/// A heap key ordered by `rank`, then by `tick` (the heap's sequence number that makes
/// every key distinct and breaks ties deterministically: smaller tick first).
struct RankedKey<Rank: Comparable>: Comparable {
    var rank: Rank
    var tick: UInt64

    static func < (a: RankedKey, b: RankedKey) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.tick < b.tick
    }
}

extension PackHeap {
    /// The bytes (`size` of each) of the packs whose rank is at most `rank`, counted until
    /// they reach `limit`: whether an arrival of that rank would be reached before `limit`
    /// bytes of lower packs are gone (GDSF's admission). O(packs counted): a subtree whose
    /// root ranks above `rank` is skipped whole.
    func bytes(atMost rank: Rank, limit: Int64, size: (PackID) -> Int64) -> Int64 {
        var total: Int64 = 0
        // Performance: asked on every miss of a replay that needs room; the walk's stack is
        // kept between calls, so no call allocates once it has grown.
        scratch.removeAll(keepingCapacity: true)
        if count > 0 { scratch.append(0) }
        while let i = scratch.popLast(), total < limit {
            guard keys[i].rank <= rank else { continue }
            total += size(PackID(rawValue: items[i]))
            let left = 2 * i + 1
            if left < count { scratch.append(left) }
            if left + 1 < count { scratch.append(left + 1) }
        }
        return total
    }

    /// Pops packs in key order until the candidates among them free `bytes`, and returns
    /// those candidates (in purge order) with their keys. Packs that are not candidates of
    /// `view` (held, or of the other tier) are put back unchanged.
    ///
    /// The victims leave the heap now: the device purges every victim it is given (or stops
    /// the program), and its later ``PurgePolicy/packRemoved(_:)`` finds them gone.
    func popVictims(toFree bytes: Int64, from view: PurgeView) -> [(pack: PackID, key: Key)] {
        var victims: [(pack: PackID, key: Key)] = []
        var skipped: [(PackID, Key)] = []
        var freed: Int64 = 0
        while freed < bytes, let (p, key) = popMin() {
            if view.isCandidate(p) {
                victims.append((p, key))
                freed += view.info(p).size
            } else {
                skipped.append((p, key))
            }
        }
        for (p, key) in skipped { set(p, key) }
        return victims
    }
}
