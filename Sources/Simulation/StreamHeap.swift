/// The merger's agenda: one entry per live stream, its next event's time, earliest first;
/// among equal times, the entry scheduled first.
///
/// A plain binary heap of plain values, so that a sift is loads, compares and stores only.
/// (swift-collections' min-max heap does twice the comparisons per level, and the merger
/// replaces its top for almost every event of a run.)
struct StreamHeap {
    private struct Node {
        var time: Double
        var sequence: UInt64
        var stream: Int32

        @inline(__always)
        func precedes(_ other: Node) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    private var nodes: [Node] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { nodes.isEmpty }

    /// The earliest entry's stream and time.
    var top: (stream: Int, time: Double)? {
        guard let first = nodes.first else { return nil }
        return (Int(first.stream), first.time)
    }

    mutating func insert(stream: Int, at time: Double) {
        nodes.append(Node(time: time, sequence: nextSequence, stream: Int32(stream)))
        nextSequence &+= 1
        nodes.withUnsafeMutableBufferPointer { Self.siftUp($0, from: $0.count - 1) }
    }

    /// Gives the earliest entry's stream a new time (and a new place in scheduling order).
    mutating func replaceTop(at time: Double) {
        nodes[0].time = time
        nodes[0].sequence = nextSequence
        nextSequence &+= 1
        nodes.withUnsafeMutableBufferPointer { Self.siftDown($0, from: 0) }
    }

    mutating func removeTop() {
        let last = nodes.removeLast()
        guard !nodes.isEmpty else { return }
        nodes[0] = last
        nodes.withUnsafeMutableBufferPointer { Self.siftDown($0, from: 0) }
    }

    private static func siftUp(_ heap: UnsafeMutableBufferPointer<Node>, from start: Int) {
        let node = heap[start]
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard node.precedes(heap[parent]) else { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = node
    }

    private static func siftDown(_ heap: UnsafeMutableBufferPointer<Node>, from start: Int) {
        let node = heap[start]
        let count = heap.count
        var i = start
        while true {
            var child = 2 * i + 1
            guard child < count else { break }
            if child + 1 < count && heap[child + 1].precedes(heap[child]) { child += 1 }
            guard heap[child].precedes(node) else { break }
            heap[i] = heap[child]
            i = child
        }
        heap[i] = node
    }
}
