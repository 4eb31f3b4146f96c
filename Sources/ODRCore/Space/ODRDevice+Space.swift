extension ODRDevice {
    /// Other data on the disk grows (`delta > 0`) or shrinks.
    ///
    /// Growth is a space demand like a download: it purges, and may post a low-disk warning.
    /// Growth that cannot fit even then is applied as far as free and purgeable space go, and
    /// the rest is refused (recorded in ``Ledger/refusedOtherBytes``): a disk never overfills.
    /// A shrink stops when no other data is left. Returns the change applied.
    @discardableResult
    public func changeOtherData(by delta: Int64, at time: Double) -> Int64 {
        advance(to: time)
        if delta <= 0 {
            let applied = max(delta, -state.otherBytes)
            state.otherBytes += applied
            emit(.otherDataChanged(requested: delta, applied: applied))
            return applied
        }
        var applied = delta
        if !makeRoom(delta, mayWarn: true, for: .otherData) {
            // What the system may still remove for other data (``RoomMaker``).
            let reclaimable = RoomMaker.reclaimableForOtherData(on: self)
            applied = min(delta, freeBytes + reclaimable)
            if applied > freeBytes { purge(applied - freeBytes, groups: .forOtherData) }
            state.ledger.refusedOtherBytes += delta - applied
        }
        state.otherBytes += applied
        emit(.otherDataChanged(requested: delta, applied: applied))
        notePeak()
        return applied
    }

    /// Makes `bytes` free for `demand` as the apps' platforms do it (``RoomMaker``): the
    /// system purging, and an app that evicts removing its own packs. Returns false, having
    /// removed nothing, when that cannot free enough.
    @inline(__always)
    func makeRoom(_ bytes: Int64, mayWarn: Bool, for demand: RoomMaker.Demand) -> Bool {
        RoomMaker.makeRoom(bytes, mayWarn: mayWarn, for: demand, on: self)
    }

    /// One purge episode freeing at least `deficit` bytes from the packs of apps in `groups`
    /// (the caller checked it can).
    func purge(_ deficit: Int64, groups: PurgeGroups) {
        state.episode += 1
        var purged: Int64 = 0
        if !state.leftoverPacks.isEmpty {
            // In pack order first, as a scan of the records would list them, so that the sort
            // by last use breaks ties (packs never used) as it always has.
            var leftovers = state.leftoverPacks.sorted().sorted {
                state.packs[$0].lastUseTick < state.packs[$1].lastUseTick
            }
            if !coversAllApps(groups) {
                leftovers.removeAll { !groups.contains(state.apps[state.packs[$0].app].rules.group) }
            }
            for p in leftovers where purged < deficit { purged += purgePack(p) }
        }
        // Performance: a static list, not an array literal allocated on every purge.
        for tier in PurgeTier.purgeOrder where purged < deficit {
            guard purgeableBytes(in: tier, groups: groups) > 0 else { continue }
            let remaining = deficit - purged
            let view = PurgeView(device: self, scope: .tier(tier), groups: groups, time: state.now)
            purged += purgeAnswer(toFree: remaining, view: view) {
                state.policies.routes
                    ? state.policies.selectVictims(toFree: remaining, from: view, system: policy)
                    : policy.selectVictims(toFree: remaining, from: view)
            }
        }
        state.ledger.purgeEpisodes += 1
        state.ledger.overPurgeBytes += purged - deficit
        emit(.purgeEpisode(episode: state.episode, needed: deficit, purged: purged))
    }

    /// Removes the packs the policy evicted on its own (``PurgePolicy/takeOwnEvictions()``), as
    /// one purge episode that needed nothing: every byte it frees is over-purge. Stops the
    /// program, naming the policy, when one is not a resident pack free to purge.
    func purgeOwnEvictions() {
        guard !state.policies.routes else { return }
        let victims = policy.takeOwnEvictions()
        guard !victims.isEmpty else { return }
        state.episode += 1
        var purged: Int64 = 0
        for victim in victims {
            guard victim.index >= 0, victim.index < state.packs.count, state.packs[victim].phase == .resident,
                state.packs[victim].purgeable
            else {
                let policy = "purge policy '\(policy.name)'"
                fatalError("\(policy) evicted \(victim), which is not a resident pack free to purge")
            }
            purged += purgePack(victim)
        }
        state.ledger.purgeEpisodes += 1
        state.ledger.overPurgeBytes += purged
        emit(.purgeEpisode(episode: state.episode, needed: 0, purged: purged))
    }

    /// Purges the policy's answer to `view` (`answer` asks it for one) and returns the bytes
    /// freed; stops the program when the answer breaks the contract of ``PurgePolicy``.
    ///
    /// Each victim is checked just before it is purged, on the record line its purge then
    /// writes: a victim named twice is found as it comes again, no longer a candidate, and an
    /// answer freeing too little is found at the end, when candidates are left. An answer that
    /// breaks the contract stops the program whichever victim shows it, so the packs purged
    /// before that one change nothing anybody reads.
    @inline(__always)
    func purgeAnswer(toFree bytes: Int64, view: PurgeView, _ answer: () -> [PackID]) -> Int64 {
        // Performance: inline, so that asking the policy costs what a direct call does (a
        // closure holds its policy, a retain and a release more an episode). The answer is
        // copied into ``DeviceState/victims`` and let go before its victims are purged.
        // Letting go of an array is an atomic operation, which waits for every store before it
        // to reach the cache; after the purges' stores to records not in the cache, that wait
        // was a seventh of a replay of ten million objects.
        do {
            let victims = answer()
            state.victims.removeAll()
            for victim in victims { state.victims.append(victim) }
        }
        var freed: Int64 = 0
        for k in state.victims.indices {
            let victim = state.victims[k]
            guard view.admits(victim) else { refuseVictim(at: k, view: view) }
            freed += purgeCheckedPack(victim)
        }
        if freed < bytes && view.candidateCount > 0 {
            fatalError(
                "\(policyLabel(for: view)) freed \(freed) of \(bytes) bytes needed while other candidates remain")
        }
        return freed
    }

    /// Stops the program on victim `k` of the answer, which is not a candidate of `view`:
    /// named before in the answer, or never one.
    @inline(never)
    private func refuseVictim(at k: Int, view: PurgeView) -> Never {
        let victim = state.victims[k]
        let policy = policyLabel(for: view)
        if state.victims[..<k].contains(victim) { fatalError("\(policy) chose \(victim) twice") }
        let candidates = "held, awaited, absent or of the other tier"
        fatalError("\(policy) chose \(victim), which is not a candidate (\(candidates))")
    }

    /// The policy that answered for `view`, as an error names it: the app's for an app's demand.
    private func policyLabel(for view: PurgeView) -> String {
        if case .app(let app) = view.scope { return "purge policy '\(policy(of: app).name)'" }
        return "purge policy '\(policy.name)'"
    }

    /// Removes pack `p`'s bytes from the disk; returns how many.
    func purgePack(_ p: PackID) -> Int64 { purgeCheckedPack(p) }

    /// ``purgePack(_:)``, inline in the loop over a policy's answer (``purgeAnswer(toFree:view:_:)``),
    /// where the victim's record line has just been read.
    @inline(__always)
    private func purgeCheckedPack(_ p: PackID) -> Int64 {
        // Performance: the record through one address (no pack is added during a purge).
        let record = state.packs.record(p.index)
        let wasResident = record.phase == .resident
        // A resident pack's detail is not read: its bytes are its size.
        let bytes = wasResident ? record.size : state.packDetails[p].received
        state.odrBytes -= bytes
        if !wasResident { state.packDetails[p].received = 0 }
        if record.leftover {
            state.leftoverBytes -= bytes
            removeLeftover(p)
            record.leftover = false
        }
        move(pack: p, .purge)
        if state.keepsHistory { state.history[p].purgeCount += 1 }
        record.purgedBefore = true
        // What `refresh` would find: purged, so not purgeable, and no longer a leftover.
        setPurgeable(p, false)
        book(\.purges, for: record.app)
        book(\.purgedBytes, bytes, for: record.app)
        if wasResident { tell(p) { $0.packRemoved($1) } }
        emit(.packPurged(p, state.packs[p].app, bytes: bytes, episode: state.episode))
        return bytes
    }

    /// Posts the warning and lets every app react as its ``LowDiskResponse`` says.
    func postLowDiskWarning(needed: Int64) {
        state.ledger.lowDiskWarnings += 1
        emit(.lowDiskWarning(needed: needed))
        // The notification is ODR's (`NSBundleResourceRequestLowDiskSpaceNotification`, ODR-SPEC
        // §4): an app whose own code removes its packs (Background Assets, Play) gets none, so its
        // `on_low_disk` does nothing, as `migrate` drops it (one rule for the key, issue 50).
        for a in state.apps.indices.map(AppID.init)
        where state.apps[a].installed && state.apps[a].lowDiskResponse != .ignore && !state.apps[a].rules.appEvicts {
            let all = state.apps[a].lowDiskResponse == .releaseAll
            for slot in state.requests.indices
            where state.requests[slot].live && state.requests[slot].app == a && state.requests[slot].granted
                && (all || state.requests[slot].optional)
            {
                end(slot, cause: .lowDisk)
            }
        }
    }
}

extension PurgeTier {
    /// The tiers in the order a purge episode tries them.
    static let purgeOrder: [PurgeTier] = [.appsNotRunning, .runningApps]
}
