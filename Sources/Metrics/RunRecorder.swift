import ODRCore
import Simulation

/// Observes one run and builds its rows of `events.csv` and `timeseries.csv` and its waits.
public final class RunRecorder: SimulationObserver {
    public let policy: String
    public let replication: Int
    /// Whether to build `events.csv` rows (they dominate memory on long runs).
    public let recordsEvents: Bool
    public private(set) var waits = WaitStatistics()
    private var events = CSVText()
    private var samples = CSVText()
    /// The rows of `events.csv` so far (without the header).
    public var eventRows: String { events.string }
    /// The rows of `timeseries.csv` so far (without the header).
    public var sampleRows: String { samples.string }

    public init(policy: String, replication: Int = 1, recordsEvents: Bool = true) {
        self.policy = policy
        self.replication = replication
        self.recordsEvents = recordsEvents
    }

    public static let eventsHeader = CSV.row([
        "policy", "replication", "time_s", "event", "app", "request", "pack", "bytes", "needed_bytes",
        "purged_bytes", "wait_s", "detail",
    ])

    public static let timeseriesHeader = CSV.row([
        "policy", "replication", "time_s", "used_bytes", "other_bytes", "odr_bytes", "in_use_bytes",
        "downloading_bytes", "free_bytes",
    ])

    public func simulator(_ simulator: Simulator, emitted event: ODREvent) {
        if case .requestGranted(_, _, let waited, _) = event.kind { waits.record(seconds: waited) }
        guard recordsEvents else { return }
        let device = simulator.device
        func app(_ id: AppID) -> String { device.name(of: id) }
        func pack(_ id: PackID) -> String { device.name(of: id) }
        var row = Row(time: event.time)
        switch event.kind {
        case .appInstalled(let a): row.set("install", app: app(a))
        case .installFailed(let a, let error): row.set("install_failed", app: app(a), detail: error.rawValue)
        case .appLaunched(let a): row.set("launch", app: app(a))
        case .appTerminated(let a, let cause): row.set("terminate", app: app(a), detail: cause.rawValue)
        case .appUninstalled(let a, let removed): row.set("uninstall", app: app(a)); row.bytes = removed
        case .requestGranted(let r, let a, let waited, let hit):
            row.set("grant", app: app(a), request: simulator.label(of: r), detail: hit ? "hit" : "")
            row.wait = waited
        case .requestEnded(let r, let a, let cause):
            row.set("end", app: app(a), request: simulator.label(of: r), detail: cause.rawValue)
        case .requestFailed(let r, let a, let error):
            row.set("fail", app: app(a), request: simulator.label(of: r), detail: error.rawValue)
        case .requestCancelled(let r, let a): row.set("cancel", app: app(a), request: simulator.label(of: r))
        case .requestPaused(let r, let a): row.set("pause", app: app(a), request: simulator.label(of: r))
        case .requestResumed(let r, let a): row.set("resume", app: app(a), request: simulator.label(of: r))
        case .conditionalMiss(let a): row.set("conditional_miss", app: app(a), request: simulator.label(of: nil))
        case .downloadStarted(let p, let a, let bytes, let redownload):
            row.set("download_start", app: app(a), pack: pack(p), detail: redownload ? "redownload" : "")
            row.bytes = bytes
        case .downloadProgressed: return
        case .downloadStalled(let p, let a): row.set("download_stall", app: app(a), pack: pack(p))
        case .downloadContinued(let p, let a): row.set("download_continue", app: app(a), pack: pack(p))
        case .downloadFinished(let p, let a, let bytes):
            row.set("download_finish", app: app(a), pack: pack(p)); row.bytes = bytes
        case .downloadAbandoned(let p, let a, let kept):
            row.set("download_abandon", app: app(a), pack: pack(p)); row.bytes = kept
        case .prefetchSkipped(let p, let a, let error):
            row.set("prefetch_skipped", app: app(a), pack: pack(p), detail: error.rawValue)
        case .packPurged(let p, let a, let bytes, let episode):
            row.set("purge", app: app(a), pack: pack(p), detail: "episode \(episode)"); row.bytes = bytes
        case .purgeEpisode(let episode, let needed, let purged):
            row.set("purge_episode", detail: "episode \(episode)")
            row.needed = needed; row.purged = purged
        case .lowDiskWarning(let needed): row.set("low_disk_warning"); row.needed = needed
        case .otherDataChanged(let applied, let refused):
            row.set("disk_change", detail: refused > 0 ? "refused \(refused)" : ""); row.bytes = applied
        }
        row.write(to: &events, policy: policy, replication: replication)
    }

    public func simulator(_ simulator: Simulator, linkChangedTo bandwidth: Double, kind: LinkKind, at time: Double) {
        guard recordsEvents else { return }
        var row = Row(time: time)
        row.set("link", detail: bandwidth > 0 ? "\(kind.rawValue) \(Int64(bandwidth)) bps" : "offline")
        row.write(to: &events, policy: policy, replication: replication)
    }

    public func simulator(_ simulator: Simulator, sampleAt time: Double) {
        let d = simulator.device
        samples.field(policy)
        samples.field(Int64(replication))
        samples.seconds(time)
        for value in [d.usedBytes, d.otherBytes, d.odrBytes, d.inUseBytes, d.downloadingBytes, d.freeBytes] {
            samples.field(value)
        }
        samples.endRow()
    }

    private struct Row {
        let time: Double
        var event = "", app = "", request = "", pack = "", detail = ""
        var bytes: Int64?, needed: Int64?, purged: Int64?
        var wait: Double?

        mutating func set(_ event: String, app: String = "", request: String = "", pack: String = "", detail: String = "") {
            self.event = event
            self.app = app
            self.request = request
            self.pack = pack
            self.detail = detail
        }

        func write(to text: inout CSVText, policy: String, replication: Int) {
            text.field(policy)
            text.field(Int64(replication))
            text.seconds(time)
            text.field(event)
            text.field(app)
            text.field(request)
            text.field(pack)
            text.field(bytes)
            text.field(needed)
            text.field(purged)
            text.seconds(wait)
            text.field(detail)
            text.endRow()
        }
    }
}
