import Foundation

/// What a linked scan (``TraceObjects/scanLinked``) on one thread hands a run that replays
/// behind it on another (``TraceReplayer/replayBehindScan``): the decoded stream, final up to
/// the records published so far, and the objects those records named first.
///
/// The stream is a block of one `Int32` a record (the file's record count, known before the
/// scan), every slot -1 until written, that the scan writes and the run reads. A slot below
/// ``Piece/records`` is never written again: the scan writes a record's own slot while it
/// reads it, and the slots of later records it names. The lock that publishes a piece orders
/// those writes before the run's reads. The scan never waits for the run, so it ends the same
/// way whatever the run does; the run may stop reading at any time.
final class ScanFeed: @unchecked Sendable {
    /// Records of the trace, and its stream.
    let stream: UnsafeMutableBufferPointer<Int32>
    private let condition = NSCondition()
    private var published = 0
    private var sizes: [Int64] = []
    private var names: [UInt64] = []
    private var outcome: Outcome?

    /// How the scan ended.
    enum Outcome {
        /// It read the whole trace, of this many requests. Its object tables are not kept: they
        /// are freed as the scan ends, while the run may still be replaying.
        case scanned(requests: Int64)
        /// It stopped where hashing must take over (the next-access field disagrees with the
        /// stream), or where it would start again (byte totals near `Int64.max`).
        case gaveUp
        case failed(TraceError)
    }

    /// Records that are final, and the sizes and names of the objects they named first, in
    /// order, since the last piece.
    struct Piece {
        let records: Int
        let sizes: [Int64]
        let names: [UInt64]
    }

    init(records: Int) {
        stream = .allocate(capacity: Swift.max(records, 1))
        stream.initialize(repeating: -1)
    }

    deinit { stream.deallocate() }

    /// The scan: records below `records` are final, and these objects were first named by them.
    func publish(records: Int, sizes more: ArraySlice<Int64>, names moreNames: ArraySlice<UInt64>) {
        condition.lock()
        published = records
        sizes.append(contentsOf: more)
        names.append(contentsOf: moreNames)
        condition.signal()
        condition.unlock()
    }

    /// The scan ended (after its last piece).
    func end(_ outcome: Outcome) {
        condition.lock()
        self.outcome = outcome
        condition.signal()
        condition.unlock()
    }

    /// The run: waits for records past `done` and returns them with their new objects; nil
    /// once the scan has ended and published nothing more.
    func next(after done: Int) -> Piece? {
        condition.lock()
        defer { condition.unlock() }
        while published <= done && outcome == nil { condition.wait() }
        guard published > done else { return nil }
        defer { (sizes, names) = ([], []) }
        return Piece(records: published, sizes: sizes, names: names)
    }

    /// The run: waits for the scan's end.
    func ending() -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return outcome!
    }
}
