import ODRCore
import Simulation

/// What is on the disk, pack by pack, over one run: `packs.csv`, one row per stretch of time a
/// pack spent in one phase with its bytes, built from the core's events as they come.
///
/// - `downloading`: from its download's start to its end (finished, abandoned, failed); the
///   bytes are those on disk when it ended (the pack's size when it finished);
/// - `stored`: downloaded, from then until it left (purged, updated, removed with its app,
///   offloaded, its storage cleared) or the run's end; the bytes are its size;
/// - `partial`: bytes kept by a download that stopped, until they went or a download resumed.
///
/// Rows come in the order the stretches ended (the stretches open at the run's end close at
/// it, by pack), so two runs of one seed give the same file.
public final class PackTimeline {
    public enum Phase: String, Sendable, CaseIterable {
        case downloading, stored, partial
    }

    /// One row of `packs.csv`.
    public struct Stretch: Sendable, Hashable {
        public var app: String
        public var pack: String
        public var phase: Phase
        public var bytes: Int64
        public var from: Double
        public var to: Double
    }

    public static let header = CSV.row(["policy", "replication", "app", "pack", "phase", "bytes", "from_s", "to_s"])

    private struct Open {
        var app: AppID
        var phase: Phase
        var bytes: Int64
        var from: Double
    }

    private var open: [PackID: Open] = [:]
    public private(set) var stretches: [Stretch] = []
    private let rowStart: [UInt8]

    public init(policy: String, replication: Int) {
        let start = CSVText(capacity: 64)
        start.field(policy)
        start.field(Int64(replication))
        rowStart = start.bytes
    }

    /// The rows so far, as `packs.csv` writes them (without the header).
    public var csvRows: String {
        let text = CSVText()
        for stretch in stretches {
            text.startRow(with: rowStart)
            text.field(stretch.app)
            text.field(stretch.pack)
            text.field(stretch.phase.rawValue)
            text.field(stretch.bytes)
            text.seconds(stretch.from)
            text.seconds(stretch.to)
            text.endRow()
        }
        return text.string
    }

    /// Follows one of the core's events.
    public func note(_ event: ODREvent, device: ODRDevice) {
        let t = event.time
        switch event.kind {
        case .downloadStarted(let p, let a, _, let bytes, _):
            close(p, at: t, device: device)
            open[p] = Open(app: a, phase: .downloading, bytes: device.size(of: p) - bytes, from: t)
        case .downloadFinished(let p, let a, _):
            close(p, at: t, device: device, bytes: device.size(of: p))
            open[p] = Open(app: a, phase: .stored, bytes: device.size(of: p), from: t)
        case .downloadAbandoned(let p, let a, _, let kept), .downloadFailed(let p, let a, _, let kept):
            close(p, at: t, device: device, bytes: kept)
            if kept > 0 { open[p] = Open(app: a, phase: .partial, bytes: kept, from: t) }
        case .packPurged(let p, _, _, _), .packUpdated(let p, _, _), .packObsoleteRemoved(let p, _, _):
            close(p, at: t, device: device)
        case .appUninstalled(let a, _), .appOffloaded(let a, _):
            for p in open.keys.sorted() where open[p]!.app == a { close(p, at: t, device: device) }
        case .storageCleared(let a, _):
            // Install-time packs stay: only the packs no longer on the disk end here.
            for p in open.keys.sorted() where open[p]!.app == a {
                switch device.state(of: p) {
                case .notDownloaded, .purged: close(p, at: t, device: device)
                default: break
                }
            }
        default: break
        }
    }

    /// Ends every stretch still open at `end` (the run's end), by pack; a download under way
    /// ends with the bytes it has.
    public func close(at end: Double, device: ODRDevice) {
        for p in open.keys.sorted() {
            close(p, at: end, device: device, bytes: device.bytesReceived(by: p))
        }
    }

    private func close(_ p: PackID, at t: Double, device: ODRDevice, bytes: Int64? = nil) {
        guard let stretch = open.removeValue(forKey: p) else { return }
        stretches.append(
            Stretch(
                app: device.name(of: stretch.app), pack: device.name(of: p), phase: stretch.phase,
                bytes: bytes ?? stretch.bytes, from: stretch.from, to: t))
    }

    /// Bytes on disk by phase at each moment a stretch began or ended, in time order: the
    /// chart of the report, from the same stretches as the file.
    public static func totals(_ stretches: [Stretch]) -> [(time: Double, bytes: [Phase: Int64])] {
        var changes: [Double: [Phase: Int64]] = [:]
        for s in stretches {
            changes[s.from, default: [:]][s.phase, default: 0] += s.bytes
            changes[s.to, default: [:]][s.phase, default: 0] -= s.bytes
        }
        var running: [Phase: Int64] = [:]
        return changes.keys.sorted().map { time in
            for (phase, delta) in changes[time]! { running[phase, default: 0] += delta }
            return (time, running)
        }
    }
}
