extension ODRDevice {
    /// `beginAccessingResources`: downloads what is missing, then grants access to `tags`.
    ///
    /// A request whose packs are all on the device is granted at once (a hit). Otherwise the
    /// device reserves space for the missing packs (purging if needed), starts their downloads,
    /// and grants when the last one finishes. An ``RequestOutcome/failed(_:)`` request holds nothing.
    ///
    /// - Parameters:
    ///   - optional: the app can do without it: it is released on a low-disk warning by
    ///     apps whose response is ``LowDiskResponse/releaseUnused``.
    ///
    /// `requireLatest` is Background Assets' `ensureLocalAvailability(of:requireLatestVersion: true)`:
    /// an out-of-date pack of the request (``UpdateOutcome/outdated``) that nothing else holds
    /// is removed first (counted as a pack update), so the request waits for its new version.
    /// One held by another request stays as it is: odr-sim keeps one version of a pack.
    public func beginAccessing(
        _ app: AppID, tags: [TagID], priority: LoadingPriority = .normal,
        optional: Bool = false, requireLatest: Bool = false, at time: Double
    ) -> RequestOutcome {
        advance(to: time)
        var packs = resolve(app, tags)
        if requireLatest, let list = packs {
            for p in list where state.packDetails[p].outdated { _ = invalidate(p) }
        }
        if state.somePacksObsolete, let list = packs, needsObsolete(list) { packs = nil }
        return beginResolved(app, packs, priority: priority, optional: optional)
    }

    /// ``beginAccessing(_:tags:priority:optional:requireLatest:at:)`` for one tag, without an array.
    public func beginAccessing(
        _ app: AppID, tag: TagID, priority: LoadingPriority = .normal,
        optional: Bool = false, at time: Double
    ) -> RequestOutcome {
        advance(to: time)
        var packs = resolve(app, tag: tag)
        if state.somePacksObsolete, let list = packs, needsObsolete(list) { packs = nil }
        return beginResolved(app, packs, priority: priority, optional: optional)
    }

    /// Counts a request, then begins it, or fails it if its tags did not resolve.
    private func beginResolved(_ app: AppID, _ packList: PackList?, priority: LoadingPriority, optional: Bool)
        -> RequestOutcome
    {
        book(\.requests, for: app)
        state.requestOrdinal += 1
        emit(.requestMade(app, conditional: false))
        guard let packList else {
            return fail(app, state.apps[app].installed ? .invalidTag : .appNotInstalled)
        }
        return begin(app, packList, priority: priority, optional: optional)
    }

    /// `conditionallyBeginAccessingResources`: grants only if every pack of `tags` is already
    /// on the device (and the in-use limit allows it); never downloads. Returns the granted
    /// request, or `nil`.
    public func conditionallyBeginAccessing(_ app: AppID, tags: [TagID], at time: Double) -> RequestID? {
        advance(to: time)
        book(\.requests, for: app)
        state.requestOrdinal += 1
        emit(.requestMade(app, conditional: true))
        guard let packList = resolve(app, tags) else {
            _ = fail(app, state.apps[app].installed ? .invalidTag : .appNotInstalled)
            return nil
        }
        noteRequested(packList)
        guard packList.allSatisfy({ state.packs[$0].phase == .resident && !state.packs[$0].downloading }) else {
            book(\.conditionalMisses, for: app)
            emit(.conditionalMiss(app))
            return nil
        }
        if exceedsInUseLimit(app, packList) {
            _ = fail(app, .inUseLimit)
            return nil
        }
        if case .granted(let id) = grantHit(app, packList, priority: .normal, optional: false) {
            return id
        }
        return nil
    }

    /// `endAccessingResources`: the request stops holding its packs. Ending a request that
    /// is still waiting for downloads cancels it. Returns false for a finished request.
    @discardableResult
    public func endAccessing(_ request: RequestID, at time: Double) -> Bool {
        advance(to: time)
        guard let slot = liveSlot(request) else { return false }
        if state.requests[slot].granted {
            end(slot, cause: .app)
        } else {
            cancelWaiting(slot)
        }
        return true
    }

