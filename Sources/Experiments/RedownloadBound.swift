import Bounds
import ODRCore
import Simulation

/// Watches one run and gives a lower bound on its re-downloaded bytes: what no purge order
/// could have avoided, given the requests this run granted.
///
/// A pack granted at two moments is on the device at both. If it was purged in between, it
/// was fetched again, all of it (a purge removes every byte, and a pack is granted only
/// whole), and those bytes count as re-downloaded (an uninstall in between starts afresh,
/// and is not counted). So a run's re-downloaded bytes are at least the sizes of the
/// intervals between consecutive grants of a pack that were not kept. What can be kept is
/// bounded by the space: right after each grant, the packs kept across that moment fit in
/// the capacity minus the other data then. FOO's min-cost flow over that sequence (a node
/// per granted pack, the space as the capacity from one to the next, a cost per byte not
/// kept) gives the fewest bytes any purge order must fetch again.
///
/// What the bound relaxes, so what it does not promise:
/// - the space is checked only at grants (between them other data may take more), objects
///   may be kept in part (the LP), and packs held in use are not subtracted (they are among
///   the packs kept);
/// - download time: a re-download is counted at its size, however long it took;
/// - which requests are granted is this run's: a policy under which other requests fail or
///   are cancelled has another sequence, and its own bound;
/// - purges are by pack, with no over-purge (freeing more than needed is not charged).
/// Grants whose request is no longer live when the event is seen (begun, granted and ended
/// in one step) are left out; leaving grants out only weakens the bound.
public final class RedownloadBound: SimulationObserver {
    private var objectOf: [Int64: Int32] = [:]
    private var objects: [Int32] = []
    private var sizes: [Int64] = []
    private var epoch: [Int32: Int32] = [:]
    private var space: [Int64] = []
    /// The app whose grants alone are counted, or nil for every app's.
    private let app: AppID?

    /// The bound for every app's grants, or with `app` for that app's alone: the fewest bytes
    /// of its packs any purge order could have re-downloaded. Its packs may then use all the
    /// free space (the other apps' packs purged first), so it bounds the app's re-downloads
    /// from below, as the whole bound does the device's.
    public init(app: AppID? = nil) { self.app = app }

    public func simulator(_ simulator: Simulator, emitted event: ODREvent) {
        let device = simulator.device
        switch event.kind {
        case .appUninstalled(let app, _):
            epoch[app.rawValue, default: 0] += 1
        case .requestGranted(let request, let app, _, _):
            guard self.app == nil || self.app == app, let packs = device.packs(ofRequest: request) else { return }
            let free = max(0, device.capacity - device.otherBytes)
            let e = Int64(epoch[app.rawValue] ?? 0)
            for pack in packs {
                let key = e << 32 | Int64(pack.rawValue)
                let object: Int32
                if let known = objectOf[key] {
                    object = known
                } else {
                    object = Int32(sizes.count)
                    objectOf[key] = object
                    sizes.append(device.size(of: pack))
                }
                objects.append(object)
                space.append(free)
            }
        default:
            break
        }
    }

    /// The fewest bytes any purge order could have re-downloaded for this run's grants: the
    /// min-cost flow's (``FOO/minimumRefetchedBytes(_:space:maximumRequests:)``), or for more
    /// grants than FOO takes, PFOO-L's over the sum of the spaces.
    public var bytes: Int64 {
        let sequence = RequestSequence(objects: objects, sizes: sizes)
        if let exact = try? FOO.minimumRefetchedBytes(sequence, space: space) { return exact }
        let spaceTime = space.reduce(UInt64(0)) { sum, s in
            let (total, overflow) = sum.addingReportingOverflow(UInt64(s))
            return overflow ? .max : total
        }
        return PFOOL(sequence).repeatBytesMissed(spaceTime: spaceTime)
    }
}

/// Hands every call to two observers (a run's recorder and its bound).
final class TeeObserver: SimulationObserver {
    let first: SimulationObserver
    let second: SimulationObserver

    init(_ first: SimulationObserver, _ second: SimulationObserver) {
        self.first = first
        self.second = second
    }

    var observesAllEvents: Bool { first.observesAllEvents || second.observesAllEvents }

    func simulator(_ simulator: Simulator, emitted event: ODREvent) {
        first.simulator(simulator, emitted: event)
        second.simulator(simulator, emitted: event)
    }

    func simulator(_ simulator: Simulator, linkChangedTo bandwidth: Double, kind: LinkKind, at time: Double) {
        first.simulator(simulator, linkChangedTo: bandwidth, kind: kind, at: time)
        second.simulator(simulator, linkChangedTo: bandwidth, kind: kind, at: time)
    }

    func simulator(_ simulator: Simulator, sampleAt time: Double) {
        first.simulator(simulator, sampleAt: time)
        second.simulator(simulator, sampleAt: time)
    }
}
