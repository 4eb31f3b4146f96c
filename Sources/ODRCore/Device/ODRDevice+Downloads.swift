extension ODRDevice {
    /// The link changed; downloads stall or continue accordingly.
    public func setLink(_ link: LinkState, at time: Double) {
        advance(to: time)
        guard link != state.link else { return }
        state.link = link
        state.revision &+= 1
        refreshRunnability()
    }

    /// Downloads under way, in start order, with what a network model needs to share the link.
    public func downloads() -> [DownloadStatus] {
        var list: [DownloadStatus] = []
        downloads(into: &list)
        return list
    }

    /// How many downloads are under way (runnable or stalled).
    public var downloadCount: Int { state.downloadOrder.count }

    /// ``downloads()`` written into `list` (emptied first), reusing its storage: a network
    /// model that re-plans after every change allocates nothing.
    public func downloads(into list: inout [DownloadStatus]) {
        list.removeAllKeepingCapacity()
        for p in state.downloadOrder {
            list.append(
                DownloadStatus(
                    pack: p, app: state.packs[p].app, size: state.packs[p].size,
                    received: state.packDetails[p].received, priority: effectivePriority(p),
                    isRunnable: isRunnable(p)))
        }
    }

    /// Bytes received so far by the pack's running download, or nil if none is running.
    public func bytesReceived(by pack: PackID) -> Int64? {
        let p = Int(pack.rawValue)
        return state.packs[p].downloading ? state.packDetails[p].received : nil
    }

    /// The network delivered `bytes` of `pack`. Completing a pack grants the requests it
    /// completes, and moves install and prefetch along.
    public func receive(_ bytes: Int64, for pack: PackID, at time: Double) {
        advance(to: time)
        let p = pack
        precondition(state.packs[p].downloading, "\(pack) is not downloading")
        precondition(
            bytes >= 0 && bytes <= state.packs[p].size - state.packDetails[p].received,
            "\(bytes) bytes overrun \(pack)")
        state.packDetails[p].received += bytes
        state.odrBytes += bytes
        state.reservedBytes -= bytes
        let owner = state.packs[p].app
        book(\.downloadedBytes, bytes, for: owner)
        if state.packs[p].purgedBefore {
            // An update's download is the new version, not content fetched again.
            if state.packDetails[p].updatePending {
                book(\.updateBytes, bytes, for: owner)
            } else {
                book(\.redownloadBytes, bytes, for: owner)
            }
        }
        if settings.reportsProgress {
            emit(.downloadProgressed(pack, received: state.packDetails[p].received, size: state.packs[p].size))
        }
        if state.packDetails[p].received == state.packs[p].size { finishDownload(p) }
    }

    /// Starts pack `p`'s download, `waiter` (if any) waiting for it. A pack with nothing left
    /// to fetch finishes at once, granting the waiter if that was all it missed.
    func startDownload(_ p: PackID, system: Bool, waiter: RequestID? = nil) {
        let remaining = state.packs[p].size - state.packDetails[p].received
        let (slot, isNew) = state.downloadSlots.take()
        if isNew {
            state.downloadWaiters.append(DownloadWaiters())
            state.downloadBase.append(0)
            state.downloadUnpack.append(0)
        }
        state.downloadBase[slot] = state.packDetails[p].received
        let unpack = unpackBytes(p)
        state.downloadUnpack[slot] = unpack
        move(pack: p, .startDownload, slot: slot)
        if let waiter { state.downloadWaiters[slot].join(waiter, priority: state.requests[waiter.index].priority) }
        state.packDetails[p].systemDownload = system
        state.packDetails[p].stalled = false
        state.reservedBytes += remaining + unpack
        state.downloadOrder.append(p)
        refresh(p)
        book(\.downloadsStarted, for: state.packs[p].app)
        state.revision &+= 1
        emit(
            .downloadStarted(
                p, state.packs[p].app, request: waiter,
                bytes: remaining, redownload: state.packs[p].purgedBefore && !state.packDetails[p].updatePending))
        notePeak()
        if remaining == 0 { finishDownload(p) }
    }

    func finishDownload(_ p: PackID) {
        let download = state.packDetails[p].downloadSlot
        // Resident from here on: its bytes are its size (``PackDetail/received``).
        state.packDetails[p].received = 0
        let wasSystem = state.packDetails[p].systemDownload
        state.packDetails[p].systemDownload = false
        state.packDetails[p].updatePending = false
        removeFromDownloadOrder(p)
        // Extracted: the compressed download's space is free again.
        state.reservedBytes -= state.downloadUnpack[download]
        let app = state.packs[p].app
        emit(.downloadFinished(p, app, bytes: state.packs[p].size - state.downloadBase[download]))
        store(p)
        if wasSystem { systemDownloadFinished(p, app: app) }
        // By index: granting adds no waiter here (the pack is no longer downloading), and
        // the slot is freed only after the loop.
        var w = 0
        while w < state.downloadWaiters[download].joined.count {
            let waiter = state.downloadWaiters[download].joined[w]
            w += 1
            guard let slot = liveSlot(waiter) else { continue }
            state.requests[slot].missing -= 1
            if state.requests[slot].missing == 0 { grant(slot, hit: false) }
        }
        freeDownloadSlot(download)
        // An urgent download's end lets the ones it suspended continue.
        refreshRunnability()
    }

    /// Stops a download no one waits for; its bytes stay on disk as a partial pack.
    func abandon(_ p: PackID) {
        state.reservedBytes -=
            state.packs[p].size - state.packDetails[p].received
            + state.downloadUnpack[state.packDetails[p].downloadSlot]
        let fetched = state.packDetails[p].received - state.downloadBase[state.packDetails[p].downloadSlot]
        freeDownloadSlot(state.packDetails[p].downloadSlot)
        move(pack: p, .abandon(keptBytes: state.packDetails[p].received > 0))
        state.packDetails[p].systemDownload = false
        removeFromDownloadOrder(p)
        refresh(p)
        state.revision &+= 1
        emit(.downloadAbandoned(p, state.packs[p].app, bytes: fetched, keptBytes: state.packDetails[p].received))
    }

    /// The space pack `p`'s download needs beside it while it is fetched and extracted
    /// (``PlatformProfile/unpackShare``): 0 on every preset.
    func unpackBytes(_ p: PackID) -> Int64 {
        let share = state.appContents[state.packs[p].app].profile.unpackShare
        return share > 0 ? Int64((Double(state.packs[p].size) * share).rounded(.up)) : 0
    }

    func freeDownloadSlot(_ slot: Int) {
        state.downloadWaiters[slot].removeAll()
        state.downloadSlots.give(slot)
    }

    func removeFromDownloadOrder(_ p: PackID) {
        if let at = state.downloadOrder.firstIndex(of: p) { state.downloadOrder.remove(at: at) }
    }

    func isRunnable(_ p: PackID) -> Bool { stallCause(p) == nil }

    /// Why pack `p`'s download cannot progress on its own account (offline, cellular, every
    /// waiter paused), or nil; suspension by an urgent download is decided across downloads
    /// (``refreshRunnability()``).
    func stallCause(_ p: PackID) -> ODREvent.StallCause? {
        let record = state.packs[p]
        guard record.downloading else { return .paused }
        if state.link == .offline { return .offline }
        if state.someAppsAwaitConfirmation && awaitsConfirmation(p) { return .requiresUserConfirmation }
        if state.someTransfersStalled && transferStalled(p) { return .transferStalled }
        if state.link == .cellular {
            if !state.apps[record.app].allowsCellular { return .cellularNotAllowed }
            if record.size > state.apps[record.app].rules.cellularConfirmationBytes
                && !state.apps[record.app].cellularConfirmed
            {
                return .waitingForWifi
            }
        }
        if state.packDetails[p].systemDownload { return nil }
        return highestWaitingPriority(state.packDetails[p].downloadSlot) == nil ? .paused : nil
    }

    /// ``stallCause(_:)`` and whether ``effectivePriority(_:)`` is urgent, in one look at
    /// the waiters: what ``refreshRunnability()`` asks of every download after every change.
    @inline(__always)
    func ownState(_ p: PackID) -> (cause: ODREvent.StallCause?, urgent: Bool) {
        let record = state.packs[p]
        guard record.downloading else { return (.paused, false) }
        if state.link == .offline { return (.offline, false) }
        if state.someAppsAwaitConfirmation && awaitsConfirmation(p) { return (.requiresUserConfirmation, false) }
        if state.someTransfersStalled && transferStalled(p) { return (.transferStalled, false) }
        if state.link == .cellular {
            if !state.apps[record.app].allowsCellular { return (.cellularNotAllowed, false) }
            if record.size > state.apps[record.app].rules.cellularConfirmationBytes
                && !state.apps[record.app].cellularConfirmed
            {
                return (.waitingForWifi, false)
            }
        }
        let waiting = highestWaitingPriority(state.packDetails[p].downloadSlot)
        // A system download runs on its own, at normal priority unless an urgent request awaits it.
        if state.packDetails[p].systemDownload { return (nil, waiting?.isUrgent ?? false) }
        guard let waiting else { return (.paused, false) }
        return (nil, waiting.isUrgent)
    }

    func effectivePriority(_ p: PackID) -> LoadingPriority {
        let record = state.packs[p]
        let system: LoadingPriority? = state.packDetails[p].systemDownload ? .normal : nil
        guard record.downloading else { return system ?? .normal }
        guard let waiting = highestWaitingPriority(state.packDetails[p].downloadSlot) else { return system ?? .normal }
        return system.map { Swift.max($0, waiting) } ?? waiting
    }

    /// The highest loading priority among the live, unpaused requests waiting for the
    /// download in `slot`, or nil if every one has paused.
    func highestWaitingPriority(_ slot: Int) -> LoadingPriority? {
        // Stale entries (ended, paused or re-prioritised requests) are dropped as they reach
        // the top; the common case, a current top, reads and writes nothing.
        while let top = state.downloadWaiters[slot].top {
            if let request = liveSlot(top.request), !state.requests[request].paused,
                state.requests[request].priority == top.priority
            {
                return top.priority
            }
            state.downloadWaiters[slot].dropTop()
        }
        return nil
    }

    /// Tells the downloads a waiting request awaits that it resumed or changed priority.
    func noteWaiterChanged(_ slot: Int) {
        let id = id(of: slot)
        for p in packList(of: slot) where state.packs[p].downloading {
            state.downloadWaiters[state.packDetails[p].downloadSlot].push(state.requests[slot].priority, id)
        }
    }

    /// Emits stall and continue events for downloads whose state changed: stalled for their
    /// own cause, or suspended while an urgent download runs (the network gives the link to
    /// urgent downloads alone; ODR-SPEC §3).
    func refreshRunnability() {
        // By index: a for-in loop retains the array, and this runs after every change.
        var urgentRuns = false
        for i in state.downloadOrder.indices where !urgentRuns {
            let own = ownState(state.downloadOrder[i])
            urgentRuns = own.cause == nil && own.urgent
        }
        for i in state.downloadOrder.indices {
            let p = state.downloadOrder[i]
            let own = ownState(p)
            var cause = own.cause
            if cause == nil, urgentRuns, !own.urgent { cause = .suspendedByUrgent }
            let stalled = cause != nil
            if stalled != state.packDetails[p].stalled {
                state.packDetails[p].stalled = stalled
                let app = state.packs[p].app
                emit(cause.map { .downloadStalled(p, app, $0) } ?? .downloadContinued(p, app))
            }
        }
    }

    /// Records what is still open: a ``ODREvent/Kind/downloadOutstanding(_:_:bytes:)`` event
    /// per download under way (in start order) and a
    /// ``ODREvent/Kind/requestOutstanding(_:_:)`` event per waiting request, so that a record
    /// of events that ends here accounts for every byte fetched and every request made.
    public func recordOutstanding(at time: Double) {
        advance(to: time)
        for p in state.downloadOrder {
            emit(
                .downloadOutstanding(
                    p, state.packs[p].app,
                    bytes: state.packDetails[p].received - state.downloadBase[state.packDetails[p].downloadSlot]))
        }
        for slot in state.requests.indices where state.requests[slot].live && !state.requests[slot].granted {
            emit(.requestOutstanding(id(of: slot), state.requests[slot].app))
        }
    }
}

