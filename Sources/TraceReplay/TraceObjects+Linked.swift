import CPrefetch
import ODRPolicies

extension TraceObjects {
    /// What following a trace's next-access field found.
    enum LinkedScan {
        case scanned(TraceObjects)
        /// The field disagrees with the stream at the record this error names.
        case disagrees(TraceError)
        /// A scan that feeds a run stopped where it would start again (with exact byte
        /// totals): its run cannot follow a scan that starts over.
        case gaveUp
    }

    /// The scan of a trace whose every request says where its object is requested next
    /// (oracleGeneral's `next_access_vtime`, numbered from 1, -1 for never), without hashing
    /// every ID.
    ///
    /// Request `k`'s object is known before it is read: the earlier request that named `k` as
    /// its next access wrote the object's index into ``requests`` at `k`. So only requests
    /// that no one named (first requests) are looked up in ``table``, to number the new
    /// object; a repeat is checked by comparing one ID. The field is believed only as far
    /// as it is checked, completely: a named request must carry the naming request's ID, an
    /// unnamed one must be an ID never seen, no request may be named twice (names given must
    /// equal named requests read), and no name may point past the end. At the first disagreement the scan stops and
    /// says where, and the caller hashes instead; the results are the same either way.
    ///
    /// Performance: on a 5 M-request trace of 732k objects, hashing each ID costs a cache
    /// miss per request in a 32 MB table; here a repeat costs a store ahead in the stream and
    /// one read of an 8-byte ID.
    ///
    /// With a `feed`, the stream is written in the feed's block (one slot per record of the
    /// file) and published to a run that replays behind the scan, a piece at a time, with the
    /// objects each piece named first; the objects' ``requests`` stay empty.
    static func scanLinked(
        path: String, format: TraceFormat, recordRequests: Bool, keepNextAccess: Bool,
        streamBudget: Int, keepTimes: Bool = true, exactTotals: Bool, feed: ScanFeed? = nil
    ) throws(TraceError) -> LinkedScan {
        guard case .oracleGeneral(let compressed) = format else {
            preconditionFailure("only oracleGeneral links its requests")
        }
        let reader = try OracleGeneralReader(path: path, compressed: compressed)
        // The stream doubles as the map of announced requests: -1 where no one has named one.
        // Performance: where the file says how many records it has, the stream is written in
        // the array the runs read, not copied there after (4 bytes a request, and as many
        // fresh pages to fault in: 6 % of a 5 M-request replay of 2,000 objects). The scan's
        // state lives in the closure that writes it, so that none of it is shared by reference
        // (an array reached through a shared box is retained on each read).
        let known = reader.recordCount
        precondition(feed == nil || known == feed!.stream.count, "a feed's stream has a slot for each record")
        var stream = feed == nil ? known.map { [Int32](repeating: -1, count: Swift.max($0, 1)) } ?? [] : []
        var grown: [Int32] = []
        func scanInto(_ block: inout UnsafeMutableBufferPointer<Int32>) throws(TraceError) -> LinkedScan {
            var objects = TraceObjects(fileName: reader.fileName, appNames: reader.appNames, table: ObjectTable())
            objects.keepsStream = streamBudget > 0
            objects.keepsTimes = keepTimes
            objects.objectsPerApp = [0]
            var streamBytes = 0
            var requestedBytes: Int64 = 0
            var bound = RequestedBytesBound()
            // Names given, and named records read: equal exactly when no record was named twice
            // and no name points past the last record.
            var names = 0
            var named = 0
            // The IDs seen, to check that an unnamed request is a new object; the table that
            // maps IDs to objects is made at the end only if the runs will read the file again.
            var seen = ObjectIDSet()
            func disagreement(_ record: Int, _ message: String) -> LinkedScan {
                .disagrees(TraceError(file: reader.fileName, line: nil, message: "record \(record): \(message)"))
            }
            var requests = known == nil ? LinkedStream(capacity: 1 << 16) : LinkedStream(fixed: block)
            defer { requests.deallocate() }
            // A fed run gets the records a piece at a time, small at first so that it starts
            // soon, then larger so that the lock is rarely taken.
            var nextPiece = feed == nil ? Int64.max : 1 << 12
            var publishedObjects = 0
            @inline(never) func publish() {
                feed!.publish(
                    records: Int(objects.requestCount), sizes: objects.objects[publishedObjects...].map(\.size)[...],
                    names: objects.objectID[publishedObjects...])
                publishedObjects = objects.objects.count
                nextPiece = Swift.min(objects.requestCount * 2, objects.requestCount + (1 << 18))
            }
            while let (record, next) = try reader.next() {
                let k = Int(objects.requestCount)
                if requests.count == k { requests.extend(to: k + 1) }
                // What the request a few ahead will read: its object's ID if it is named, else
                // (when that record is already in the reader's buffer) its slot in the table;
                // while the objects are few enough to stay in cache, nothing.
                let ahead = k + TraceReplayer.prefetchDistance
                if objects.objectID.count >= TraceReplayer.prefetchFromPacks {
                    if ahead < requests.count, requests.base[ahead] >= 0 {
                        objects.objectID.withUnsafeBufferPointer {
                            odr_prefetch($0.baseAddress! + Int(requests.base[ahead]))
                        }
                    } else if let id = reader.object(ahead: TraceReplayer.prefetchDistance) {
                        seen.prefetch(id)
                    }
                }
                var index = requests.base[k]
                if index >= 0 {
                    named += 1
                    guard objects.objectID[Int(index)] == record.object else {
                        return disagreement(
                            record.line,
                            """
                            next_access_vtime of an earlier record names this one for object \
                            \(objects.objectID[Int(index)]), but it requests object \(record.object)
                            """
                        )
                    }
                } else {
                    guard seen.insert(record.object) else {
                        return disagreement(
                            record.line,
                            "object \(record.object) was requested before, but no next_access_vtime names this record")
                    }
                    index = Int32(objects.objectID.count)
                    objects.objectID.append(record.object)
                    objects.objects.append(Object(size: record.size, app: 0, local: objects.objectsPerApp[0]))
                    objects.objectsPerApp[0] += 1
                    if keepNextAccess { objects.firstRequest.append(Int32(k)) }
                    bound.note(record.size)
                    requests.base[k] = index
                }
                objects.requestCount += 1
                if next != -1 && next != .max {
                    // A name points within the file when its length is known, else within 2^26
                    // requests (256 MB of stream) of the current one.
                    let reach = known.map(Int64.init) ?? Int64(k) + (1 << 26)
                    guard next > Int64(k + 1), next <= reach else {
                        return disagreement(
                            record.line,
                            "next_access_vtime \(next) is not a later record (records count from 1; -1 means never)")
                    }
                    let at = Int(next) - 1
                    if requests.count <= at { requests.extend(to: at + 1) }
                    // A store, not a read: a record named twice is found by the count below.
                    requests.base[at] = index
                    names += 1
                }
                if keepNextAccess { objects.nextAccess.append(next == -1 || next == .max ? 0 : UInt32(next)) }
                if exactTotals {
                    let (total, overflow) = requestedBytes.addingReportingOverflow(objects.objects[Int(index)].size)
                    guard !overflow else {
                        throw TraceError(
                            file: reader.fileName, line: nil,
                            message: "record \(record.line): the requests up to here total more than \(Int64.max) bytes"
                        )
                    }
                    requestedBytes = total
                } else if bound.mayOverflow(requests: objects.requestCount) {
                    if feed != nil { return .gaveUp }
                    return try scanLinked(
                        path: path, format: format, recordRequests: recordRequests, keepNextAccess: keepNextAccess,
                        streamBudget: streamBudget, keepTimes: keepTimes, exactTotals: true)
                }
                objects.keepTime(record.time, &streamBytes, budget: streamBudget, recordRequests: true)
                if objects.requestCount == nextPiece { publish() }
            }
            if requests.count > Int(objects.requestCount) {
                return disagreement(
                    Int(objects.requestCount), "a next_access_vtime names record \(requests.count), past the last one")
            }
            if names != named {
                return .disagrees(
                    TraceError(
                        file: reader.fileName, line: nil,
                        message: "\(names - named) next_access_vtime fields name a record that another one names too"))
            }
            // The set goes before a grown stream is copied out: both at once would be the scan's peak.
            seen = ObjectIDSet()
            if known == nil { grown = requests.array() }
            if feed != nil { publish() }
            return .scanned(objects)
        }
        let scan: LinkedScan
        if var block = feed?.stream {
            scan = try scanInto(&block)
        } else {
            scan = try stream.withUnsafeMutableBufferPointer(scanInto)
        }
        guard case .scanned(var objects) = scan else { return scan }
        if known == nil { stream = grown }
        if feed == nil {
            stream.removeLast(stream.count - Int(objects.requestCount))
            objects.requests = objects.keepsStream || recordRequests ? stream : []
        }
        if !objects.keepsStream { objects.table = ObjectTable(ids: objects.objectID) }
        objects.hasNextAccess = keepNextAccess
        objects.assignPacks()
        return .scanned(objects)
    }

