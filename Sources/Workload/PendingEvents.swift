/// Events a generator has decided but not yet emitted (ends of holds, terminations),
/// ordered by time then creation order: the generator's only live state.
///
/// Each entry carries what the generator needs to rebuild its event (a request key, say)
/// rather than the event itself: plain values move through the heap without reference
/// counting.
///
/// Performance: a plain binary heap of plain values, sifted through one buffer pointer. The
/// popularity generator adds and takes one entry per request, and swift-collections'
/// min-max heap compared twice per level and checked its buffer's uniqueness per call.
struct PendingEvents<Payload: BitwiseCopyable> {
    private struct Item {
        let time: Double
        let sequence: Int
        let payload: Payload

        @inline(__always)
        func precedes(_ other: Item) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    private var items: [Item] = []
    private var sequence = 0

    var nextTime: Double { items.first?.time ?? .infinity }
    var isEmpty: Bool { items.isEmpty }

    mutating func add(_ payload: Payload, at time: Double) {
        items.append(Item(time: time, sequence: sequence, payload: payload))
        sequence += 1
        items.withUnsafeMutableBufferPointer { heap in
            let item = heap[heap.count - 1]
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard item.precedes(heap[parent]) else { break }
                heap[i] = heap[parent]
                i = parent
            }
            heap[i] = item
        }
    }

    mutating func pop() -> (time: Double, payload: Payload)? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return (last.time, last.payload) }
        return items.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            // The last item sinks from the root to its place.
            var i = 0
            let count = heap.count
            while true {
                var child = 2 * i + 1
                guard child < count else { break }
                if child + 1 < count && heap[child + 1].precedes(heap[child]) { child += 1 }
                guard heap[child].precedes(last) else { break }
                heap[i] = heap[child]
                i = child
            }
            heap[i] = last
            return (top.time, top.payload)
        }
    }
}
