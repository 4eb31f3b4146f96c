import ODRCore
import Simulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `odr-sim live`: the loop that drives a ``Simulator`` with external transfers through real
/// downloads into a folder, on a real clock.
///
/// - **Time.** The scenario's events happen when a ``LiveClock`` (virtual seconds at `speed`
///   a real one) reaches them. While no transfer runs nothing real can happen, and the clock
///   jumps to the next event.
/// - **Downloads.** Each download the device runs (and may run: ``DownloadStatus/isRunnable``)
///   is an HTTP transfer of its pack's version into its part file (``PackFetcher``); the bytes
///   written are delivered to the device as they arrive, at the clock's time, except the last
///   one, delivered once the file is complete, its size and digest checked and its name
///   final. A download the device stops (paused, cancelled, abandoned) stops its transfer.
/// - **Disk.** A purge, an uninstall or an update removes the pack's file: after every step the
///   folder holds, for each pack, what the device says it holds (``PackFolder``). The device's
///   other data is raised to what the file system says beyond odr-sim's files (``statvfs``),
///   so a folder on a file system of the device's free space (a tmpfs) is a real full disk; a
///   write that fails for space (ENOSPC) fails its download, its requests out of space, after
///   the device hears of it.
/// - **Restarts.** A pack the folder already holds (a run before this one was killed) is
///   delivered from the disk when the device downloads it: whole if complete, else from its
///   part file's length on.
public final class LiveRun {
    /// Where the packs are served.
    public struct Server: Sendable {
        public let host: String
        public let port: Int
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Whether something accepts connections there now (a run against no server would
        /// only fail each download in turn).
        public var isListening: Bool {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var found: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return false }
            defer { freeaddrinfo(found) }
            let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0
        }
    }

    private let scenario: Scenario
    private let server: Server
    private let folder: PackFolder
    private var clock: LiveClock
    private let fetcher = PackFetcher()
    /// Each device-wide pack's app ID, name and size.
    private var packs: [(app: String, pack: String, size: Int64)] = []
    /// Each pack's device-wide index by app ID and name.
    private var indexOf: [String: Int] = [:]
    /// Each pack's version: 1, and one more at each update that removed the old one.
    private var versions: [Int] = []
    /// Packs whose files a run before this one left, not yet downloaded by this one: other
    /// data to the device, until it downloads them or the run ends.
    private var unclaimed: Set<Int> = []
    private var transfers: [Int: Transfer] = [:]
    private var byTransfer: [Int: Int] = [:]
    /// Other data added to the scenario's because the file system holds more.
    private var addedOther: Int64 = 0
    /// One line per transfer that failed (why), for the run's notes.
    public private(set) var failures: [String] = []

    private struct Transfer {
        let id: Int
        /// Bytes of the part file (written so far).
        var written: Int64
        /// Bytes the device has received of it.
        var delivered: Int64
        var ended = false
    }

    /// A live run of `scenario` against the packs at `server`, into `folder` (made if missing),
    /// at `speed` virtual seconds a real one.
    /// - Throws: ``LiveError`` when the folder holds a pack's file odr-sim did not write.
    public init(scenario: Scenario, server: Server, folder path: String, speed: Double) throws(LiveError) {
        self.scenario = scenario
        self.server = server
        clock = LiveClock(speed: speed)
        for app in scenario.apps {
            for pack in app.catalog.packs {
                indexOf[Self.key(app.id, pack.name)] = packs.count
                packs.append((app.id, pack.name, pack.size))
            }
        }
        versions = Array(repeating: 1, count: packs.count)
        folder = try PackFolder(path: path, packs: packs)
        for (index, pack) in packs.enumerated() where folder.holding(app: pack.app, pack: pack.pack) != nil {
            unclaimed.insert(index)
        }
    }

    deinit { fetcher.shutdown() }

    private static func key(_ app: String, _ pack: String) -> String { app + "\u{0}" + pack }

    /// What the run watches of the device's events: updates (a new version).
    public lazy var watcher: any SimulationObserver = Watcher(run: self)

    private final class Watcher: SimulationObserver {
        unowned let run: LiveRun
        init(run: LiveRun) { self.run = run }
        func simulator(_ simulator: Simulator, emitted event: ODREvent) {
            if case .packUpdated(let pack, _, _) = event.kind { run.versions[pack.index] += 1 }
        }
    }

    /// Runs `simulator` (started, with ``watcher`` among its observers) to the scenario's end.
    public func drive(_ simulator: Simulator) throws(LiveError) {
        precondition(simulator.transfers == .external, "a live run drives a simulator of external transfers")
        precondition(simulator.device.packCount == packs.count, "the simulator is of another scenario")
        try settle(simulator)
        while true {
            let next = simulator.peek()
            if transfers.isEmpty {
                guard let next else { break }
                clock.jump(to: next)
                simulator.step()
                try settle(simulator)
                continue
            }
            let target = next ?? scenario.duration
            let news = fetcher.inbox.take(waitingUntil: clock.realInstant(of: target))
            if news.isEmpty {
                guard clock.now >= target else { continue }
                if next == nil { break }
                simulator.step()
            } else {
                let time = now(simulator)
                for item in news { try handle(item, simulator, at: time) }
            }
            try settle(simulator)
        }
        for (_, transfer) in transfers { fetcher.stop(transfer.id) }
        transfers.removeAll()
        simulator.finish()
        // Packs of earlier runs this one never downloaded go: the folder holds what the
        // device holds.
        for index in unclaimed { try folder.remove(app: packs[index].app, pack: packs[index].pack) }
        unclaimed.removeAll()
        try syncFiles(simulator)
        try folder.removeEmptyFolders()
    }