    /// Changes the loading priority of a request, also mid-download.
    @discardableResult
    public func setLoadingPriority(_ priority: LoadingPriority, for request: RequestID, at time: Double) -> Bool {
        advance(to: time)
        guard let slot = liveSlot(request) else { return false }
        state.requests[slot].priority = priority
        emit(.priorityChanged(request, state.requests[slot].app, priority))
        if !state.requests[slot].granted {
            noteWaiterChanged(slot)
            state.revision &+= 1
            refreshRunnability()
        }
        return true
    }

    /// Pauses the downloads of a waiting request (they stop unless someone else awaits them).
    @discardableResult
    public func pause(_ request: RequestID, at time: Double) -> Bool {
        setPaused(true, request, at: time)
    }

    /// Resumes a paused request's downloads.
    @discardableResult
    public func resume(_ request: RequestID, at time: Double) -> Bool {
        setPaused(false, request, at: time)
    }

    /// Cancels a waiting request. Downloads no one else awaits are abandoned, keeping the
    /// bytes received so far (the pack is then partially downloaded). A granted request is
    /// not affected: end it instead. Returns whether a request was cancelled.
    @discardableResult
    public func cancel(_ request: RequestID, at time: Double) -> Bool {
        advance(to: time)
        guard let slot = liveSlot(request), !state.requests[slot].granted else { return false }
        cancelWaiting(slot)
        return true
    }

    /// Sets the preservation priority (0…1) of `tags`; purging starts with the lowest.
    public func setPreservationPriority(_ value: Double, for tags: [TagID], of app: AppID, at time: Double) {
        precondition((0...1).contains(value), "preservation priority \(value) is outside 0…1")
        advance(to: time)
        let a = app
        for tag in tags {
            // A numbered catalog keeps no table: its tag's pack takes the value directly (below).
            if !state.appContents[a].tagPreservation.isEmpty { state.appContents[a].tagPreservation[tag.index] = value }
            emit(.preservationChanged(app, tag, value))
        }
        let catalog = state.appContents[a].catalog
        for tag in tags {
            for p in packs(ofTag: tag, app: a) {
                let local = Int(p.rawValue - state.apps[a].firstPack.rawValue)
                let preservation =
                    state.apps[a].tagsArePacks
                    ? value
                    : catalog.packs[local].tags.map { state.appContents[a].tagPreservation[Int($0)] }.max() ?? 0
                guard preservation != state.packDetails[p].preservation else { continue }
                state.packDetails[p].preservation = preservation
                if state.packs[p].phase == .resident {
                    tell(p) { $0.packPreservationChanged($1) }
                }
            }
        }
    }

    /// The packs a live request includes (device-wide), or nil if it is not live.
    public func packs(ofRequest request: RequestID) -> [PackID]? {
        guard let slot = liveSlot(request) else { return nil }
        return Array(packList(of: slot))
    }

    /// Whether the request is live and granted.
    func isGranted(_ request: RequestID) -> Bool {
        liveSlot(request).map { state.requests[$0].granted } ?? false
    }

    /// Whether the request is still live (waiting or granted).
    public func isLive(_ request: RequestID) -> Bool { liveSlot(request) != nil }

    /// Requests begun and still waiting for their downloads (neither granted nor ended);
    /// with the ledger's counts they balance the books (``Ledger``). O(requests ever live).
    public var waitingRequests: Int {
        state.requests.indices.reduce(0) { $0 + (state.requests[$1].live && !state.requests[$1].granted ? 1 : 0) }
    }

    /// Bytes of the request's packs on the device, against their total.
    public func progress(of request: RequestID) -> RequestProgress? {
        guard let slot = liveSlot(request) else { return nil }
        var done: Int64 = 0
        var total: Int64 = 0
        for p in packList(of: slot) {
            let record = state.packs[p]
            total += record.size
            done += bytesOnDisk(p)
        }
        return RequestProgress(completedBytes: done, totalBytes: total)
    }

    // MARK: Internals

    func liveSlot(_ id: RequestID) -> Int? {
        let slot = id.index
        guard slot >= 0, slot < state.requests.count, state.requests[slot].live,
            state.requests[slot].generation == id.generation
        else { return nil }
        return slot
    }

