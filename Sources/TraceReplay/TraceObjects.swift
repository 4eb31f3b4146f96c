import ODRCore

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

    /// `exactTotals`: sum each request's bytes (a read of its object's record, a cache miss on
    /// large traces); otherwise the bound requests × largest size rules overflow out, and
    /// only when it cannot does the scan start again with exact sums.
    static func scan(path: String, recordRequests: Bool, streamBudget: Int, exactTotals: Bool = false) throws(TraceError) -> TraceObjects {
        let reader = try TraceInput(path: path)
        var objects = TraceObjects(fileName: reader.fileName, appNames: [], table: ObjectTable())
        objects.keepsStream = streamBudget > 0
        var streamBytes = 0
        // Every byte count of a replay (requested, missed, stored) is at most the requested
        // bytes' total, so checking this one sum keeps them all from overflowing.
        var requestedBytes: Int64 = 0
        var largest: Int64 = 0
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
                    return try scan(path: path, recordRequests: recordRequests, streamBudget: streamBudget, exactTotals: true)
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
        }
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
