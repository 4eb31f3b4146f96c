import ODRCore
import ODRPolicies

/// What the first pass over a trace learns: every distinct object with its app, its size
/// and its place in its app's catalog, and (for offline policies) the request stream.
///
/// The device's catalogs are fixed when an app is added, and a trace reveals its objects
/// only as it goes, so the replay reads the trace first to collect the distinct objects
/// (about 50 bytes each). This pass also keeps the decoded stream (4 bytes a request for the
/// object index, and each time once: traces repeat a time for many consecutive requests)
/// while it fits the replayer's budget, so the policies' runs need not parse the file
/// again; past the budget it drops the stream and each run reads the file again (memory
/// O(distinct objects), plus 4 bytes a request when an offline policy needs the future).
///
/// An object's size is its first-seen size (a later line's size is not used: a pack has one
/// size), and an object belongs to the app it first appeared with.
struct TraceObjects {
    var fileName: String
    var appNames: [String]
    var table: ObjectTable
    /// What the replay needs of one object, kept together: 16 bytes, one cache line per request.
    struct Object {
        var size: Int64
        var app: Int32
        /// Index in its app's catalog (its tag and its pack there).
        var local: Int32
    }
    /// Each app's first device-wide pack, set by ``assignPacks()``: apps' packs are contiguous.
    var firstPack: [Int32] = []
    /// Per object, in order of first appearance.
    var objects: [Object] = []
    var objectID: [UInt64] = []
    var objectsPerApp: [Int32] = []
    var requestCount: Int64 = 0
    /// The device-wide pack of each request, when recorded (for the future or the kept
    /// stream). With one app, an object's index is its pack.
    var requests: [Int32] = []
    /// The kept stream's times, run-length encoded: request `timeStarts[k]` (0-based) and
    /// those after it, up to the next start, happen at `timeValues[k]`.
    var timeStarts: [Int32] = []
    var timeValues: [Double] = []
    /// Whether ``requests`` and ``times`` hold the whole trace for the runs to replay.
    var keepsStream = false
    /// Whether the kept stream keeps times (``timeStarts``, ``timeValues``); without them a
    /// replay gives each request its ordinal (1, 2, …) as its time.
    var keepsTimes = true
    /// Per request, the ordinal (from 1) of the next request for the same object, 0 for none:
    /// the trace's own `next_access_vtime`, checked against the stream as it is read. Kept
    /// only when asked for and the format carries it.
    var nextAccess: [UInt32] = []
    /// Per object, the index (from 0) of its first request, alongside ``nextAccess``.
    var firstRequest: [Int32] = []
    /// Whether ``nextAccess`` and ``firstRequest`` were kept.
    var hasNextAccess = false
    /// Why the trace's next-access field was not used: the first record where it disagrees
    /// with the stream.
    var nextAccessProblem: TraceError?

    /// `exactTotals`: sum each request's bytes (a read of its object's record, a cache miss on
    /// large traces); otherwise the bound requests × largest size rules overflow out, and
    /// only when it cannot does the scan start again with exact sums.
    ///
    /// A format that carries each request's next access (oracleGeneral) is scanned by
    /// following it (``scanLinked``); where the field disagrees with the stream, by hashing
    /// the IDs, with ``nextAccessProblem`` saying why. `useNextAccess`: also keep the field
    /// for the future (see ``nextAccess``), which needs `recordRequests`.
    ///
    /// `keepTimes`: keep each request's time in the stream (the replay's policies read times).
    static func scan(
        path: String, format: TraceFormat, recordRequests: Bool, useNextAccess: Bool = false,
        streamBudget: Int, keepTimes: Bool = true, exactTotals: Bool = false
    ) throws(TraceError) -> TraceObjects {
        var objects = try scanAny(
            path: path, format: format, recordRequests: recordRequests, useNextAccess: useNextAccess,
            streamBudget: streamBudget, keepTimes: keepTimes, exactTotals: exactTotals)
        // The IDs outlive the scan as the catalogs' names: without the spare capacity that
        // growing left (up to as much again: 60 MB at ten million objects).
        objects.objectID = objects.objectID.withUnsafeBufferPointer { Array($0) }
        return objects
    }