    /// The union of the packs of `tags` in tag order, or nil for an unknown tag or absent app.
    func resolve(_ app: AppID, _ tags: [TagID]) -> PackList? {
        if tags.count == 1 { return resolve(app, tag: tags[0]) }
        let a = app
        guard a.index >= 0, a.index < state.apps.count, state.apps[a].installed else { return nil }
        let tagCount = state.apps[a].tagCount
        for tag in tags where tag.rawValue < 0 || tag.rawValue >= tagCount { return nil }
        var result: [PackID] = []
        for tag in tags {
            for p in packs(ofTag: tag, app: a) where !result.contains(p) { result.append(p) }
        }
        return PackList(result)
    }

    /// The packs of one tag, or nil for an unknown tag or absent app.
    func resolve(_ app: AppID, tag: TagID) -> PackList? {
        let a = app
        guard a.index >= 0, a.index < state.apps.count, state.apps[a].installed, tag.rawValue >= 0,
            tag.rawValue < state.apps[a].tagCount
        else { return nil }
        let single = singlePack(of: tag, app: a)
        return single.isNone ? PackList(state.appContents[a].tagPacks[tag.index]) : PackList(single: single)
    }

    /// The global packs of a valid `tag` of app `a`.
    func packs(ofTag tag: TagID, app a: AppID) -> PackList {
        state.apps[a].tagsArePacks
            ? PackList(single: state.apps[a].pack(tag.rawValue)) : PackList(state.appContents[a].tagPacks[tag.index])
    }

    /// The only pack of a valid `tag` of app `a`, or ``PackID/none`` if the tag has several.
    @inline(__always)
    func singlePack(of tag: TagID, app a: AppID) -> PackID {
        state.apps[a].tagsArePacks ? state.apps[a].pack(tag.rawValue) : state.appContents[a].singlePackOfTag[tag.index]
    }

    func noteRequested(_ packList: PackList) {
        for p in packList { noteRequested(p) }
    }

    /// Counts the latest request (``DeviceState/requestOrdinal``) as one of pack `p`'s.
    @inline(__always)
    func noteRequested(_ p: PackID) {
        let ordinal = state.requestOrdinal
        let record = state.packs.record(p.index)
        if record.requestCount < Int32.max { record.requestCount += 1 }
        if state.keepsHistory { state.history[p].lastRequestOrdinal = ordinal }
    }

    func allocate(_ app: AppID, _ packList: PackList, priority: LoadingPriority, optional: Bool) -> (Int, RequestID) {
        let (slot, isNew) = state.requestSlots.take()
        if isNew {
            state.requests.append(RequestRecord())
            state.requestPackArrays.append([])
        }
        state.requests[slot].generation &+= 1
        move(request: slot, .begin)
        state.requests[slot].app = app
        state.requests[slot].single = packList.single
        if let many = packList.array { state.requestPackArrays[slot] = many }
        state.requests[slot].priority = priority
        state.requests[slot].optional = optional
        state.requests[slot].begunAt = state.now
        state.requests[slot].missing = 0
        return (slot, id(of: slot))
    }

    /// Frees the request in `slot` (`event`: it ended granted, or was cancelled waiting).
    func release(slot: Int, _ event: RequestLife.Event) {
        move(request: slot, event)
        if state.requests[slot].single.isNone { state.requestPackArrays[slot] = [] }
        state.requestSlots.give(slot)
    }

    /// The packs of the request in `slot`.
    func packList(of slot: Int) -> PackList {
        let single = state.requests[slot].single
        return single.isNone ? PackList(state.requestPackArrays[slot]) : PackList(single: single)
    }

    func id(of slot: Int) -> RequestID {
        RequestID(slot: slot, generation: state.requests[slot].generation)
    }

