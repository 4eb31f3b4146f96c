import ODRCore

/// What the first pass over a trace learns: every distinct object with its app, its size
/// and its place in its app's catalog, and (for offline policies) the request stream.
///
/// The device's catalogs are fixed when an app is added, and a trace reveals its objects
/// only as it goes, so the replay reads the trace twice: this pass collects the distinct
/// objects (memory O(distinct objects), about 40 bytes each, plus 4 bytes per request only
/// when an offline policy needs the future), then each policy's run streams the file again.
/// An object's size is its first-seen size (a later line's size is not used: a pack has one
/// size), and an object belongs to the app it first appeared with.
struct TraceObjects {
    var fileName: String
    var appNames: [String]
    var table: ObjectTable
    /// Per object, in order of first appearance.
    var objectID: [UInt64] = []
    var size: [Int64] = []
    var app: [Int32] = []
    /// Index of the object in its app's catalog.
    var local: [Int32] = []
    var objectsPerApp: [Int32] = []
    var requestCount: Int64 = 0
    /// Object index of each request, when recorded.
    var requests: [Int32] = []

    static func scan(path: String, recordRequests: Bool) throws(TraceError) -> TraceObjects {
        let reader = try TraceReader(path: path)
        var objects = TraceObjects(fileName: reader.fileName, appNames: [], table: ObjectTable())
        while let record = try reader.next() {
            let (index, inserted) = objects.table.findOrInsert(record.object)
            let app = Int(record.app)
            if inserted {
                while objects.objectsPerApp.count <= app { objects.objectsPerApp.append(0) }
                objects.objectID.append(record.object)
                objects.size.append(record.size)
                objects.app.append(record.app)
                objects.local.append(objects.objectsPerApp[app])
                objects.objectsPerApp[app] += 1
            } else if objects.app[Int(index)] != record.app {
                let first = reader.appNames[Int(objects.app[Int(index)])]
                throw TraceError(
                    file: reader.fileName, line: record.line,
                    message: "object \(record.object) belongs to app '\(first)' (its first line), not '\(reader.appNames[app])'")
            }
            objects.requestCount += 1
            if recordRequests { objects.requests.append(index) }
        }
        objects.appNames = reader.appNames
        while objects.objectsPerApp.count < objects.appNames.count { objects.objectsPerApp.append(0) }
        return objects
    }

    /// One catalog per app: each object is a single-resource tag, hence one pack, named by
    /// its object ID; tag `i` and pack `i` of an app are its `i`-th object.
    func catalogs() throws(TraceError) -> [Catalog] {
        var items = objectsPerApp.map { count -> [(name: String, size: Int64)] in
            var list: [(name: String, size: Int64)] = []
            list.reserveCapacity(Int(count))
            return list
        }
        for i in objectID.indices { items[Int(app[i])].append((String(objectID[i]), size[i])) }
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
