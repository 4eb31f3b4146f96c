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
    /// What the replay needs of one object, kept together: one cache line per request.
    struct Object {
        var size: Int64
        var app: Int32
        /// Index in its app's catalog (its tag and its pack there).
        var local: Int32
        /// Device-wide pack, set by ``assignPacks()``.
        var pack: Int32 = -1
    }
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
    /// `useNextAccess`: keep the format's next-access field (see ``nextAccess``), which
    /// needs `recordRequests`.
    static func scan(path: String, format: TraceFormat, recordRequests: Bool, useNextAccess: Bool = false,
                     streamBudget: Int, exactTotals: Bool = false) throws(TraceError) -> TraceObjects {
        let reader = try TraceInput(path: path, format: format)
        var checksNext = useNextAccess && recordRequests && format.carriesNextAccess
        // While checking: the latest request of each object, whose next-access must name the next one.
        var latest: [Int32] = []
        var objects = TraceObjects(fileName: reader.fileName, appNames: [], table: ObjectTable())
        objects.keepsStream = streamBudget > 0
        var streamBytes = 0
        // Every byte count of a replay (requested, missed, stored) is at most the requested
        // bytes' total, so checking this one sum keeps them all from overflowing.
        var requestedBytes: Int64 = 0
        var largest: Int64 = 0
        while let (record, next) = try reader.nextWithNextAccess() {
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
                    message: "object \(record.object) belongs to app '\(reader.appNames[Int(firstApp)])' (its first line), not '\(reader.appNames[app])'")
            }
            objects.requestCount += 1
            if exactTotals {
                let (total, overflow) = requestedBytes.addingReportingOverflow(objects.objects[Int(index)].size)
                guard !overflow else {
                    throw TraceError(file: reader.fileName, line: record.line,
                                     message: "the requests up to this line total more than \(Int64.max) bytes")
                }
                requestedBytes = total
            } else {
                if inserted && record.size > largest { largest = record.size }
                if largest > Int64.max / objects.requestCount {
                    return try scan(path: path, format: format, recordRequests: recordRequests, useNextAccess: useNextAccess,
                                    streamBudget: streamBudget, exactTotals: true)
                }
            }
            if objects.keepsStream {
                streamBytes += 4
                if objects.timeValues.last != record.time {
                    objects.timeStarts.append(Int32(truncatingIfNeeded: objects.requestCount - 1))
                    objects.timeValues.append(record.time)
                    streamBytes += 12
                }
                if streamBytes > streamBudget || objects.requestCount > Int64(Int32.max) {
                    // Over budget: from here on, runs read the file again.
                    objects.keepsStream = false
                    objects.timeStarts = []
                    objects.timeValues = []
                    if !recordRequests { objects.requests = [] }
                }
            }
            if recordRequests || objects.keepsStream { objects.requests.append(index) }
            if checksNext {
                do {
                    try objects.check(next: next, of: record, index: index, inserted: inserted, latest: &latest, file: reader.fileName)
                } catch {
                    // The field is wrong (or not filled in): the future comes from the stream instead.
                    objects.nextAccessProblem = error
                    checksNext = false
                    (objects.nextAccess, objects.firstRequest, latest) = ([], [], [])
                }
            }
        }
        if checksNext, let (object, last) = latest.enumerated().first(where: { objects.nextAccess[Int($0.element)] != 0 }) {
            objects.nextAccessProblem = TraceError(
                file: reader.fileName, line: nil,
                message: "record \(last + 1): next_access_vtime is \(objects.nextAccess[Int(last)]), but object \(objects.objectID[object]) is not requested again (-1 means never)")
            checksNext = false
            (objects.nextAccess, objects.firstRequest) = ([], [])
        }
        objects.hasNextAccess = checksNext
        objects.appNames = reader.appNames
        while objects.objectsPerApp.count < objects.appNames.count { objects.objectsPerApp.append(0) }
        objects.assignPacks()
        if objects.objectsPerApp.count > 1 {
            // Objects were numbered in order of first appearance across apps; the stream
            // names device-wide packs (apps' packs are contiguous).
            for k in objects.requests.indices { objects.requests[k] = objects.objects[Int(objects.requests[k])].pack }
        }
        return objects
    }

    /// Records a request's next-access field and checks the one of the object's previous
    /// request against it: libCacheSim numbers requests from 1, and -1 (or Int64.max) means never.
    private mutating func check(next: Int64, of record: TraceRecord, index: Int32, inserted: Bool,
                                latest: inout [Int32], file: String) throws(TraceError) {
        let ordinal = requestCount
        guard next == -1 || next == .max || (next > ordinal && next < Int64(UInt32.max)) else {
            throw TraceError(file: file, line: nil,
                             message: "record \(ordinal): next_access_vtime \(next) is not a later request (requests count from 1; -1 means never)")
        }
        nextAccess.append(next == -1 || next == .max ? 0 : UInt32(next))
        if inserted {
            latest.append(Int32(ordinal - 1))
            firstRequest.append(Int32(ordinal - 1))
        } else {
            let previous = Int(latest[Int(index)])
            guard nextAccess[previous] == UInt32(ordinal) else {
                let said = nextAccess[previous] == 0 ? "says it is never requested again" : "says record \(nextAccess[previous])"
                throw TraceError(file: file, line: nil,
                                 message: "record \(previous + 1): next_access_vtime \(said), but object \(record.object) is requested next by record \(ordinal)")
            }
            latest[Int(index)] = Int32(ordinal - 1)
        }
    }

    /// The future for offline policies from the trace's next-access field: each object's
    /// requests are its first and the chain of next accesses from there, so the rows are
    /// read off the chains without sorting the stream (the field was checked by the scan).
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

    /// Device-wide pack of each object: apps are added in order, their packs contiguous, so
    /// with one app an object's pack is its index.
    private mutating func assignPacks() {
        var firstPack: [Int32] = []
        var next: Int32 = 0
        for count in objectsPerApp {
            firstPack.append(next)
            next += count
        }
        for i in objects.indices { objects[i].pack = firstPack[Int(objects[i].app)] + objects[i].local }
    }

    /// One catalog per app: each object is a single-resource tag, hence one pack, named by
    /// its object ID; tag `i` and pack `i` of an app are its `i`-th object.
    func catalogs() throws(TraceError) -> [Catalog] {
        var items = objectsPerApp.map { count -> [(name: String, size: Int64)] in
            var list: [(name: String, size: Int64)] = []
            list.reserveCapacity(Int(count))
            return list
        }
        for (i, object) in objects.enumerated() { items[Int(object.app)].append((String(objectID[i]), object.size)) }
        var catalogs: [Catalog] = []
        for (a, list) in items.enumerated() {
            do {
                catalogs.append(try Catalog(singleResourceTags: list, profile: .unlimited))
            } catch {
                throw TraceError(file: fileName, line: nil, message: "app '\(appNames[a])': \(error)")
            }
        }
        return catalogs
    }
}
