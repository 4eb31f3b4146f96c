/// A lazily generated, time-ordered stream of events, so memory follows live state and not
/// simulated time.
public protocol EventStream {
    mutating func next() -> ScenarioEvent?
}

/// An ``EventStream`` over an array of events.
public struct ArrayEventStream: EventStream {
    private let events: [ScenarioEvent]
    private var index = 0

    public init(_ events: [ScenarioEvent]) { self.events = events }

    public mutating func next() -> ScenarioEvent? {
        guard index < events.count else { return nil }
        defer { index += 1 }
        return events[index]
    }
}
