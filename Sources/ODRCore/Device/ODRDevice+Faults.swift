extension ODRDevice {
    /// The download of pack `p` fails now (a server error, a dropped connection): it stops,
    /// each request waiting for it fails with ``RequestError/downloadFailed`` (the app gets
    /// the error: no platform documents retrying on its own first), an install stops waiting
    /// for it (Background Assets: when an essential pack's download "fails and cannot
    /// proceed, the system stops blocking the launch", Apple, developer forums thread 808927)
    /// and a prefetch skips it. The bytes fetched stay for the next download to resume from,
    /// or are removed (``PlatformProfile/resumesFailedDownloads``). Returns false if no
    /// download of `p` is under way.
    ///
    /// `error` is what the waiting requests get: ``RequestError/outOfSpace`` when the disk
    /// refused the bytes (a real disk, full of data the device was not told of: `odr-sim live`).
    @discardableResult
    public func failDownload(_ p: PackID, at time: Double, because error: RequestError = .downloadFailed) -> Bool {
        advance(to: time)
        guard state.packs[p].downloading else { return false }
        let a = state.packs[p].app
        let slot = state.packDetails[p].downloadSlot
        let waiters = state.downloadWaiters[slot].joined
        let wasSystem = state.packDetails[p].systemDownload
        book(\.downloadFailures, for: a)
        let fetched = state.packDetails[p].received - state.downloadBase[slot]
        state.reservedBytes -= state.packs[p].size - state.packDetails[p].received + state.downloadUnpack[slot]
        let keeps = state.appContents[a].profile.resumesFailedDownloads
        if !keeps {
            state.odrBytes -= state.packDetails[p].received
            state.packDetails[p].received = 0
        }
        freeDownloadSlot(slot)
        move(pack: p, keeps ? .abandon(keptBytes: state.packDetails[p].received > 0) : .failDiscarding)
        state.packDetails[p].systemDownload = false
        state.stalledTransfers.remove(p)
        removeFromDownloadOrder(p)
        refresh(p)
        state.revision &+= 1
        emit(.downloadFailed(p, a, bytes: fetched, keptBytes: state.packDetails[p].received))
        for waiter in waiters {
            guard let request = liveSlot(waiter), !state.requests[request].granted else { continue }
            failWaiting(request, error)
        }
        if wasSystem { systemDownloadFailed(p, app: a) }
        refreshRunnability()
        return true
    }

    /// Every download under way fails now (the link dropped them all): ``failDownload(_:at:)``
    /// of each, in start order. Returns how many failed.
    @discardableResult
    public func failDownloads(at time: Double) -> Int {
        advance(to: time)
        let failing = state.downloadOrder
        return failing.reduce(0) { $0 + (failDownload($1, at: time) ? 1 : 0) }
    }

    /// The transfer of pack `p` (nil: every transfer on the link) stalls or goes on: a slow or
    /// silent server, a link that carries nothing for a while. A stalled download keeps its
    /// place and its waiters (``ODREvent/StallCause/transferStalled``); a download that starts
    /// while the link is stalled stalls too.
    public func setTransferStalled(_ p: PackID?, _ stalled: Bool, at time: Double) {
        advance(to: time)
        if let p {
            if stalled { state.stalledTransfers.insert(p) } else { state.stalledTransfers.remove(p) }
        } else {
            state.linkStalled = stalled
        }
        state.revision &+= 1
        refreshRunnability()
    }

    /// The user clears the app's storage (Android's Settings › Apps › Storage › "Clear
    /// storage", which deletes the app's data): its asset packs live in the app's
    /// `files/assetpacks` (PLATFORMS, Play), so every fast-follow and on-demand pack goes, a
    /// download under way included; install-time packs are part of the installed app and stay.
    /// Android stops the app first, and its requests end. The bytes count in
    /// ``Ledger/clearedBytes``; the packs' next downloads are re-downloads. A fast-follow pack
    /// is not fetched again by itself (Play fetches those at install and update). Returns false
    /// if the app is not installed.
    @discardableResult
    public func clearStorage(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        guard state.apps[app].phase.isInstalled else { return false }
        if state.apps[app].phase.isRunning { terminate(app, cause: .user) }
        dropRequests(of: app)
        state.apps[app].prefetchActive = .none
        state.apps[app].prefetchCursor = state.appContents[app].prefetchQueue.count
        var removed: Int64 = 0
        for p in state.apps[app].packs where !state.packDetails[p].initialInstall {
            if state.packs[p].downloading {
                state.packDetails[p].systemDownload = false
                abandon(p)
            }
            let phase = state.packs[p].phase
            guard phase == .resident || phase == .partial else { continue }
            removed += discard(p)
        }
        state.revision &+= 1
        refreshRunnability()
        book(\.clearedBytes, removed, for: app)
        emit(.storageCleared(app, removedBytes: removed))
        return true
    }

    /// Whether pack `p`'s transfer is stalled (``setTransferStalled(_:_:at:)``).
    func transferStalled(_ p: PackID) -> Bool {
        state.someTransfersStalled && (state.linkStalled || state.stalledTransfers.contains(p))
    }

    /// A waiting request fails with `error`: it goes as a cancelled one does
    /// (``leaveWaiting(_:)``), but it counts as failed.
    func failWaiting(_ slot: Int, _ error: RequestError) {
        let app = state.requests[slot].app
        let id = id(of: slot)
        leaveWaiting(slot)
        _ = fail(app, error, request: id)
    }

    /// An install or prefetch download failed: the install stops waiting for it, a prefetch
    /// goes on to its next pack.
    private func systemDownloadFailed(_ p: PackID, app a: AppID) {
        if state.apps[a].installing && state.packDetails[p].initialInstall {
            state.apps[a].pendingInitial -= 1
            if state.apps[a].pendingInitial == 0 { completeInstall(a) }
        } else if state.apps[a].prefetchActive == p {
            emit(.prefetchSkipped(p, a, .downloadFailed))
            state.apps[a].prefetchActive = .none
            startNextPrefetch(a)
        }
    }
}