extension ODRDevice {
    /// The apps with a download waiting for the user's confirmation to use cellular data
    /// (Play's `WAITING_FOR_WIFI`), in app order: what a model of the user answers, after
    /// its delay, with ``confirmCellular(_:at:)``. Empty where no such rule applies.
    /// Apps not installed through Play with a download waiting for the user's consent (Play's
    /// `REQUIRES_USER_CONFIRMATION`, on any link) are among them.
    public var appsAwaitingCellularConfirmation: [AppID] {
        let cellular = state.link == .cellular && state.someAppsConfirmCellular
        guard cellular || state.someAppsAwaitConfirmation else { return [] }
        var apps: [AppID] = []
        for p in state.downloadOrder {
            let app = state.packs[p].app
            let large =
                cellular && state.packs[p].size > state.apps[app].rules.cellularConfirmationBytes
                && state.apps[app].allowsCellular && !state.apps[app].cellularConfirmed
            if large || (state.someAppsAwaitConfirmation && awaitsConfirmation(p)), !apps.contains(app) {
                apps.append(app)
            }
        }
        return apps
    }

    /// Whether pack `p`'s download waits for the user's consent because its app was not
    /// installed through Play (install-time packs come with the install).
    func awaitsConfirmation(_ p: PackID) -> Bool {
        state.apps[state.packs[p].app].awaitsUserConfirmation && !state.packDetails[p].initialInstall
    }

    /// The app was not installed through Google Play: from now on its asset-pack downloads
    /// (all but install-time ones) wait for the user's consent, Play's
    /// `REQUIRES_USER_CONFIRMATION` ("if the current app version was not installed through
    /// the Google Play Store", Play Core `showConfirmationDialog`), until ``confirmCellular(_:at:)``.
    public func requireUserConfirmation(of app: AppID) {
        state.apps[app].awaitsUserConfirmation = true
        state.someAppsAwaitConfirmation = true
        refreshRunnability()
    }

    /// The user confirms the app's downloads in Play's confirmation dialog
    /// (`showConfirmationDialog`, which answers `WAITING_FOR_WIFI` and
    /// `REQUIRES_USER_CONFIRMATION` alike): from now on its large downloads run on any link,
    /// and one not installed through Play may download. Returns false if it was already confirmed.
    @discardableResult
    public func confirmCellular(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        guard !state.apps[app].cellularConfirmed || state.apps[app].awaitsUserConfirmation else { return false }
        state.apps[app].cellularConfirmed = true
        state.apps[app].awaitsUserConfirmation = false
        state.revision &+= 1
        refreshRunnability()
        return true
    }
}
