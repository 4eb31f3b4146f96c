import ODRCore

/// Shares a piecewise-constant link among the device's downloads and delivers their bytes.
///
/// Sharing rules (ODR-SPEC §3, §6): if any runnable download is urgent, the urgent ones
/// share the whole link equally and the others wait. Otherwise the link is split equally
/// among the apps with runnable downloads (loading priorities are compared only within
/// one app), and each app's share is split among its downloads in proportion to their
/// loading priority (a priority of 0 counts as 0.01, so it crawls rather than starves).
///
/// Progress is kept exactly, as fractional bytes per pack, and only whole bytes are
/// delivered to the core; a download completes exactly at its planned finish time.
struct NetworkModel {
    struct Flow {
        let pack: Int
        let size: Int64
        let rate: Double
        let finish: Double
    }

    private(set) var bandwidth: Double = 0
    private(set) var kind: LinkKind = .wifi
    private var planTime: Double = 0
    private var flows: [Flow] = []
    private var exact: [Double]
    private var seenRevision: UInt64 = .max
    private var statuses: [DownloadStatus] = []
    private var planApps: [AppID] = []
    private var appWeights: [Double] = []

    init(packCount: Int) {
        exact = [Double](repeating: 0, count: packCount)
    }

    var linkState: LinkState {
        bandwidth <= 0 ? .offline : (kind == .wifi ? .wifi : .cellular)
    }

    mutating func setLink(bandwidth: Double, kind: LinkKind) {
        self.bandwidth = bandwidth
        self.kind = kind
        seenRevision = .max
    }

    /// Delivers the bytes flowing from the last plan up to `time`.
    mutating func advance(_ device: ODRDevice, to time: Double) {
        guard time > planTime else { return }
        let dt = time - planTime
        planTime = time
        for f in flows.indices {
            let flow = flows[f]
            let pack = PackID(rawValue: Int32(flow.pack))
            guard let received = device.bytesReceived(by: pack) else { continue }
            if flow.finish <= time {
                exact[flow.pack] = Double(flow.size)
                device.receive(flow.size - received, for: pack, at: time)
            } else {
                exact[flow.pack] += flow.rate * dt
                let whole = min(Int64(exact[flow.pack]), flow.size - 1)
                if whole > received { device.receive(whole - received, for: pack, at: time) }
            }
        }
    }

    /// Whether the downloads or the link changed since the last plan.
    func needsReplan(_ device: ODRDevice) -> Bool { device.downloadsRevision != seenRevision }

    /// Recomputes the shares at `time`; returns the earliest finish time, if any.
    mutating func replan(_ device: ODRDevice, at time: Double) -> Double? {
        planTime = time
        seenRevision = device.downloadsRevision
        // Performance: scratch lists kept between plans, and apps' weights in two small
        // arrays (a handful of apps download at once), so a plan allocates nothing.
        flows.removeAllKeepingCapacity()
        // Performance: most plans follow a download's completion and find no other.
        guard bandwidth > 0, device.downloadCount > 0 else { return nil }
        device.downloads(into: &statuses)
        if statuses.contains(where: { !$0.isRunnable }) { statuses.removeAll { !$0.isRunnable } }
        guard !statuses.isEmpty else { return nil }
        let linkRate = bandwidth / 8
        let urgentCount = statuses.reduce(0) { $0 + ($1.priority.isUrgent ? 1 : 0) }
        if urgentCount > 0 {
            statuses.removeAll { !$0.priority.isUrgent }
        } else {
            planApps.removeAllKeepingCapacity()
            appWeights.removeAllKeepingCapacity()
            // By index here and below: a for-in loop over a stored array retains it.
            for s in statuses.indices {
                let d = statuses[s]
                if let i = planApps.firstIndex(of: d.app) {
                    appWeights[i] += Self.weight(d.priority)
                } else {
                    planApps.append(d.app)
                    appWeights.append(0 + Self.weight(d.priority))
                }
            }
        }
        let perApp = linkRate / Double(planApps.count)
        var earliest = Double.infinity
        for s in statuses.indices {
            let download = statuses[s]
            let rate =
                urgentCount > 0
                ? linkRate / Double(urgentCount)
                : perApp * Self.weight(download.priority) / appWeights[planApps.firstIndex(of: download.app)!]
            let p = Int(download.pack.rawValue)
            if Int64(exact[p]) != download.received { exact[p] = Double(download.received) }
            let finish = time + (Double(download.size) - exact[p]) / rate
            flows.append(Flow(pack: p, size: download.size, rate: rate, finish: finish))
            earliest = min(earliest, finish)
        }
        return earliest
    }

    static func weight(_ priority: LoadingPriority) -> Double { max(priority.value, 0.01) }
}
