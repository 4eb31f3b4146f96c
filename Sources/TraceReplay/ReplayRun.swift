import ODRCore
import ODRPolicies

/// One policy's run over a trace: a fresh device holding the trace's apps, fed one request
/// at a time, counting as libCacheSim counts.
struct ReplayRun {
    private let device: ODRDevice
    private var apps: [AppID] = []
    /// Each app's first device-wide pack: an object's tag is its pack's index in its app.
    private var firstPack: [Int32] = []
    private var clock = 0.0
    private(set) var result: ReplayResult

    /// A run of the apps `appNames` with their `catalogs`; a run that replays behind the
    /// scan starts with one empty catalog and is given its packs as the scan finds them
    /// (``appendPacks(sizes:names:)``).
    init(
        _ descriptor: PolicyDescriptor, capacity: Int64, context: PolicyContext, appNames: [String],
        catalogs: [Catalog]
    ) {
        device = ODRDevice(capacity: capacity, policy: descriptor.make(context))
        device.recordsEvents = false
        for (a, catalog) in catalogs.enumerated() {
            let app = device.addApp(name: appNames[a], catalog: catalog)
            device.install(app, at: 0)
            apps.append(app)
            firstPack.append(device.pack(0, of: app).rawValue)
        }
        result = ReplayResult(policy: descriptor.name, capacityBytes: capacity)
    }

    /// Adds packs at the end of the (one) app's catalog: objects the scan has just found.
    func appendPacks(sizes: [Int64], names: [UInt64]) throws(CatalogError) {
        precondition(apps.count == 1, "a run behind the scan replays one app")
        try device.appendPacks(sizes: sizes, names: names, to: apps[0])
    }

    /// Requests the object whose pack is `pack` at `time` and ends access at once. Returns
    /// the device's error if it refused for any reason but space (a bug of the replay).
    ///
    /// Performance: size and app come from the device's record of the pack, which the
    /// request reads anyway, rather than from a table of objects (another cache miss).
    @inline(__always)
    mutating func request(pack: Int32, at time: Double) -> RequestError? {
        request(pack: pack, facts: facts(of: pack), at: time)
    }

    /// What a request needs of its pack: its size and its app.
    struct Facts {
        let size: Int64
        let app: Int32
    }

    /// Reads the pack's size and app from the device's record of it.
    @inline(__always)
    func facts(of pack: Int32) -> Facts {
        let id = PackID(rawValue: pack)
        // A trace of one app (every binary trace) need not ask the device whose pack it is.
        return Facts(size: device.size(of: id), app: firstPack.count == 1 ? 0 : device.app(of: id).rawValue)
    }

    /// Starts loading the record of a pack requested soon (``ODRDevice/prefetch(_:)``).
    @inline(__always)
    func prefetch(_ pack: Int32) { device.prefetch(PackID(rawValue: pack)) }

    /// ``request(pack:at:)`` with the pack's facts already read.
    @inline(__always)
    mutating func request(pack: Int32, facts: Facts, at time: Double) -> RequestError? {
        let size = facts.size
        let app = facts.app
        if time > clock { clock = time }
        result.requests += 1
        result.bytesRequested += size
        switch device.access(apps[Int(app)], tag: TagID(rawValue: pack - firstPack[Int(app)]), at: clock) {
        case .hit:
            break
        case .miss, .failed(.outOfSpace):
            // A pack larger than the disk fails for space: a miss that stores and purges nothing.
            result.misses += 1
            result.bytesMissed += size
        case .failed(let error):
            return error
        }
        return nil
    }

    /// Forgets the counts so far (the cache keeps what it holds): a warm-up's end.
    mutating func restartCounting() {
        result = ReplayResult(policy: result.policy, capacityBytes: result.capacityBytes)
        device.restartLedger()
    }

    /// The result with the device's purge totals.
    func finished() -> ReplayResult {
        var result = result
        result.purges = device.ledger.purges
        result.purgedBytes = device.ledger.purgedBytes
        result.overPurgeBytes = device.ledger.overPurgeBytes
        return result
    }
}
