extension ODRDevice {
    /// The link changed; downloads stall or continue accordingly.
    public func setLink(_ state: LinkState, at time: Double) {
        advance(to: time)
        guard state != link else { return }
        link = state
        revision &+= 1
        refreshRunnability()
    }

    /// Downloads under way, in start order, with what a network model needs to share the link.
    public func downloads() -> [DownloadStatus] {
        var list: [DownloadStatus] = []
        downloads(into: &list)
        return list
    }

    /// How many downloads are under way (runnable or stalled).
    public var downloadCount: Int { downloadOrder.count }

    /// ``downloads()`` written into `list` (emptied first), reusing its storage: a network
    /// model that re-plans after every change allocates nothing.
    public func downloads(into list: inout [DownloadStatus]) {
        list.removeAllKeepingCapacity()
        for p in downloadOrder {
            list.append(DownloadStatus(
                pack: PackID(rawValue: p), app: AppID(rawValue: packs[Int(p)].app), size: packs[Int(p)].size,
                received: packs[Int(p)].bytesOnDisk, priority: effectivePriority(Int(p)), isRunnable: isRunnable(Int(p))))
        }
    }

    /// Bytes received so far by the pack's running download, or nil if none is running.
    public func bytesReceived(by pack: PackID) -> Int64? {
        let p = Int(pack.rawValue)
        return packs[p].downloading ? packs[p].bytesOnDisk : nil
    }

    /// The network delivered `bytes` of `pack`. Completing a pack grants the requests it
    /// completes, and moves install and prefetch along.
    public func receive(_ bytes: Int64, for pack: PackID, at time: Double) {
        advance(to: time)
        let p = Int(pack.rawValue)
        precondition(packs[p].downloading, "\(pack) is not downloading")
        precondition(bytes >= 0 && bytes <= packs[p].size - packs[p].bytesOnDisk, "\(bytes) bytes overrun \(pack)")
        packs[p].bytesOnDisk += bytes
        odrBytes += bytes
        reservedBytes -= bytes
        ledger.downloadedBytes += bytes
        if packs[p].purgedBefore { ledger.redownloadBytes += bytes }
        if settings.reportsProgress {
            emit(.downloadProgressed(pack, received: packs[p].bytesOnDisk, size: packs[p].size))
        }
        if packs[p].bytesOnDisk == packs[p].size { finishDownload(p) }
    }

    /// Starts pack `p`'s download, `waiter` (if any) waiting for it. A pack with nothing left
    /// to fetch finishes at once, granting the waiter if that was all it missed.
    func startDownload(_ p: Int, system: Bool, waiter: RequestID? = nil) {
        let remaining = packs[p].size - packs[p].bytesOnDisk
        let slot: Int32
        if let free = freeDownloadSlots.popLast() {
            slot = free
        } else {
            slot = Int32(downloadWaiters.count)
            downloadWaiters.append([])
            downloadBase.append(0)
        }
        downloadBase[Int(slot)] = packs[p].bytesOnDisk
        packs[p].download = slot
        if let waiter { downloadWaiters[Int(slot)].append(waiter) }
        packDetails[p].systemDownload = system
        packDetails[p].stalled = false
        reservedBytes += remaining
        downloadOrder.append(Int32(p))
        refresh(p)
        ledger.downloadsStarted += 1
        revision &+= 1
        emit(.downloadStarted(PackID(rawValue: Int32(p)), AppID(rawValue: packs[p].app), request: waiter,
                              bytes: remaining, redownload: packs[p].purgedBefore))
        notePeak()
        if remaining == 0 { finishDownload(p) }
    }

    func finishDownload(_ p: Int) {
        let download = Int(packs[p].download)
        packs[p].download = -1
        packs[p].phase = .resident
        let wasSystem = packDetails[p].systemDownload
        packDetails[p].systemDownload = false
        removeFromDownloadOrder(p)
        touch(p)
        packDetails[p].storedTick = useTick
        refresh(p)
        ledger.downloadsFinished += 1
        revision &+= 1
        let app = packs[p].app
        emit(.downloadFinished(PackID(rawValue: Int32(p)), AppID(rawValue: app), bytes: packs[p].size - downloadBase[download]))
        policy.packStored(candidate(at: p))
        if wasSystem { systemDownloadFinished(p, app: Int(app)) }
        // By index: granting adds no waiter here (the pack is no longer downloading), and
        // the slot is freed only after the loop.
        var w = 0
        while w < downloadWaiters[download].count {
            let waiter = downloadWaiters[download][w]
            w += 1
            guard let slot = liveSlot(waiter) else { continue }
            requests[slot].missing -= 1
            if requests[slot].missing == 0 { grant(slot, hit: false) }
        }
        freeDownloadSlot(download)
        // An urgent download's end lets the ones it suspended continue.
        refreshRunnability()
    }

