import Foundation
import ODRCore
import Simulation

/// Observes one run and builds its rows of `events.csv` and `timeseries.csv` and its waits.
public final class RunRecorder: SimulationObserver {
    public let policy: String
    public let replication: Int
    /// Whether to build `events.csv` rows (they dominate memory on long runs).
    public let recordsEvents: Bool
    public private(set) var waits = WaitStatistics()
    /// The waits of each app's requests, by app ID.
    public private(set) var appWaits: [WaitStatistics] = []
    private let events = CSVText()
    private let samples = CSVText()
    /// The rows of `events.csv` so far (without the header).
    public var eventRows: String { events.string }
    /// The rows of `timeseries.csv` so far (without the header).
    public var sampleRows: String { samples.string }

    /// The first two fields of every row, in CSV form.
    private let rowStart: [UInt8]
    /// Where `events.csv` rows go once a megabyte of them is held; nil keeps them all
    /// (``eventRows``). With a file, memory stays flat however long the run.
    private let eventsFile: FileHandle?
    /// The run's request names, built at its first event.
    private var labels: RequestLabels?
    /// The label of the request that started each download under way, for its rows.
    private var startedBy: [PackID: String] = [:]
    /// What is on the disk, pack by pack (`packs.csv`), kept with the events.
    public let packs: PackTimeline
    /// The first failure to write to the events file; rows stay in memory from then on.
    public private(set) var writeError: (any Error)?

    public init(policy: String, replication: Int = 1, recordsEvents: Bool = true, eventsFile: FileHandle? = nil) {
        self.policy = policy
        self.replication = replication
        self.recordsEvents = recordsEvents
        self.eventsFile = eventsFile
        packs = PackTimeline(policy: policy, replication: replication)
        let start = CSVText(capacity: 64)
        start.field(policy)
        start.field(Int64(replication))
        rowStart = start.bytes
    }

    public static let eventsHeader = CSV.row([
        "policy", "replication", "time_s", "event", "app", "request", "pack", "bytes", "needed_bytes",
        "purged_bytes", "wait_s", "detail",
    ])

    public static let timeseriesHeader = CSV.row([
        "policy", "replication", "time_s", "used_bytes", "other_bytes", "odr_bytes", "in_use_bytes",
        "downloading_bytes", "free_bytes", "redownload_bytes",
    ])

    /// One row of `timeseries.csv`: the disk at a sample time, and the bytes re-downloaded so far.
    public struct Sample: Sendable, Hashable {
        public var time: Double
        public var used: Int64
        public var other: Int64
        public var odr: Int64
        public var inUse: Int64
        public var downloading: Int64
        public var free: Int64
        public var redownloaded: Int64
    }

    /// The samples taken, as `timeseries.csv` writes them (for charts).
    public private(set) var sampleValues: [Sample] = []
    /// When purge episodes happened and what each purged; when low-disk warnings were posted.
    public private(set) var purgeEpisodes: [(time: Double, purged: Int64)] = []
    public private(set) var lowDiskWarnings: [Double] = []

    /// Without events.csv rows, only grants (for waits) are needed.
    public var observesAllEvents: Bool { recordsEvents }

    /// Forgets the waits recorded so far: the end of a warm-up (rows and samples are kept).
    public func restartWaits() {
        waits = WaitStatistics()
        appWaits = appWaits.map { _ in WaitStatistics() }
    }

    /// App `app`'s waits (none if it was never granted anything).
    public func waits(of app: AppID) -> WaitStatistics {
        Int(app.rawValue) < appWaits.count ? appWaits[Int(app.rawValue)] : WaitStatistics()
    }

