/// Merges the scenario's network phases, its scripted events and every generator's stream
/// into one time-ordered stream: every change of the link, scripted or generated, takes this
/// one route to the run.
///
/// Among equal times, network phases run first, then every scripted event (in file order),
/// then the generators' events in the order they were scheduled (each stream's next event is scheduled when its
/// previous one is taken; at the start, generators as listed). Both the run and the offline-policy pre-pass
/// (``ScenarioStreams/requests(of:seed:)``) read events through this one type, so they see the
/// same order by construction.
///
/// Performance: streams and their next events live in storage allocated once and written
/// through pointers, so taking an event runs no copy-on-write check.
///
/// ```swift
/// let events = ScenarioStreams.merger(scenario, seed: scenario.seed)
/// while let time = events.nextTime, time <= scenario.duration {
///     let event = events.take()
/// }
/// ```
public final class StreamMerger: IteratorProtocol {
    private let count: Int
    private let streams: UnsafeMutablePointer<any EventStream>
    /// Each stream's next event (a finished stream's entry is stale).
    private let heads: UnsafeMutablePointer<ScenarioEvent>
    private let agenda: StreamTournament
    /// The stream of the scripted events (after the network phases).
    private static let scripted = 1
    /// Scripted events taken so far.
    private var scriptedTaken = 0
    /// The index in ``Scenario/events`` of the event last taken, if it was a scripted one.
    public private(set) var lastScriptedIndex: Int?

    /// `network` (the link's phases), `scripted` (the scenario's events), then `generated`.
    convenience init(network: [ScenarioEvent], scripted: [ScenarioEvent], generated: [any EventStream]) {
        self.init([ArrayEventStream(network), ArrayEventStream(scripted)] + generated)
    }

    private init(_ sources: [any EventStream]) {
        count = sources.count
        streams = .allocate(capacity: max(count, 1))
        heads = .allocate(capacity: max(count, 1))
        var times: [Double?] = []
        for (i, source) in sources.enumerated() {
            (streams + i).initialize(to: source)
            let head = streams[i].next()
            (heads + i).initialize(to: head ?? ScenarioEvent(time: .infinity, action: .disk(0)))
            times.append(head?.time)
        }
        agenda = StreamTournament(times: times, ranked: Self.scripted + 1)
    }

    deinit {
        streams.deinitialize(count: count)
        streams.deallocate()
        heads.deinitialize(count: count)
        heads.deallocate()
    }

    /// The time of the next event, if any.
    public var nextTime: Double? { agenda.winner.map { heads[$0].time } }

    public func next() -> ScenarioEvent? {
        agenda.winner == nil ? nil : take()
    }

    /// The next event; there must be one (``nextTime`` is not nil).
    ///
    /// Performance: the run loop calls this rather than ``next()``: an optional of an event
    /// is copied and destroyed through the runtime's generic witnesses, at a cost of a few
    /// hundred instructions per event.
    public func take() -> ScenarioEvent {
        // The earliest stream's event; its successor takes its place.
        let i = agenda.winner!
        let time = heads[i].time
        if i == Self.scripted {
            lastScriptedIndex = scriptedTaken
            scriptedTaken += 1
        } else {
            lastScriptedIndex = nil
        }
        guard var event = streams[i].next() else {
            agenda.finishTop()
            return heads[i]
        }
        precondition(event.time >= time, "event stream \(i) went back in time (\(event.time) < \(time))")
        // Performance: swapped, not assigned, so the events are moved and never copied.
        swap(&event, &heads[i])
        agenda.replaceTop(at: heads[i].time)
        return event
    }
}
