import HeapModule

/// The kernel's agenda: a heap of entries ordered by (time, priority, sequence).
///
/// The sequence number is given out at scheduling time, so entries with equal time and
/// priority run in the order they were scheduled, and a run is reproducible bit for bit.
///
/// The queue is `@inlinable` so that clients in other modules get it specialized for their
/// payload type instead of running generic code through witness tables.
@frozen
public struct EventQueue<Payload> {
    @frozen
    public struct Entry: Comparable {
        public let time: Double
        public let priority: UInt8
        public let sequence: UInt64
        public let payload: Payload

        @inlinable
        init(time: Double, priority: UInt8, sequence: UInt64, payload: Payload) {
            self.time = time
            self.priority = priority
            self.sequence = sequence
            self.payload = payload
        }

        @inlinable
        public static func < (a: Entry, b: Entry) -> Bool {
            if a.time != b.time { return a.time < b.time }
            if a.priority != b.priority { return a.priority < b.priority }
            return a.sequence < b.sequence
        }

        @inlinable
        public static func == (a: Entry, b: Entry) -> Bool {
            a.time == b.time && a.priority == b.priority && a.sequence == b.sequence
        }
    }

    @usableFromInline var heap = Heap<Entry>()
    @usableFromInline var nextSequence: UInt64 = 0

    @inlinable public init() {}

    @inlinable public var isEmpty: Bool { heap.isEmpty }
    @inlinable public var count: Int { heap.count }

    /// Schedules `payload` at `time`; lower `priority` runs first among equal times.
    @inlinable
    public mutating func schedule(_ payload: Payload, at time: Double, priority: UInt8 = 0) {
        heap.insert(Entry(time: time, priority: priority, sequence: nextSequence, payload: payload))
        nextSequence &+= 1
    }

    /// Removes and returns the earliest entry.
    @inlinable public mutating func pop() -> Entry? { heap.popMin() }

    /// The earliest entry's time.
    @inlinable public var nextTime: Double? { heap.min?.time }

    /// The earliest entry, left in place.
    @inlinable public var earliest: Entry? { heap.min }
}