    public func simulator(_ simulator: Simulator, emitted event: ODREvent) {
        if case .requestGranted(_, let app, let waited, _) = event.kind {
            waits.record(seconds: waited)
            let a = Int(app.rawValue)
            if a >= appWaits.count { appWaits += Array(repeating: WaitStatistics(), count: a + 1 - appWaits.count) }
            appWaits[a].record(seconds: waited)
        }
        guard recordsEvents else { return }
        switch event.kind {
        case .purgeEpisode(_, _, let purged): purgeEpisodes.append((event.time, purged))
        case .lowDiskWarning: lowDiskWarnings.append(event.time)
        default: break
        }
        let device = simulator.device
        packs.note(event, device: device)
        func app(_ id: AppID) -> String { device.name(of: id) }
        if labels == nil { labels = RequestLabels(simulator.scenario) }
        func label(_ request: RequestID?) -> String { labels!.label(of: simulator.requestKey(of: request)) }
        func pack(_ id: PackID) -> String { device.name(of: id) }
        let t = event.time
        switch event.kind {
        case .requestMade(let a, let conditional):
            write(t, "request", app: app(a), request: label(nil), detail: conditional ? "conditional" : "")
        case .appInstalled(let a): write(t, "install", app: app(a))
        case .appUpdated(let a): write(t, "app_update", app: app(a))
        case .installFailed(let a, let error): write(t, "install_failed", app: app(a), detail: error.rawValue)
        case .appLaunched(let a): write(t, "launch", app: app(a))
        case .appTerminated(let a, let cause): write(t, "terminate", app: app(a), detail: cause.rawValue)
        case .appUninstalled(let a, let removed): write(t, "uninstall", app: app(a), bytes: removed)
        case .appOffloaded(let a, let removed): write(t, "offload", app: app(a), bytes: removed)
        case .storageCleared(let a, let removed): write(t, "clear_storage", app: app(a), bytes: removed)
        case .requestGranted(let r, let a, let waited, let hit):
            write(t, "grant", app: app(a), request: label(r), wait: waited, detail: hit ? "hit" : "")
        case .requestEnded(let r, let a, let cause):
            write(t, "end", app: app(a), request: label(r), detail: cause.rawValue)
        case .requestFailed(let r, let a, let error):
            write(t, "fail", app: app(a), request: label(r), detail: error.rawValue)
        case .requestCancelled(let r, let a): write(t, "cancel", app: app(a), request: label(r))
        case .requestPaused(let r, let a): write(t, "pause", app: app(a), request: label(r))
        case .requestResumed(let r, let a): write(t, "resume", app: app(a), request: label(r))
        case .priorityChanged(let r, let a, let priority):
            write(t, "set_priority", app: app(a), request: label(r), detail: priority.description)
        case .preservationChanged(let a, let tag, let value):
            write(t, "preserve", app: app(a), detail: "\(device.catalog(of: a).tag(tag).name)=\(value)")
        case .conditionalMiss(let a): write(t, "conditional_miss", app: app(a), request: label(nil))
        case .requestOutstanding(let r, let a): write(t, "pending", app: app(a), request: label(r))
        case .downloadStarted(let p, let a, let r, let bytes, let redownload):
            let label = r.map { label($0) } ?? ""
            if label.isEmpty { startedBy[p] = nil } else { startedBy[p] = label }
            write(
                t, "download_start", app: app(a), request: label, pack: pack(p), bytes: bytes,
                detail: redownload ? "redownload" : "")
        case .downloadProgressed: return
        case .downloadStalled(let p, let a, let cause):
            write(t, "download_stall", app: app(a), request: startedBy[p] ?? "", pack: pack(p), detail: cause.rawValue)
        case .downloadContinued(let p, let a):
            write(t, "download_continue", app: app(a), request: startedBy[p] ?? "", pack: pack(p))
        case .downloadFinished(let p, let a, let bytes):
            write(
                t, "download_finish", app: app(a), request: startedBy.removeValue(forKey: p) ?? "", pack: pack(p),
                bytes: bytes)
        case .downloadAbandoned(let p, let a, let bytes, let kept):
            write(
                t, "download_abandon", app: app(a), request: startedBy.removeValue(forKey: p) ?? "", pack: pack(p),
                bytes: bytes, detail: "kept \(kept)")
        case .downloadFailed(let p, let a, let bytes, let kept):
            write(
                t, "download_fail", app: app(a), request: startedBy.removeValue(forKey: p) ?? "", pack: pack(p),
                bytes: bytes, detail: "kept \(kept)")
        case .downloadOutstanding(let p, let a, let bytes):
            write(t, "download_pending", app: app(a), request: startedBy[p] ?? "", pack: pack(p), bytes: bytes)
        case .prefetchSkipped(let p, let a, let error):
            write(t, "prefetch_skipped", app: app(a), pack: pack(p), detail: error.rawValue)
        case .downloadDeclined(let p, let a):
            write(t, "download_declined", app: app(a), pack: pack(p))
        case .packPurged(let p, let a, let bytes, let episode):
            write(t, "purge", app: app(a), pack: pack(p), bytes: bytes, detail: "episode \(episode)")
        case .packUpdated(let p, let a, let removed):
            write(t, "pack_update", app: app(a), pack: pack(p), bytes: removed)
        case .packOutdated(let p, let a):
            write(t, "pack_outdated", app: app(a), pack: pack(p))
        case .packObsoleteRemoved(let p, let a, let bytes):
            write(t, "pack_obsolete_removed", app: app(a), pack: pack(p), bytes: bytes)
        case .purgeEpisode(let episode, let needed, let purged):
            write(t, "purge_episode", needed: needed, purged: purged, detail: "episode \(episode)")
        case .lowDiskWarning(let needed): write(t, "low_disk_warning", needed: needed)
        case .otherDataChanged(let requested, let applied):
            let detail =
                applied == requested
                ? "" : requested > 0 ? "refused \(requested - applied)" : "clamped \(applied - requested)"
            write(t, "disk_change", bytes: applied, detail: detail)
        }
    }

