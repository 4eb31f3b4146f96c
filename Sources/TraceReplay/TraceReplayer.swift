import ODRCore
import ODRPolicies

/// Replays a `time,obj_id,size[,app]` cache trace through the real ``ODRDevice``, one run
/// per purge policy, and counts hits and misses the way libCacheSim does.
///
/// Every object is a single-resource tag (one asset pack) of its app (the `app` column, or
/// one app named after the file). Each line is one request for that tag: a hit when the pack
/// is on the device; otherwise a miss, the device makes room (purging by the policy) and the
/// whole pack arrives at once. Access ends at the same instant, so every pack is purgeable
/// again before the next line. The disk holds nothing else; the platform profile is
/// `.unlimited`; the device records no events (only its ledger). An object larger than the
/// whole disk is a miss, is not stored and purges nothing: the device refuses a demand it
/// cannot meet without purging anything.
///
/// Times go to the device as they are, except that a time earlier than the previous line's
/// (or below 0) is taken as that previous time, since the device's clock cannot go back;
/// none of the policies looks at times, only at order.
///
/// ```swift
/// let results = try TraceReplayer(path: "cloudphysics.csv")
///     .replay(capacity: 202_976_972, policies: [PolicyRegistry.descriptor(named: "lru")!])
/// print(ReplayReport.table(results))
/// ```
public struct TraceReplayer {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Replays the trace once per policy, in order. The first pass (distinct objects, and
    /// the future if a policy needs it) is shared by all policies.
    public func replay(
        capacity: Int64, policies: [PolicyDescriptor], context: PolicyContext = PolicyContext()
    ) throws(TraceError) -> [ReplayResult] {
        precondition(capacity >= 0, "capacity must not be negative")
        let needsFuture = policies.contains { $0.needsFuture }
        var objects = try TraceObjects.scan(path: path, recordRequests: needsFuture)
        let catalogs = try objects.catalogs()

        var context = context
        if needsFuture {
            var builder = FutureRequests.Builder()
            builder.reserveCapacity(objects.requests.count)
            for object in objects.requests { builder.append(PackID(rawValue: objects.objects[Int(object)].pack)) }
            objects.requests = []
            context.future = FutureRequests(builder)
        }

        var results: [ReplayResult] = []
        for descriptor in policies {
            results.append(try run(descriptor, capacity: capacity, context: context, objects: objects, catalogs: catalogs))
        }
        return results
    }

    private func run(
        _ descriptor: PolicyDescriptor, capacity: Int64, context: PolicyContext,
        objects: TraceObjects, catalogs: [Catalog]
    ) throws(TraceError) -> ReplayResult {
        let device = ODRDevice(capacity: capacity, policy: descriptor.make(context))
        device.recordsEvents = false
        var apps: [AppID] = []
        for (a, catalog) in catalogs.enumerated() {
            let app = device.addApp(name: objects.appNames[a], catalog: catalog)
            device.install(app, at: 0)
            apps.append(app)
        }

        var result = ReplayResult(policy: descriptor.name, capacityBytes: capacity)
        let reader = try TraceReader(path: path)
        var clock = 0.0
        // One tag array reused for every request: the device does not keep it, so it stays
        // uniquely referenced and is updated in place instead of allocated per line.
        var tags = [TagID(rawValue: 0)]
        while let record = try reader.next() {
            guard let index = objects.table.find(record.object) else {
                throw TraceError(file: reader.fileName, line: record.line,
                                 message: "object \(record.object) was not in the file a moment ago; did the trace change?")
            }
            let object = objects.objects[Int(index)]
            let size = object.size
            if record.time > clock { clock = record.time }
            result.requests += 1
            result.bytesRequested += size
            tags[0] = TagID(rawValue: object.local)
            switch device.beginAccessing(apps[Int(object.app)], tags: tags, at: clock) {
            case .granted(let request):
                device.endAccessing(request, at: clock)
            case .waiting(let request):
                result.misses += 1
                result.bytesMissed += size
                // The whole pack arrives at once, which grants the request. (A pack of zero
                // bytes completes as its download starts and needs no delivery.)
                if size > 0 { device.receive(size, for: PackID(rawValue: object.pack), at: clock) }
                device.endAccessing(request, at: clock)
            case .failed(.outOfSpace):
                // Larger than the disk: a miss that stores and purges nothing.
                result.misses += 1
                result.bytesMissed += size
            case .failed(let error):
                throw TraceError(file: reader.fileName, line: record.line, message: "the device refused the request: \(error)")
            }
        }
        result.purges = device.ledger.purges
        result.purgedBytes = device.ledger.purgedBytes
        result.overPurgeBytes = device.ledger.overPurgeBytes
        return result
    }
}
