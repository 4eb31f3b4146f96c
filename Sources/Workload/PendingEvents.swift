import HeapModule

/// Events a generator has decided but not yet emitted (ends of holds, terminations),
/// ordered by time then creation order: the generator's only live state.
///
/// Each entry carries what the generator needs to rebuild its event (a request key, say)
/// rather than the event itself: plain values move through the heap without reference
/// counting.
struct PendingEvents<Payload: BitwiseCopyable> {
    private struct Item: Comparable {
        let time: Double
        let sequence: Int
        let payload: Payload
        static func < (a: Item, b: Item) -> Bool { (a.time, a.sequence) < (b.time, b.sequence) }
        static func == (a: Item, b: Item) -> Bool { a.time == b.time && a.sequence == b.sequence }
    }

    private var heap = Heap<Item>()
    private var sequence = 0

    var nextTime: Double { heap.min?.time ?? .infinity }
    var isEmpty: Bool { heap.isEmpty }

    mutating func add(_ payload: Payload, at time: Double) {
        heap.insert(Item(time: time, sequence: sequence, payload: payload))
        sequence += 1
    }

    mutating func pop() -> (time: Double, payload: Payload)? {
        heap.popMin().map { ($0.time, $0.payload) }
    }
}