    /// ``scan(path:format:recordRequests:useNextAccess:streamBudget:keepTimes:exactTotals:)``
    /// by following the next-access field where the format carries it, else by hashing.
    private static func scanAny(
        path: String, format: TraceFormat, recordRequests: Bool, useNextAccess: Bool,
        streamBudget: Int, keepTimes: Bool, exactTotals: Bool
    ) throws(TraceError) -> TraceObjects {
        guard format.carriesNextAccess else {
            return try scanHashing(
                path: path, format: format, recordRequests: recordRequests, streamBudget: streamBudget,
                keepTimes: keepTimes, exactTotals: exactTotals)
        }
        switch try scanLinked(
            path: path, format: format, recordRequests: recordRequests,
            keepNextAccess: useNextAccess && recordRequests, streamBudget: streamBudget, keepTimes: keepTimes,
            exactTotals: exactTotals)
        {
        case .scanned(let objects):
            return objects
        case .gaveUp:
            preconditionFailure("only a scan that feeds a run gives up")
        case .disagrees(let problem):
            var objects = try scanHashing(
                path: path, format: format, recordRequests: recordRequests, streamBudget: streamBudget,
                keepTimes: keepTimes, exactTotals: exactTotals)
            objects.nextAccessProblem = problem
            return objects
        }
    }

    /// The scan of any format: each request's object found by its ID in ``table``.
    static func scanHashing(
        path: String, format: TraceFormat, recordRequests: Bool,
        streamBudget: Int, keepTimes: Bool = true, exactTotals: Bool = false
    ) throws(TraceError) -> TraceObjects {
        let reader = try TraceInput(path: path, format: format)
        var objects = TraceObjects(fileName: reader.fileName, appNames: [], table: ObjectTable())
        objects.keepsStream = streamBudget > 0
        objects.keepsTimes = keepTimes
        var streamBytes = 0
        // Every byte count of a replay (requested, missed, stored) is at most the requested
        // bytes' total, so checking this one sum keeps them all from overflowing.
        var requestedBytes: Int64 = 0
        var bound = RequestedBytesBound()
        while let record = try reader.next() {
            let (index, inserted, firstApp) = objects.table.findOrInsert(record.object, tag: record.app)
            let app = Int(record.app)
            if inserted {
                while objects.objectsPerApp.count <= app { objects.objectsPerApp.append(0) }
                objects.objectID.append(record.object)
                objects.objects.append(Object(size: record.size, app: record.app, local: objects.objectsPerApp[app]))
                objects.objectsPerApp[app] += 1
            } else if firstApp != record.app {
                throw TraceError(
                    file: reader.fileName, line: record.line,
                    message:
                        """
                        object \(record.object) belongs to app '\(reader.appNames[Int(firstApp)])' (its first line), \
                        not '\(reader.appNames[app])'
                        """
                )
            }
            objects.requestCount += 1
            if exactTotals {
                let (total, overflow) = requestedBytes.addingReportingOverflow(objects.objects[Int(index)].size)
                guard !overflow else {
                    throw TraceError(
                        file: reader.fileName, line: record.line,
                        message: "the requests up to this line total more than \(Int64.max) bytes")
                }
                requestedBytes = total
            } else {
                if inserted { bound.note(record.size) }
                if bound.mayOverflow(requests: objects.requestCount) {
                    return try scanHashing(
                        path: path, format: format, recordRequests: recordRequests,
                        streamBudget: streamBudget, keepTimes: keepTimes, exactTotals: true)
                }
            }
            objects.keepTime(record.time, &streamBytes, budget: streamBudget, recordRequests: recordRequests)
            if recordRequests || objects.keepsStream { objects.requests.append(index) }
        }
        objects.appNames = reader.appNames
        while objects.objectsPerApp.count < objects.appNames.count { objects.objectsPerApp.append(0) }
        objects.assignPacks()
        if objects.objectsPerApp.count > 1 {
            // Objects were numbered in order of first appearance across apps; the stream
            // names device-wide packs (apps' packs are contiguous).
            for k in objects.requests.indices {
                objects.requests[k] = objects.pack(of: objects.objects[Int(objects.requests[k])])
            }
        }
        return objects
    }

