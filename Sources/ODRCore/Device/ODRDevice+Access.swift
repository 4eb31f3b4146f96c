extension ODRDevice {
    /// A request for `tag` that begins and ends at `time`, whatever was missing arriving at
    /// once: a cache access, as a trace replay makes one per line.
    ///
    /// The outcome, the ledger, the packs' states, the purges and the policy's notifications
    /// (with the same use ticks) are exactly those of ``beginAccessing(_:tags:priority:optional:requireLatest:at:)``,
    /// then ``receive(_:for:at:)`` of every missing byte, then ``endAccessing(_:at:)``; a test
    /// holds the two to that on random sequences under several policies. No request record is
    /// made, so no ``RequestID`` is issued.
    ///
    /// Performance: when the device records no events and the tag is one pack that is not
    /// downloading (every line of a trace replay), the pack's steps (`PackLife.swift`)
    /// are taken directly, with no request record and no download slot: about a third of
    /// the work. Otherwise it runs the three calls themselves.
    public func access(_ app: AppID, tag: TagID, at time: Double) -> AccessOutcome {
        guard !state.recordsEvents, app.index >= 0, app.index < state.apps.count, state.apps[app].installed,
            tag.rawValue >= 0, tag.rawValue < state.apps[app].tagCount
        else { return accessThroughRequest(app, tag: tag, at: time) }
        let p = singlePack(of: tag, app: app)
        guard !p.isNone, !state.packs[p].downloading else { return accessThroughRequest(app, tag: tag, at: time) }

        advance(to: time)
        book(\.requests, for: app)
        state.requestOrdinal += 1
        noteRequested(p)
        if exceedsInUseLimit(app, PackList(single: p)) { return outcome(of: fail(app, .inUseLimit)) }
        // Performance: the pack's record through one address (no pack is added during an
        // access), so that its fields are not reloaded after each store to the device's state.
        let record = state.packs.record(p.index)

        if record.phase == .resident {
            // A hit: found, held, let go.
            book(\.hits, for: app)
            use(p)
            if policyEvictsOnItsOwn { purgeOwnEvictions() }
            holdMomentarily(p, pinned: false)
            book(\.grants, for: app)
            return .hit
        }

        return fetchAtOnce(p, app: app)
    }

    /// The miss of ``access(_:tag:at:)``: pack `p` of `app` is not on the device (nor being
    /// downloaded); room is made, and every byte arrives at once.
    ///
    /// Performance: a function of its own, so that each path of an access is small enough for
    /// the optimizer to inline the pack steps it takes (`store`, `holdMomentarily`) rather
    /// than call them.
    @inline(never)
    private func fetchAtOnce(_ p: PackID, app: AppID) -> AccessOutcome {
        let record = state.packs.record(p.index)
        if state.link == .offline { return outcome(of: fail(app, .noNetwork)) }
        if state.link == .cellular && !state.apps[app].allowsCellular {
            return outcome(of: fail(app, .cellularNotAllowed))
        }
        // The request pins the pack while the device makes room, so it is not purged (nor,
        // when partial, taken as a leftover) to make room for itself. A pack with nothing on
        // disk can be neither, and nothing reads the pin before it is given up but the app's
        // committed bytes, which it leaves as they were: so only a partial pack is pinned (a
        // trace replay's packs never are, which spares each miss two refreshes of the pack).
        // Read, not written, and only for a partial pack, the one at rest with bytes received
        // (an invariant holds it): a pack with nothing on disk (every miss of a trace replay)
        // keeps its detail as it was made, and no page of details is made or read for it.
        let received = record.phase == .partial ? state.packDetails[p].received : 0
        let pinned = received > 0
        if pinned { pin(p) }
        let needed = record.size - received
        // A cache's admission, for a pack that could fit at all (a larger one fails as before).
        if policyDecidesAdmission && !state.policies.routes && !pinned && record.size <= capacity - otherBytes,
            case .decline(let freeing) = policy.admission(of: candidate(at: p), needing: max(0, needed - freeBytes))
        {
            return declined(p, app: app, bytes: needed, freeing: freeing)
        }
        guard makeRoom(needed, mayWarn: true, for: .request(app)) else {
            if pinned { unpin(p) }
            if settings.onSpaceExhausted == .terminateApp { terminate(app, cause: .outOfSpace) }
            return outcome(of: fail(app, .outOfSpace))
        }
        // The download: its reservation counts toward the peak, then every byte arrives.
        book(\.downloadsStarted, for: app)
        let used = usedBytes + needed
        if used > state.ledger.peakUsedBytes { state.ledger.peakUsedBytes = used }
        state.odrBytes += needed
        book(\.downloadedBytes, needed, for: app)
        if record.purgedBefore {
            book(\.redownloadBytes, needed, for: app)
        }
        if received > 0 { state.packDetails[p].received = 0 }
        storeAtOnce(p)
        if policyEvictsOnItsOwn { purgeOwnEvictions() }
        // Granted, then ended.
        holdMomentarily(p, pinned: pinned)
        book(\.grants, for: app)
        return .miss
    }

    /// A miss whose pack the policy declined (``Admission``): after freeing `freeing` bytes
    /// as a purge would, its bytes are downloaded and dropped; nothing is stored, and its next
    /// download counts as a re-download.
    private func declined(_ p: PackID, app: AppID, bytes: Int64, freeing: Int64) -> AccessOutcome {
        if freeing > 0 && !makeRoom(freeBytes + freeing, mayWarn: false, for: .request(app)) {
            return outcome(of: fail(app, .outOfSpace))
        }
        book(\.downloadsStarted, for: app)
        book(\.downloadedBytes, bytes, for: app)
        let record = state.packs.record(p.index)
        if record.purgedBefore { book(\.redownloadBytes, bytes, for: app) }
        record.purgedBefore = true
        book(\.grants, for: app)
        return .miss
    }

    /// The general path of ``access(_:tag:at:)``: the request, its missing bytes, its end.
    private func accessThroughRequest(_ app: AppID, tag: TagID, at time: Double) -> AccessOutcome {
        switch beginAccessing(app, tag: tag, at: time) {
        case .granted(let request):
            endAccessing(request, at: time)
            return .hit
        case .waiting(let request):
            if let slot = liveSlot(request) {
                for p in packList(of: slot) where state.packs[p].downloading {
                    let missing = state.packs[p].size - state.packDetails[p].received
                    receive(missing, for: p, at: time)
                }
            }
            endAccessing(request, at: time)
            return .miss
        case .failed(let error):
            return .failed(error)
        }
    }

    private func outcome(of failure: RequestOutcome) -> AccessOutcome {
        if case .failed(let error) = failure { return .failed(error) }
        preconditionFailure("not a failure: \(failure)")
    }
}
