/// Merges the scripted events and every generator's stream into one time-ordered stream.
///
/// Among equal times, events run in the order they were scheduled (each stream's next event
/// is scheduled when its previous one is taken), and at the start in source order: scripted
/// first, then generators as listed. Both the run and the offline-policy pre-pass
/// (``Simulator/requestStream(of:seed:)``) read events through this one type, so they see the
/// same order by construction.
struct StreamMerger {
    private var streams: [any EventStream]
    /// Each live stream's next event (entries of finished streams are stale).
    private var heads: [ScenarioEvent] = []
    private var agenda = StreamHeap()

    init(_ streams: [any EventStream]) {
        self.streams = streams
        for i in self.streams.indices {
            let head = self.streams[i].next()
            heads.append(head ?? ScenarioEvent(time: .infinity, action: .disk(0)))
            if let head { agenda.insert(stream: i, at: head.time) }
        }
    }

    /// The time of the next event, if any.
    var nextTime: Double? { agenda.top?.time }

    mutating func next() -> ScenarioEvent? {
        agenda.isEmpty ? nil : take()
    }

    /// The next event; there must be one (``nextTime`` is not nil).
    ///
    /// Performance: the run loop calls this rather than ``next()``: an optional of an event
    /// is copied and destroyed through the runtime's generic witnesses, at a cost of a few
    /// hundred instructions per event.
    mutating func take() -> ScenarioEvent {
        // The earliest stream's event; its successor takes its place in one pass.
        let (i, time) = agenda.top!
        guard var event = streams[i].next() else {
            agenda.removeTop()
            return heads[i]
        }
        precondition(event.time >= time, "event stream \(i) went back in time (\(event.time) < \(time))")
        // Performance: swapped, not assigned, so the events are moved and never copied.
        swap(&event, &heads[i])
        agenda.replaceTop(at: heads[i].time)
        return event
    }
}