    /// Frees what only a run that reads the file again needs (the object table and the
    /// per-object records), and trims the kept stream's spare capacity.
    mutating func dropLookup() {
        table = ObjectTable(minimumCapacity: 1)
        objects = []
        objectID = []
        requests = requests.withUnsafeBufferPointer { Array($0) }
    }

    /// Keeps a request's time in the stream (run-length encoded), and gives up keeping the
    /// stream once it passes `budget` bytes.
    @inline(__always)
    mutating func keepTime(_ time: Double, _ streamBytes: inout Int, budget: Int, recordRequests: Bool) {
        guard keepsStream else { return }
        streamBytes += 4
        if keepsTimes && timeValues.last != time {
            timeStarts.append(Int32(truncatingIfNeeded: requestCount - 1))
            timeValues.append(time)
            streamBytes += 12
        }
        if streamBytes > budget || requestCount > Int64(Int32.max) {
            // Over budget: from here on, runs read the file again.
            keepsStream = false
            timeStarts = []
            timeValues = []
            if !recordRequests { requests = [] }
        }
    }

    /// Device-wide pack of each object: apps are added in order, their packs contiguous, so
    /// with one app an object's pack is its index.
    mutating func assignPacks() {
        firstPack = []
        var next: Int32 = 0
        for count in objectsPerApp {
            firstPack.append(next)
            next += count
        }
    }

    /// The device-wide pack of `object` (after ``assignPacks()``).
    @inline(__always)
    func pack(of object: Object) -> Int32 { firstPack[Int(object.app)] + object.local }

    /// One catalog per app: each object is a single-resource tag, hence one pack, named by
    /// its object ID; tag `i` and pack `i` of an app are its `i`-th object. The catalogs are
    /// numbered (``Catalog/init(numberedTags:names:profile:)``): 8 bytes an object, the IDs shared.
    func catalogs() throws(TraceError) -> [Catalog] {
        var sizes = objectsPerApp.map { count -> [Int64] in
            var list: [Int64] = []
            list.reserveCapacity(Int(count))
            return list
        }
        var names = objectsPerApp.count == 1 ? [objectID] : objectsPerApp.map { _ in [UInt64]() }
        for (i, object) in objects.enumerated() {
            sizes[Int(object.app)].append(object.size)
            if objectsPerApp.count > 1 { names[Int(object.app)].append(objectID[i]) }
        }
        var catalogs: [Catalog] = []
        for a in sizes.indices {
            do {
                catalogs.append(try Catalog(numberedTags: sizes[a], names: names[a], profile: .unlimited))
            } catch {
                throw TraceError(file: fileName, line: nil, message: "app '\(appNames[a])': \(error)")
            }
        }
        return catalogs
    }
}

/// Whether requests × the largest size seen could pass `Int64.max`, so that the byte totals
/// must be summed with overflow checks: the exact test `largest > Int64.max / requests`,
/// with the division made once per new largest size instead of once per request (a
/// division is tens of cycles, and the scan reads millions of records).
struct RequestedBytesBound {
    private var largest: Int64 = 0
    /// The most requests that cannot overflow at the current largest size.
    private var limit = Int64.max

    mutating func note(_ size: Int64) {
        guard size > largest else { return }
        largest = size
        limit = Int64.max / size
    }

    /// For positive integers, `largest > max / n` exactly when `n > max / largest`.
    func mayOverflow(requests: Int64) -> Bool { requests > limit }
}
