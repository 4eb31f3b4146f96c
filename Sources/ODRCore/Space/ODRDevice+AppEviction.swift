extension ODRDevice {
    // Where the app owns eviction (Background Assets, Play Asset Delivery), the system never
    // purges: the app's own code removes its packs, to stay within its budget and, when a
    // download finds the disk full, to make room. The device's policy is that code's
    // strategy, asked through a view of the app's own removable packs. Removals count as
    // purges in the ledger, so every metric reads the same on every platform.

    /// The app's bytes as its budget counts them: what its packs hold on disk, and the rest
    /// of each of its running downloads (the space the download has reserved).
    public func storedBytes(of app: AppID) -> Int64 {
        var bytes: Int64 = 0
        for p in state.apps[app].packs {
            bytes += state.packs[p].downloading ? state.packs[p].size : bytesOnDisk(p)
        }
        return bytes
    }

    /// Counts how far above its budget the app is now (``Ledger/budgetExceededBytes``) and the
    /// time it spends there (``Ledger/budgetExceededSeconds``, closed when it goes back under
    /// or when the ledger is read).
    func noteBudget(of app: AppID) {
        guard let budget = state.appContents[app.index].budget else { return }
        let excess = max(0, storedBytes(of: app) - budget)
        let was = state.appContents[app.index].overBudget
        guard excess != was else { return }
        if was == 0 { state.appContents[app.index].overBudgetSince = state.now }
        if excess == 0 {
            let seconds = state.now - state.appContents[app.index].overBudgetSince
            book(\.budgetExceededSeconds, seconds, for: app)
        }
        state.appContents[app.index].overBudget = excess
        bookHighest(\.budgetExceededBytes, excess, for: app)
    }

    /// `ledger` with the time apps are above their budgets now counted up to now.
    func closingBudgets(_ ledger: Ledger, app: AppID? = nil) -> Ledger {
        guard state.someAppsEvict else { return ledger }
        var ledger = ledger
        for (k, content) in state.appContents.enumerated()
        where content.overBudget > 0 && (app == nil || app!.index == k) {
            ledger.budgetExceededSeconds += state.now - content.overBudgetSince
        }
        return ledger
    }

    /// Whether the app's code may remove pack `p` now: its own, stored, neither held nor
    /// awaited, not an initial pack the platform keeps until uninstall (Play's install-time
    /// packs), and not one the app keeps (`apps[].keep`).
    func isRemovable(_ p: PackID, by app: AppID) -> Bool {
        guard state.packs[p].app == app, state.packs[p].purgeable else { return false }
        guard state.apps[app].rules.initialPacksRemovable || !state.packDetails[p].initialInstall else {
            return false
        }
        return state.appContents[app.index].kept.isEmpty || !state.appContents[app.index].kept.contains(p)
    }

    /// Bytes and number of the packs the app may remove now.
    func removableBytes(of app: AppID) -> (bytes: Int64, count: Int) {
        var bytes: Int64 = 0
        var count = 0
        for p in state.apps[app].packs where isRemovable(p, by: app) {
            bytes += state.packs[p].size
            count += 1
        }
        return (bytes, count)
    }

    /// Before the app downloads `adding` more bytes: it removes its own unused packs, in its
    /// strategy's order, until what it stores fits its budget, or none is left to remove
    /// (the budget is the app's target, not a wall: a request of packs it holds goes ahead).
    func enforceBudget(of app: AppID, adding: Int64) {
        guard let budget = state.appContents[app].budget else { return }
        let excess = storedBytes(of: app) + adding - budget
        guard excess > 0 else { return }
        let removable = removableBytes(of: app).bytes
        guard removable > 0 else { return }
        evict(min(excess, removable), of: app)
    }

    /// One eviction episode of the app's code, freeing at least `bytes` (the caller checked
    /// that its removable packs hold that much).
    func evict(_ bytes: Int64, of app: AppID) {
        state.episode += 1
        let view = PurgeView(device: self, scope: .app(app), groups: .all, time: state.now)
        let removed = purgeAnswer(toFree: bytes, view: view) {
            policy(of: app).selectVictims(toFree: bytes, from: view)
        }
        state.ledger.purgeEpisodes += 1
        state.ledger.overPurgeBytes += removed - bytes
        emit(.purgeEpisode(episode: state.episode, needed: bytes, purged: removed))
    }
}
