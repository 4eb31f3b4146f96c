import HeapModule
import Simulation

/// Events a generator has decided but not yet emitted (ends of holds, terminations),
/// ordered by time then creation order: the generator's only live state.
struct PendingEvents {
    private struct Item: Comparable {
        let time: Double
        let sequence: Int
        let action: ScenarioEvent.Action
        static func < (a: Item, b: Item) -> Bool { (a.time, a.sequence) < (b.time, b.sequence) }
        static func == (a: Item, b: Item) -> Bool { a.time == b.time && a.sequence == b.sequence }
    }

    private var heap = Heap<Item>()
    private var sequence = 0

    var nextTime: Double { heap.min?.time ?? .infinity }
    var isEmpty: Bool { heap.isEmpty }

    mutating func add(_ action: ScenarioEvent.Action, at time: Double) {
        heap.insert(Item(time: time, sequence: sequence, action: action))
        sequence += 1
    }

    mutating func pop() -> ScenarioEvent? {
        heap.popMin().map { ScenarioEvent(time: $0.time, action: $0.action) }
    }
}