    /// The future for offline policies from the trace's next-access field: each object's
    /// requests are its first and the chain of next accesses from there, so the rows are
    /// read off the chains without sorting the stream (``scanLinked`` checked the field).
    func futureFromNextAccess() -> FutureRequests {
        precondition(hasNextAccess && objectsPerApp.count <= 1, "next accesses come from one-app binary traces")
        var offsets = [Int](repeating: 0, count: objects.count + 1)
        var ordinals: [UInt32] = []
        ordinals.reserveCapacity(nextAccess.count)
        // With one app an object's index is its pack, so the rows come in pack order.
        for object in objects.indices {
            offsets[object] = ordinals.count
            var ordinal = UInt32(firstRequest[object] + 1)
            while ordinal != 0 {
                ordinals.append(ordinal)
                ordinal = nextAccess[Int(ordinal) - 1]
            }
        }
        offsets[objects.count] = ordinals.count
        return FutureRequests(offsets: offsets, ordinals: ordinals, requestCount: requestCount)
    }
}

/// The linked scan's stream: each record's object index, -1 where no earlier record has
/// named it yet. It doubles as the map of announced requests, so every record writes it
/// twice (its own slot, and the slot its `next_access_vtime` names).
///
/// Performance: a plain block rather than an array, so that those writes are plain stores:
/// no uniqueness check and no bounds trap per write. Every index written is below ``count``:
/// the scan extends the stream to a record before it names or reads it.
private struct LinkedStream {
    private(set) var base: UnsafeMutablePointer<Int32>
    /// Records read or named so far.
    private(set) var count = 0
    /// Every slot below it is -1 until written.
    private var capacity = 0
    /// Whether the stream owns its block and grows it; false for a block lent to it whole.
    private let grows: Bool

    init(capacity: Int) {
        base = regrow(.allocate(capacity: 0), from: 0, to: Swift.max(capacity, 16), filling: -1)
        self.capacity = Swift.max(capacity, 16)
        grows = true
    }

    /// The stream in `block`, every slot -1 and one for each record of the trace: it never grows.
    init(fixed block: UnsafeMutableBufferPointer<Int32>) {
        (base, capacity, grows) = (block.baseAddress!, block.count, false)
    }

    /// Makes records below `length` part of the stream; the new ones are unnamed (-1).
    mutating func extend(to length: Int) {
        if length > capacity {
            precondition(grows, "a trace of \(capacity) records named record \(length)")
            let grown = Swift.max(length, capacity * 2)
            base = regrow(base, from: capacity, to: grown, filling: -1)
            capacity = grown
        }
        count = Swift.max(count, length)
    }

    func array() -> [Int32] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func deallocate() { if grows { base.deallocate() } }
}