    /// Stops a download no one waits for; its bytes stay on disk as a partial pack.
    func abandon(_ p: Int) {
        reservedBytes -= packs[p].size - packs[p].bytesOnDisk
        let fetched = packs[p].bytesOnDisk - downloadBase[Int(packs[p].download)]
        freeDownloadSlot(Int(packs[p].download))
        packs[p].download = -1
        packDetails[p].systemDownload = false
        removeFromDownloadOrder(p)
        if packs[p].bytesOnDisk > 0 {
            packs[p].phase = .partial
        } else {
            packs[p].phase = packs[p].purgedBefore ? .purged : .notDownloaded
        }
        refresh(p)
        revision &+= 1
        emit(.downloadAbandoned(PackID(rawValue: Int32(p)), AppID(rawValue: packs[p].app), bytes: fetched, keptBytes: packs[p].bytesOnDisk))
    }

    func freeDownloadSlot(_ slot: Int) {
        downloadWaiters[slot].removeAllKeepingCapacity()
        freeDownloadSlots.append(Int32(slot))
    }

    func removeFromDownloadOrder(_ p: Int) {
        if let at = downloadOrder.firstIndex(of: Int32(p)) { downloadOrder.remove(at: at) }
    }

    func isRunnable(_ p: Int) -> Bool { stallCause(p) == nil }

    /// Why pack `p`'s download cannot progress on its own account (offline, cellular, every
    /// waiter paused), or nil; suspension by an urgent download is decided across downloads
    /// (``refreshRunnability()``).
    func stallCause(_ p: Int) -> ODREvent.StallCause? {
        let record = packs.address(p)
        guard record.pointee.downloading else { return .paused }
        if link == .offline { return .offline }
        if link == .cellular && !apps[Int(record.pointee.app)].allowsCellular { return .cellularNotAllowed }
        if packDetails[p].systemDownload { return nil }
        // Performance: by index, so the waiters' list is neither retained nor released.
        let download = Int(record.pointee.download)
        for w in downloadWaiters[download].indices {
            if let slot = liveSlot(downloadWaiters[download][w]), !requests[slot].paused { return nil }
        }
        return .paused
    }

    func effectivePriority(_ p: Int) -> LoadingPriority {
        let record = packs.address(p)
        var best: LoadingPriority? = packDetails[p].systemDownload ? .normal : nil
        guard record.pointee.downloading else { return best ?? .normal }
        let download = Int(record.pointee.download)
        for w in downloadWaiters[download].indices {
            guard let slot = liveSlot(downloadWaiters[download][w]), !requests[slot].paused else { continue }
            let priority = requests[slot].priority
            if best.map({ priority > $0 }) ?? true { best = priority }
        }
        return best ?? .normal
    }

    /// Emits stall and continue events for downloads whose state changed: stalled for their
    /// own cause, or suspended while an urgent download runs (the network gives the link to
    /// urgent downloads alone; ODR-SPEC §3).
    func refreshRunnability() {
        // By index: a for-in loop retains the array, and this runs after every change.
        var urgentRuns = false
        for i in downloadOrder.indices where !urgentRuns {
            let p = Int(downloadOrder[i])
            urgentRuns = stallCause(p) == nil && effectivePriority(p).isUrgent
        }
        for i in downloadOrder.indices {
            let p32 = downloadOrder[i], p = Int(p32)
            var cause = stallCause(p)
            if cause == nil, urgentRuns, !effectivePriority(p).isUrgent { cause = .suspendedByUrgent }
            let stalled = cause != nil
            if stalled != packDetails[p].stalled {
                packDetails[p].stalled = stalled
                let pack = PackID(rawValue: p32)
                let app = AppID(rawValue: packs[p].app)
                emit(cause.map { .downloadStalled(pack, app, $0) } ?? .downloadContinued(pack, app))
            }
        }
    }

    /// Records what is still open: a ``ODREvent/Kind/downloadOutstanding(_:_:bytes:)`` event
    /// per download under way (in start order) and a
    /// ``ODREvent/Kind/requestOutstanding(_:_:)`` event per waiting request, so that a record
    /// of events that ends here accounts for every byte fetched and every request made.
    public func recordOutstanding(at time: Double) {
        advance(to: time)
        for p32 in downloadOrder {
            let p = Int(p32)
            emit(.downloadOutstanding(PackID(rawValue: p32), AppID(rawValue: packs[p].app),
                                      bytes: packs[p].bytesOnDisk - downloadBase[Int(packs[p].download)]))
        }
        for slot in requests.indices where requests[slot].live && !requests[slot].granted {
            emit(.requestOutstanding(id(of: slot), AppID(rawValue: requests[slot].app)))
        }
    }
}