    /// The virtual time of what happens now: the clock's, but never before the device's
    /// last step nor past its next event (which comes first, at its own time).
    private func now(_ simulator: Simulator) -> Double {
        min(max(clock.now, simulator.device.now), simulator.peek() ?? scenario.duration)
    }

    private func handle(_ news: TransferNews, _ simulator: Simulator, at time: Double) throws(LiveError) {
        let id: Int
        switch news {
        case .wrote(let slot, _), .answered(let slot, _), .ended(let slot), .failed(let slot, _, _): id = slot
        }
        // News of a transfer stopped since (its pack's download may have started again, as
        // another transfer) is not this one's.
        guard let index = byTransfer[id], var transfer = transfers[index], transfer.id == id, !transfer.ended
        else { return }
        let (app, name, size) = packs[index]
        switch news {
        case .answered(_, let etag):
            try folder.noteTag(app: app, pack: name, etag)
        case .wrote(_, let bytes):
            transfer.written += bytes
            folder.noteLength(app: app, pack: name, transfer.written)
            transfers[index] = transfer
            try deliverHeld(index, simulator, at: time)
        case .ended:
            transfer.ended = true
            transfers[index] = transfer
            fetcher.forget(id)
            guard transfer.written == size else {
                return fail(index, "the transfer ended at \(transfer.written) of \(size) bytes", simulator, at: time)
            }
            try finishFile(index, simulator, at: time)
        case .failed(_, let reason, let diskFull):
            // The disk refused the bytes: the device hears what fills it, and the requests
            // waiting for the pack fail out of space, as the device's own full disk fails them.
            if diskFull { try syncOtherData(simulator) }
            fail(index, reason, simulator, at: time, because: diskFull ? .outOfSpace : .downloadFailed)
        }
    }

    /// Delivers what the part file holds beyond what the device has, but the last byte.
    private func deliverHeld(_ index: Int, _ simulator: Simulator, at time: Double) throws(LiveError) {
        guard var transfer = transfers[index] else { return }
        let pack = PackID(rawValue: Int32(index))
        guard simulator.device.bytesReceived(by: pack) == transfer.delivered else { return }
        let deliverable = min(transfer.written, packs[index].size - 1) - transfer.delivered
        guard deliverable > 0 else { return }
        transfer.delivered += deliverable
        transfers[index] = transfer
        simulator.deliver(deliverable, to: pack, at: time)
    }

    /// The part file is whole: its digest checked against the server's tag, its name made
    /// final, and its last bytes delivered (the device stores the pack).
    private func finishFile(_ index: Int, _ simulator: Simulator, at time: Double) throws(LiveError) {
        let (app, name, size) = packs[index]
        let pack = PackID(rawValue: Int32(index))
        if case .part(_, _, let etag) = folder.holding(app: app, pack: name), let etag,
            let expected = PackDigest.digest(fromETag: etag)
        {
            let found = try PackFolder.digest(of: folder.file(PackPath.partFile(app: app, pack: name)))
            guard found == expected else {
                throw LiveError(
                    """
                    \(app)/\(name): the downloaded file's digest is \(String(found, radix: 16)), the server's tag \
                    says \(String(expected, radix: 16)); the server's bytes changed under a resumed download
                    """)
            }
        }
        try folder.complete(app: app, pack: name)
        let finished = transfers.removeValue(forKey: index)
        if let finished { byTransfer[finished.id] = nil }
        let delivered = finished?.delivered ?? 0
        guard simulator.device.bytesReceived(by: pack) == delivered else { return }
        simulator.deliver(size - delivered, to: pack, at: time)
    }

    private func fail(
        _ index: Int, _ reason: String, _ simulator: Simulator, at time: Double,
        because error: RequestError = .downloadFailed
    ) {
        let pack = PackID(rawValue: Int32(index))
        if let transfer = transfers.removeValue(forKey: index) {
            fetcher.stop(transfer.id)
            byTransfer[transfer.id] = nil
        }
        failures.append("\(packs[index].app)/\(packs[index].pack): \(reason)")
        if simulator.device.bytesReceived(by: pack) != nil { simulator.failTransfer(pack, at: time, because: error) }
    }

    /// After each step: files as the device says, other data as the disk says, transfers as
    /// the device's downloads say (repeated while delivering from the disk changes them).
    private func settle(_ simulator: Simulator) throws(LiveError) {
        for _ in 0..<64 {
            try syncFiles(simulator)
            try syncOtherData(simulator)
            guard try syncTransfers(simulator) else { return }
        }
    }

