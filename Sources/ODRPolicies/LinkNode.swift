/// A pack's node in ``Links``: its neighbours, and the list it is in.
protocol LinkNode: BitwiseCopyable {
    /// How many lists the nodes can tell apart.
    static var lists: Int { get }
    /// The node of a pack in no list.
    init()
    /// The node of a pack in list `owner` between `prev` and `next` (-1: none).
    init(prev: Int32, next: Int32, owner: Int32)
    var prev: Int32 { get set }
    var next: Int32 { get set }
    /// The list the pack is in, or -1.
    var owner: Int32 { get }
}

/// A node of several lists: 12 bytes.
struct ListNode: LinkNode {
    static var lists: Int { Int(Int32.max) }
    var prev: Int32 = -1
    var next: Int32 = -1
    let owner: Int32

    init() { owner = -1 }

    init(prev: Int32, next: Int32, owner: Int32) {
        self.prev = prev
        self.next = next
        self.owner = owner
    }
}

/// A node of one list (a queue: FIFO, LRU): 8 bytes, membership told by `prev`.
///
/// Performance: a trace replay of ten million objects under LRU holds 80 MB of these
/// where ``ListNode``s took 120.
struct QueueNode: LinkNode {
    static var lists: Int { 1 }
    /// The node before, -1 at the front, ``absent`` when the pack is in no list.
    var prev: Int32
    var next: Int32 = -1
    private static var absent: Int32 { -2 }

    init() { prev = Self.absent }

    init(prev: Int32, next: Int32, owner: Int32) {
        precondition(owner == 0 && prev != Self.absent, "a queue node is in list 0")
        self.prev = prev
        self.next = next
    }

    var owner: Int32 { prev == Self.absent ? -1 : 0 }
}