    func begin(_ app: AppID, _ packList: PackList, priority: LoadingPriority, optional: Bool) -> RequestOutcome {
        noteRequested(packList)
        if exceedsInUseLimit(app, packList) { return fail(app, .inUseLimit) }
        var missing: Int32 = 0
        for p in packList where state.packs[p].phase != .resident || state.packs[p].downloading { missing += 1 }
        if missing == 0 { return grantHit(app, packList, priority: priority, optional: optional) }

        if state.link == .offline { return fail(app, .noNetwork) }
        if state.link == .cellular && !state.apps[app].allowsCellular { return fail(app, .cellularNotAllowed) }

        let (slot, id) = allocate(app, packList, priority: priority, optional: optional)
        var needed: Int64 = 0
        for i in packList {
            pin(i)
            if state.packs[i].phase == .resident && !state.packs[i].downloading {
                use(i)
            } else if !state.packs[i].downloading {
                needed += state.packs[i].size - bytesOnDisk(i) + unpackBytes(i)
            }
        }
        guard makeRoom(needed, mayWarn: true, for: .request(app)) else {
            for p in packList { unpin(p) }
            release(slot: slot, .cancel)
            if settings.onSpaceExhausted == .terminateApp {
                terminate(app, cause: .outOfSpace)
            }
            return fail(app, .outOfSpace)
        }
        state.requests[slot].missing = missing
        for i in packList where state.packs[i].phase != .resident || state.packs[i].downloading {
            if state.packs[i].downloading {
                state.downloadWaiters[state.packDetails[i].downloadSlot].join(id, priority: priority)
            } else {
                startDownload(i, system: false, waiter: id)
            }
        }
        state.revision &+= 1
        refreshRunnability()
        return .waiting(id)
    }

    /// Whether granting `packList` would put more bytes in use than the profile allows the app,
    /// counting what its requests hold and what its waiting requests will hold once granted:
    /// requests that begin together cannot pass the limit between them.
    @inline(__always)
    func exceedsInUseLimit(_ app: AppID, _ packList: PackList) -> Bool {
        let limit = state.apps[app].rules.maxInUseBytes
        guard limit != .max else { return false }
        var added: Int64 = 0
        for p in packList where !isCommitted(p) { added += state.packs[p].size }
        return state.apps[app].committedBytes + added > limit
    }

    func grantHit(_ app: AppID, _ packList: PackList, priority: LoadingPriority, optional: Bool) -> RequestOutcome {
        book(\.hits, for: app)
        let (slot, id) = allocate(app, packList, priority: priority, optional: optional)
        for p in packList { use(p) }
        grant(slot, hit: true)
        return .granted(id)
    }

    func grant(_ slot: Int, hit: Bool) {
        move(request: slot, .grant)
        let app = state.requests[slot].app
        for p in packList(of: slot) { hold(p, app: app, pinned: !hit) }
        book(\.grants, for: app)
        emit(.requestGranted(id(of: slot), app, waited: state.now - state.requests[slot].begunAt, hit: hit))
    }

    func end(_ slot: Int, cause: ODREvent.EndCause) {
        let app = state.requests[slot].app
        let id = id(of: slot)
        for p in packList(of: slot) { release(p, app: app) }
        release(slot: slot, .end)
        emit(.requestEnded(id, app, cause))
    }

    func cancelWaiting(_ slot: Int) {
        let app = state.requests[slot].app
        let id = id(of: slot)
        leaveWaiting(slot)
        book(\.cancelled, for: app)
        emit(.requestCancelled(id, app))
        refreshRunnability()
    }

    /// A waiting request goes (cancelled, or failed: ``failWaiting(_:_:)``): its pins go, and
    /// a download no one else waits for stops.
    func leaveWaiting(_ slot: Int) {
        for i in packList(of: slot) {
            unpin(i)
            // Every pack of a waiting request it does not hold yet is downloading for it.
            if state.packs[i].downloading, state.downloadWaiters[state.packDetails[i].downloadSlot].leave(),
                !state.packDetails[i].systemDownload
            {
                abandon(i)
            }
            refresh(i)
        }
        release(slot: slot, .cancel)
        state.revision &+= 1
    }

    func setPaused(_ paused: Bool, _ request: RequestID, at time: Double) -> Bool {
        advance(to: time)
        guard let slot = liveSlot(request), !state.requests[slot].granted, state.requests[slot].paused != paused else {
            return false
        }
        move(request: slot, paused ? .pause : .resume)
        if !paused { noteWaiterChanged(slot) }
        let app = state.requests[slot].app
        emit(paused ? .requestPaused(request, app) : .requestResumed(request, app))
        state.revision &+= 1
        refreshRunnability()
        return true
    }

    /// Ends (granted) or cancels (waiting) every request of `app`.
    func dropRequests(of app: AppID) {
        for slot in state.requests.indices where state.requests[slot].live && state.requests[slot].app == app {
            if state.requests[slot].granted { end(slot, cause: .appGone) } else { cancelWaiting(slot) }
        }
    }
}
