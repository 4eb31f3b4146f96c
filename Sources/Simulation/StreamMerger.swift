/// Merges the scripted events and every generator's stream into one time-ordered stream.
///
/// Among equal times, events run in the order they were scheduled (each stream's next event
/// is scheduled when its previous one is taken), and at the start in source order: scripted
/// first, then generators as listed. Both the run and the offline-policy pre-pass
/// (``Simulator/requestStream(of:seed:)``) read events through this one type, so they see the
/// same order by construction.
struct StreamMerger {
    private var streams: [any EventStream]
    private var heads: [ScenarioEvent?]
    private var queue = EventQueue<Int>()

    init(_ streams: [any EventStream]) {
        self.streams = streams
        heads = []
        for i in self.streams.indices {
            let head = self.streams[i].next()
            heads.append(head)
            if let head { queue.schedule(i, at: head.time) }
        }
    }

    /// The time of the next event, if any.
    var nextTime: Double? { queue.nextTime }

    mutating func next() -> ScenarioEvent? {
        // The earliest stream's event; its next one takes its place in the queue in one step.
        guard let i = queue.nextPayload, let event = heads[i] else { return nil }
        heads[i] = streams[i].next()
        if let head = heads[i] {
            precondition(head.time >= event.time, "event stream \(i) went back in time (\(head.time) < \(event.time))")
            _ = queue.replaceNext(with: i, at: head.time)
        } else {
            _ = queue.pop()
        }
        return event
    }
}
