extension ODRDevice {
    /// Installs the app: its initial-install packs download first (the app cannot launch
    /// before they are on the device), then its prefetch packs one after another in order.
    ///
    /// If the initial-install packs cannot get their space, the install fails with
    /// ``RequestError/outOfSpace`` and the app stays uninstalled. A prefetch pack that cannot
    /// get space without a low-disk warning is skipped: prefetching never warns.
    /// Returns false if the app was already installed or installing.
    @discardableResult
    public func install(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        let a = Int(app.rawValue)
        guard !apps[a].isPresent else { return false }
        let initial = appContents[a].catalog.initialInstallPacks.map { apps[a].firstPack + $0 }
        let needed = initial.reduce(Int64(0)) { $0 + packs[Int($1)].size }
        apps[a].installing = true
        guard makeRoom(needed, mayWarn: true) else {
            apps[a].installing = false
            ledger.installFailures += 1
            emit(.installFailed(app, .outOfSpace))
            return true
        }
        apps[a].pendingInitial = initial.count
        appContents[a].prefetchQueue = appContents[a].catalog.prefetchPacks.map { apps[a].firstPack + $0 }
        apps[a].prefetchCursor = 0
        for p in initial { startDownload(Int(p), system: true) }
        refreshRunnability()
        if initial.isEmpty { completeInstall(a) }
        return true
    }

    /// The app starts running: its packs are purged only when nothing else frees the space.
    /// Launching while the install is under way takes effect when it completes.
    @discardableResult
    public func launch(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        let a = Int(app.rawValue)
        if apps[a].installing {
            apps[a].launchPending = true
            return true
        }
        guard apps[a].installed, !apps[a].running else { return false }
        setRunning(a, true)
        emit(.appLaunched(app))
        return true
    }

    /// The app stops running (the user closed it); its requests end.
    @discardableResult
    public func terminate(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        guard apps[Int(app.rawValue)].isPresent else { return false }
        terminate(app.rawValue, cause: .user)
        return true
    }

    /// Removes the app and all its packs from the disk (not counted as purges).
    @discardableResult
    public func uninstall(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        let a = Int(app.rawValue)
        guard apps[a].isPresent else { return false }
        dropRequests(of: app.rawValue)
        var removed: Int64 = 0
        for p in apps[a].packRange {
            if packs[p].downloading { abandon(p) }
            let wasResident = packs[p].phase == .resident
            if wasResident { policy.packRemoved(candidate(at: p)) }
            removed += packs[p].bytesOnDisk
            odrBytes -= packs[p].bytesOnDisk
            packs[p].phase = .notDownloaded
            refresh(p)  // before zeroing: a leftover partial pack leaves leftoverBytes with its bytes
            packs[p].bytesOnDisk = 0
            packDetails[p].purgeCount = 0
            packs[p].purgedBefore = false
            packs[p].requestCount = 0
            packs[p].lastRequestOrdinal = 0
        }
        apps[a].installing = false
        apps[a].installed = false
        setRunning(a, false)
        apps[a].launchPending = false
        for p in apps[a].packRange { refresh(p) }
        ledger.removedBytes += removed
        emit(.appUninstalled(app, removedBytes: removed))
        return true
    }

    func terminate(_ app: Int32, cause: ODREvent.TerminationCause) {
        dropRequests(of: app)
        setRunning(Int(app), false)
        apps[Int(app)].launchPending = false
        if cause == .outOfSpace { ledger.appTerminations += 1 }
        emit(.appTerminated(AppID(rawValue: app), cause))
    }

    func completeInstall(_ a: Int) {
        apps[a].installing = false
        apps[a].installed = true
        emit(.appInstalled(AppID(rawValue: Int32(a))))
        if apps[a].launchPending {
            apps[a].launchPending = false
            setRunning(a, true)
            emit(.appLaunched(AppID(rawValue: Int32(a))))
        }
        startNextPrefetch(a)
    }

    func systemDownloadFinished(_ p: Int, app a: Int) {
        if apps[a].installing && packDetails[p].category == .initialInstall {
            apps[a].pendingInitial -= 1
            if apps[a].pendingInitial == 0 { completeInstall(a) }
        } else if apps[a].prefetchActive == Int32(p) {
            apps[a].prefetchActive = -1
            startNextPrefetch(a)
        }
    }

    /// Prefetches the app's next prefetch pack that needs downloading and gets its space.
    ///
    /// A prefetch never purges its own app's initial-install packs: they are part of what
    /// the app was installed with (ODR-SPEC §1), and trading them for content merely
    /// expected to be needed would make the app download them again at its first request.
    /// They are shielded (pinned) while the device makes room, and remain candidates for
    /// every other space demand, the same app's requests included.
    func startNextPrefetch(_ a: Int) {
        while apps[a].prefetchCursor < appContents[a].prefetchQueue.count {
            let p = Int(appContents[a].prefetchQueue[apps[a].prefetchCursor])
            apps[a].prefetchCursor += 1
            if packs[p].phase == .resident || packs[p].downloading { continue }
            let shielded = appContents[a].catalog.initialInstallPacks.map { Int(apps[a].firstPack + $0) }
            for q in shielded {
                packs[q].pins += 1
                refresh(q)
            }
            let room = makeRoom(packs[p].size - packs[p].bytesOnDisk, mayWarn: false)
            // Pins restored within the call: the app's committed bytes (which count pins) never see them.
            for q in shielded {
                packs[q].pins -= 1
                refresh(q)
            }
            if room {
                apps[a].prefetchActive = Int32(p)
                startDownload(p, system: true)
                refreshRunnability()
                return
            }
            emit(.prefetchSkipped(PackID(rawValue: Int32(p)), AppID(rawValue: Int32(a)), .outOfSpace))
        }
    }
}