    /// Removes or shortens odr-sim's files so that each pack's is what the device holds.
    private func syncFiles(_ simulator: Simulator) throws(LiveError) {
        for (app, name) in folder.packsHeld {
            guard let index = indexOf[Self.key(app, name)], !unclaimed.contains(index) else { continue }
            let state = simulator.device.state(of: PackID(rawValue: Int32(index)))
            switch (state, folder.holding(app: app, pack: name)) {
            case (.downloaded, .complete), (.inUse, .complete): break
            case (.downloading, .part): break
            case (.partiallyDownloaded(let bytes), .part(_, let length, _)) where bytes > 0:
                if length > bytes { try folder.truncatePart(app: app, pack: name, to: bytes) }
            default:
                if let transfer = transfers.removeValue(forKey: index) {
                    fetcher.stop(transfer.id)
                    byTransfer[transfer.id] = nil
                }
                try folder.remove(app: app, pack: name)
            }
        }
    }

    /// Raises (or lowers back) the device's other data to what the file system holds beyond
    /// odr-sim's files of this run's packs. A pack downloading counts at its whole size (what
    /// the device reserves for it), so the bytes a transfer writes between two looks at the
    /// disk are never taken for someone else's.
    private func syncOtherData(_ simulator: Simulator) throws(LiveError) {
        var ours: Int64 = 0
        for held in folder.packsHeld {
            guard let index = indexOf[Self.key(held.app, held.pack)], !unclaimed.contains(index) else { continue }
            let downloading = simulator.device.bytesReceived(by: PackID(rawValue: Int32(index))) != nil
            ours += downloading ? packs[index].size : folder.bytes(of: [held])
        }
        let measured = scenario.device.capacity - (try folder.freeBytes()) - ours
        let scenarioOther = simulator.device.otherBytes - addedOther
        let wanted = max(0, measured - scenarioOther)
        guard wanted != addedOther else { return }
        addedOther += simulator.changeOtherData(by: wanted - addedOther, at: now(simulator))
    }

    /// Starts a transfer for each runnable download that has none (or delivers it from the
    /// disk), and stops those whose download is gone or may not run. True if it delivered.
    private func syncTransfers(_ simulator: Simulator) throws(LiveError) -> Bool {
        var statuses: [DownloadStatus] = []
        simulator.device.downloads(into: &statuses)
        let runnable = Set(statuses.filter(\.isRunnable).map { Int($0.pack.rawValue) })
        for (index, transfer) in transfers where !runnable.contains(index) && !transfer.ended {
            fetcher.stop(transfer.id)
            transfers[index] = nil
            byTransfer[transfer.id] = nil
        }
        let time = now(simulator)
        for status in statuses where status.isRunnable && transfers[Int(status.pack.rawValue)] == nil {
            if try start(status, simulator, at: time) { return true }
        }
        return false
    }

    /// Starts `status`'s transfer, or delivers from the disk what the folder holds of its
    /// version (true then: the device has news).
    private func start(_ status: DownloadStatus, _ simulator: Simulator, at time: Double) throws(LiveError) -> Bool {
        let index = Int(status.pack.rawValue)
        let (app, name, size) = packs[index]
        let version = versions[index]
        unclaimed.remove(index)
        var holding = folder.holding(app: app, pack: name)
        switch holding {
        case .complete(let held, _) where held == version:
            simulator.deliver(size - status.received, to: status.pack, at: time)
            return true
        case .part(let held, let length, _) where held == version && length >= status.received:
            if length == size {
                transfers[index] = Transfer(id: 0, written: length, delivered: status.received, ended: true)
                try finishFile(index, simulator, at: time)
                return true
            }
            if length > status.received {
                let bytes = min(length, size - 1) - status.received
                if bytes > 0 {
                    simulator.deliver(bytes, to: status.pack, at: time)
                    return true
                }
            }
        case .none:
            break
        default:
            try folder.remove(app: app, pack: name)
            holding = nil
        }
        guard status.received == 0 || holding != nil else {
            throw LiveError("\(app)/\(name): the device holds \(status.received) bytes the folder does not")
        }
        let partPath: String
        var offset: Int64 = 0
        var etag: String?
        if case .part(_, let length, let tag) = holding {
            partPath = folder.file(PackPath.partFile(app: app, pack: name))
            offset = length
            etag = tag
        } else {
            do {
                partPath = try folder.beginPart(app: app, pack: name, version: version, size: size)
            } catch  where error.isDiskFull {
                // No room for the manifest naming the file: the download fails out of space.
                transfers[index] = Transfer(id: 0, written: 0, delivered: status.received)
                fail(index, error.description, simulator, at: time, because: .outOfSpace)
                return true
            }
        }
        let id = fetcher.start(
            PackFetcher.Request(
                host: server.host, port: server.port, path: PackPath.url(app: app, pack: name, version: version),
                offset: offset, ifRange: etag, file: partPath))
        transfers[index] = Transfer(id: id, written: offset, delivered: status.received)
        byTransfer[id] = index
        return false
    }
}
