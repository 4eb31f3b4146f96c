import ODRCore
import ODRPolicies
import TestSupport

/// A small device for hand-worked policy examples: apps whose packs are single-resource
/// tags named `p0`, `p1`, … with the given sizes, all installed, none running.
final class Rig {
    let device: ODRDevice
    private(set) var apps: [AppID] = []
    private(set) var time: Double = 0

    init(capacity: Int64, apps sizes: [[Int64]], policy: any PurgePolicy) {
        device = ODRDevice(capacity: capacity, policy: policy)
        for (a, list) in sizes.enumerated() {
            let resources = list.enumerated().map {
                Resource(name: "p\($0.offset)", size: $0.element, tags: ["p\($0.offset)"])
            }
            let catalog = try! Catalog(resources: resources)
            let app = device.addApp(name: "app\(a)", catalog: catalog)
            device.install(app, at: 0)
            apps.append(app)
        }
    }

    convenience init(capacity: Int64, sizes: [Int64], policy: any PurgePolicy) {
        self.init(capacity: capacity, apps: [sizes], policy: policy)
    }

    func pack(_ index: Int, app: Int = 0) -> PackID { device.pack(index, of: apps[app]) }

    /// Requests pack `index` of `app` and ends access at once, as a cache trace does.
    /// Returns whether it was a hit; records which packs the request purged.
    @discardableResult
    func access(_ index: Int, app: Int = 0) -> Bool {
        let request = begin(index, app: app)
        device.endAccessing(request, at: time)
        return lastWasHit
    }

    private(set) var lastWasHit = false

    /// Requests pack `index` of `app` and keeps holding it.
    func begin(_ index: Int, app: Int = 0) -> RequestID {
        time += 1
        switch device.beginAccessing(apps[app], tags: [TagID(rawValue: Int32(index))], at: time) {
        case .granted(let request):
            lastWasHit = true
            return request
        case .waiting(let request):
            lastWasHit = false
            let pack = pack(index, app: app)
            device.receive(device.size(of: pack), for: pack, at: time)
            return request
        case .failed(let error):
            fatalError("request failed: \(error)")
        }
    }

    /// Lets `seconds` pass before the next step.
    func wait(_ seconds: Double) { time += seconds }

    func end(_ request: RequestID) {
        time += 1
        device.endAccessing(request, at: time)
    }

    /// Packs purged since the last call, in purge order, as (app, index).
    func purged() -> [(app: Int, index: Int)] {
        defer { device.removeAllEvents() }
        return device.events.compactMap { event in
            guard case .packPurged(let pack, let app, _, _) = event.kind else { return nil }
            let a = apps.firstIndex(of: app)!
            return (a, Int(pack.rawValue - device.pack(0, of: app).rawValue))
        }
    }

    /// Requests pack `index` of app 0 as a trace replay does (``ODRDevice/access(_:tag:at:)``
    /// with no events recorded, so that admission and the policy's own evictions take part);
    /// returns whether it was a hit.
    @discardableResult
    func replay(_ index: Int) -> Bool {
        device.recordsEvents = false
        time += 1
        switch device.access(apps[0], tag: TagID(rawValue: Int32(index)), at: time) {
        case .hit: return true
        case .miss: return false
        case .failed(let error): fatalError("request failed: \(error)")
        }
    }

    /// Indices of app 0's packs on the disk.
    func resident() -> [Int] {
        (0..<device.catalog(of: apps[0]).packs.count).filter {
            if case .downloaded = device.state(of: pack($0)) { return true }
            return false
        }
    }

    /// Indices of packs purged since the last call, for single-app rigs.
    func purgedIndices() -> [Int] { purged().map(\.index) }
}
