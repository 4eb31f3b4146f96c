extension ODRDevice {
    /// Installs the app: its initial-install packs download first (the app cannot launch
    /// before they are on the device), then its prefetch packs one after another in order.
    ///
    /// If the initial-install packs cannot get their space, the install fails with
    /// ``RequestError/outOfSpace`` and the app stays uninstalled; on a platform where it goes
    /// ahead without them (``PlatformProfile/installFailsWithoutInitialSpace``, Background
    /// Assets' essential packs) the app is installed at once, each initial pack skipped, to
    /// be fetched when a request asks for it. A prefetch pack that cannot
    /// get space without a low-disk warning is skipped: prefetching never warns.
    /// Returns false if the app was already installed or installing.
    @discardableResult
    public func install(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        let a = app
        guard !state.apps[a].isPresent else { return false }
        let initial = accepted(state.appContents[a].catalog.initialInstallPacks.map(state.apps[a].pack), of: a)
        let needed = initial.reduce(Int64(0)) { $0 + state.packs[$1].size + unpackBytes($1) }
        move(a, .install)
        guard makeRoom(needed, mayWarn: true, for: .system(a)) else {
            if !state.apps[a].rules.installFailsWithoutInitialSpace {
                for p in initial { emit(.prefetchSkipped(p, a, .outOfSpace)) }
                state.appContents[a].prefetchQueue = state.appContents[a].catalog.prefetchPacks.map(state.apps[a].pack)
                state.apps[a].prefetchCursor = 0
                completeInstall(a)
                return true
            }
            move(a, .installFailed)
            book(\.installFailures, for: a)
            emit(.installFailed(app, .outOfSpace))
            return true
        }
        state.apps[a].pendingInitial = initial.count
        state.appContents[a].prefetchQueue = state.appContents[a].catalog.prefetchPacks.map(state.apps[a].pack)
        state.apps[a].prefetchCursor = 0
        for p in initial { startDownload(p, system: true) }
        refreshRunnability()
        if initial.isEmpty { completeInstall(a) }
        return true
    }

    /// A new version of the app installs over the old one (an App Store update): a running app
    /// is terminated first. The initial-install packs whose tags download at
    /// ``InstallationEvents/subsequentUpdate`` and are not on the device download, holding
    /// launches until they are there, and then the prefetch packs that do the same. Without
    /// room for them the update goes ahead without them (they download at the first request:
    /// the old version's content is what the app has). Packs already stored stay as they are.
    /// Returns false if the app is not installed (absent, or still installing).
    @discardableResult
    public func updateApp(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        let a = app
        guard state.apps[a].phase.isInstalled else { return false }
        if state.apps[a].phase.isRunning { terminate(a, cause: .user) }
        let catalog = state.appContents[a].catalog
        let update = catalog.initialInstallPacks(at: .subsequentUpdate).map(state.apps[a].pack)
        let missing = accepted(
            update.filter { state.packs[$0].phase != .resident && !state.packs[$0].downloading }, of: a)
        // A download of an initial-install pack already under way also completes the update.
        let underway = update.filter { state.packs[$0].downloading }.count
        move(a, .update)
        state.appContents[a].updating = true
        emit(.appUpdated(a))
        // Where packs change only with the app (Play), its downloaded fast-follow and
        // on-demand packs are of the old version: invalid until their patch, which downloads
        // with the update, is applied (``PlatformProfile/updatePatchShare``); without a patch
        // share, or for a partial download, fetched again, fast-follow ones by the update's
        // prefetch below, on-demand ones at their next request (counted as updates). Source:
        // developer.android.com, Play Asset Delivery, "Update asset packs"
        // (``PlatformProfile/packUpdatesApartFromApp``). Packs in use are left as they are, as
        // ``updatePack(_:at:)`` leaves them.
        if !state.appContents[a].profile.packUpdatesApartFromApp {
            let share = state.appContents[a].profile.updatePatchShare
            for p in state.apps[a].packs where !state.packDetails[p].initialInstall {
                if let share, patch(p, share: share) { continue }
                _ = invalidate(p)
            }
            refreshRunnability()
        }
        state.appContents[a].prefetchQueue = catalog.prefetchPacks(at: .subsequentUpdate).map(state.apps[a].pack)
        state.apps[a].prefetchCursor = 0
        let needed = missing.reduce(Int64(0)) { $0 + state.packs[$1].size + unpackBytes($1) }
        guard makeRoom(needed, mayWarn: true, for: .system(a)) else {
            for p in missing { emit(.prefetchSkipped(p, a, .outOfSpace)) }
            completeInstall(a)
            return true
        }
        state.apps[a].pendingInitial = missing.count + underway
        for p in missing { startDownload(p, system: true) }
        refreshRunnability()
        if missing.count + underway == 0 { completeInstall(a) }
        return true
    }

    /// The app starts running: its packs are purged only when nothing else frees the space.
    /// Launching while the install is under way takes effect when it completes.
    @discardableResult
    public func launch(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        let a = app
        let wasInstalling = state.apps[a].installing
        guard move(a, .launch) else { return false }
        // During the install the launch waits for the initial-install packs.
        if wasInstalling {
            state.appContents[a].launchWaitingSince = state.now
        } else {
            emit(.appLaunched(app))
        }
        return true
    }

    /// The app stops running (the user closed it); its requests end.
    @discardableResult
    public func terminate(_ app: AppID, at time: Double) -> Bool {
        advance(to: time)
        guard state.apps[app].isPresent else { return false }
        terminate(app, cause: .user)
        return true
    }

    /// Removes the app and all its packs from the disk (not counted as purges).
    @discardableResult
    public func uninstall(_ app: AppID, at time: Double) -> Bool {
        remove(app, offloaded: false, at: time)
    }

    /// The user offloads the app (iOS's "Offload App", which frees "storage used by the app,
    /// but keep[s] its documents and data": Apple Support, "How to check the storage on your
    /// iPhone and iPad"): it is removed with every pack as ``uninstall(_:at:)`` removes it, but
    /// what it held is counted (``Ledger/clearedBytes``) and remembered, so the downloads
    /// of its reinstall are re-downloads (``Ledger/redownloadBytes``). Returns false if the
    /// app is not on the device.
    @discardableResult
    public func offload(_ app: AppID, at time: Double) -> Bool {
        remove(app, offloaded: true, at: time)
    }

    /// ``uninstall(_:at:)`` and ``offload(_:at:)``.
    private func remove(_ app: AppID, offloaded: Bool, at time: Double) -> Bool {
        advance(to: time)
        let a = app
        guard state.apps[a].isPresent else { return false }
        dropRequests(of: app)
        var removed: Int64 = 0
        for p in state.apps[a].packs {
            if state.packs[p].downloading { abandon(p) }
            let wasResident = state.packs[p].phase == .resident
            if wasResident { tell(p) { $0.packRemoved($1) } }
            let onDisk = bytesOnDisk(p)
            removed += onDisk
            state.odrBytes -= onDisk
            move(pack: p, .uninstall)
            refresh(p)  // before zeroing: a leftover partial pack leaves state.leftoverBytes with its bytes
            // An offloaded app's content comes back as re-downloads; an uninstalled one's is new.
            let held = onDisk > 0 || state.packs[p].purgedBefore
            if state.packDetails[p].received != 0 { state.packDetails[p].received = 0 }
            if state.keepsHistory { state.history[p].purgeCount = 0 }
            state.packs[p].purgedBefore = offloaded && held
            state.packDetails[p].updatePending = false
            state.packDetails[p].outdated = false
            state.packs[p].requestCount = 0
            if state.keepsHistory { state.history[p].lastRequestOrdinal = 0 }
        }
        move(a, .uninstall)
        for p in state.apps[a].packs { refresh(p) }
        // The budget clock stops when the app's packs leave: above its budget until now, not
        // until the end of the run (issue 54; each pack's move above counted it still there).
        if state.someAppsEvict { noteBudget(of: a) }
        book(\.removedBytes, removed, for: a)
        if offloaded {
            book(\.clearedBytes, removed, for: a)
            emit(.appOffloaded(app, removedBytes: removed))
        } else {
            emit(.appUninstalled(app, removedBytes: removed))
        }
        return true
    }

    func terminate(_ app: AppID, cause: ODREvent.TerminationCause) {
        dropRequests(of: app)
        move(app, .terminate)
        if cause == .outOfSpace {
            book(\.appTerminations, for: app)
        }
        emit(.appTerminated(app, cause))
    }

    func completeInstall(_ a: AppID) {
        let launched = state.apps[a].phase.launchPending
        if launched, let since = state.appContents[a].launchWaitingSince {
            book(\.blockedLaunches, for: a)
            book(\.launchBlockedSeconds, state.now - since, for: a)
        }
        state.appContents[a].launchWaitingSince = nil
        move(a, .initialPacksStored)
        // An update announced itself when it began.
        if !state.appContents[a].updating { emit(.appInstalled(a)) }
        state.appContents[a].updating = false
        if launched { emit(.appLaunched(a)) }
        startNextPrefetch(a)
    }

    /// Sets the app's answer to `shouldDownload(_:)` for its automatic downloads from now on
    /// (nil: it accepts them all).
    public func setAutomaticDownloadFilter(of app: AppID, _ filter: AutomaticDownloadFilter?) {
        state.appContents[app.index].automaticFilter = filter
    }

    /// The packs of `packs` (automatic downloads decided together, in order) that are not
    /// obsolete and that the app's ``AutomaticDownloadFilter`` lets download; each declined
    /// one is an event.
    func accepted(_ packs: [PackID], of a: AppID) -> [PackID] {
        // An obsolete pack is never fetched (``retirePack(_:at:)``).
        let packs = state.somePacksObsolete ? packs.filter { !state.packDetails[$0].obsolete } : packs
        guard let filter = state.appContents[a.index].automaticFilter else { return packs }
        var committed: Int64 = 0
        return packs.filter { p in
            let bytes = state.packs[p].size - bytesOnDisk(p)
            guard filter.accepts(bytes: bytes, size: state.packs[p].size, free: freeBytes, committed: committed) else {
                emit(.downloadDeclined(p, a))
                return false
            }
            committed += bytes
            return true
        }
    }

    func systemDownloadFinished(_ p: PackID, app a: AppID) {
        if state.apps[a].installing && state.packDetails[p].initialInstall {
            state.apps[a].pendingInitial -= 1
            if state.apps[a].pendingInitial == 0 { completeInstall(a) }
        } else if state.apps[a].prefetchActive == p {
            state.apps[a].prefetchActive = .none
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
    func startNextPrefetch(_ a: AppID) {
        while state.apps[a].prefetchCursor < state.appContents[a].prefetchQueue.count {
            let p = state.appContents[a].prefetchQueue[state.apps[a].prefetchCursor]
            state.apps[a].prefetchCursor += 1
            if state.packs[p].phase == .resident || state.packs[p].downloading { continue }
            if accepted([p], of: a).isEmpty { continue }
            let shielded = state.appContents[a].catalog.initialInstallPacks.map(state.apps[a].pack)
            for q in shielded { shield(q) }
            let room = makeRoom(
                state.packs[p].size - bytesOnDisk(p) + unpackBytes(p), mayWarn: false, for: .system(a)
            )
            // Pins restored within the call: the app's committed bytes (which count pins) never see them.
            for q in shielded { unshield(q) }
            if room {
                state.apps[a].prefetchActive = p
                startDownload(p, system: true)
                refreshRunnability()
                return
            }
            emit(.prefetchSkipped(p, a, .outOfSpace))
        }
    }
}