    public func simulator(_ simulator: Simulator, linkChangedTo bandwidth: Double, kind: LinkKind, at time: Double) {
        guard recordsEvents else { return }
        write(time, "link", detail: bandwidth > 0 ? "\(kind.rawValue) \(Int64(bandwidth)) bps" : "offline")
    }

    /// One row of `events.csv`, its fields written straight into the text (no row value to
    /// build and destroy per event).
    private func write(
        _ time: Double, _ event: String, app: String = "", request: String = "", pack: String = "",
        bytes: Int64? = nil, needed: Int64? = nil, purged: Int64? = nil, wait: Double? = nil, detail: String = ""
    ) {
        events.startRow(with: rowStart)
        events.seconds(time)
        events.field(event)
        events.field(app)
        events.field(request)
        events.field(pack)
        events.field(bytes)
        events.field(needed)
        events.field(purged)
        events.seconds(wait)
        events.field(detail)
        events.endRow()
        if eventsFile != nil && events.byteCount >= 1 << 20 { spill() }
    }

    private func spill() {
        guard let eventsFile, writeError == nil else { return }
        do { try events.drain(to: eventsFile) } catch { writeError = error }
    }

    /// Writes the rows still held to the events file, if there is one.
    public func finish() { spill() }

    public func simulator(_ simulator: Simulator, sampleAt time: Double) {
        let d = simulator.device
        let sample = Sample(
            time: time, used: d.usedBytes, other: d.otherBytes, odr: d.odrBytes, inUse: d.inUseBytes,
            downloading: d.downloadingBytes, free: d.freeBytes, redownloaded: d.ledger.redownloadBytes)
        sampleValues.append(sample)
        samples.startRow(with: rowStart)
        samples.seconds(time)
        for value in [
            sample.used, sample.other, sample.odr, sample.inUse, sample.downloading, sample.free, sample.redownloaded,
        ] {
            samples.field(value)
        }
        samples.endRow()
    }
}
