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
    public func beginAccessing(
        _ app: AppID, tags: [TagID], priority: LoadingPriority = .normal,
        optional: Bool = false, at time: Double
    ) -> RequestOutcome {
        advance(to: time)
        return beginResolved(app, resolve(app, tags), priority: priority, optional: optional)
    }

    /// ``beginAccessing(_:tags:priority:optional:at:)`` for one tag, without an array.
    public func beginAccessing(
        _ app: AppID, tag: TagID, priority: LoadingPriority = .normal,
        optional: Bool = false, at time: Double
    ) -> RequestOutcome {
        advance(to: time)
        return beginResolved(app, resolve(app, tag: tag), priority: priority, optional: optional)
    }

    /// Counts a request, then begins it, or fails it if its tags did not resolve.
    private func beginResolved(_ app: AppID, _ packList: PackList?, priority: LoadingPriority, optional: Bool) -> RequestOutcome {
        state.ledger.requests += 1
        state.requestOrdinal += 1
        emit(.requestMade(app, conditional: false))
        guard let packList else {
            return fail(app.rawValue, state.apps[Int(app.rawValue)].installed ? .invalidTag : .appNotInstalled)
        }
        return begin(app.rawValue, packList, priority: priority, optional: optional)
    }

    /// `conditionallyBeginAccessingResources`: grants only if every pack of `tags` is already
    /// on the device (and the in-use limit allows it); never downloads. Returns the granted
    /// request, or `nil`.
    public func conditionallyBeginAccessing(_ app: AppID, tags: [TagID], at time: Double) -> RequestID? {
        advance(to: time)
        state.ledger.requests += 1
        state.requestOrdinal += 1
        emit(.requestMade(app, conditional: true))
        guard let packList = resolve(app, tags) else {
            _ = fail(app.rawValue, state.apps[Int(app.rawValue)].installed ? .invalidTag : .appNotInstalled)
            return nil
        }
        noteRequested(packList)
        guard packList.allSatisfy({ state.packs[Int($0)].phase == .resident && !state.packs[Int($0)].downloading }) else {
            state.ledger.conditionalMisses += 1
            emit(.conditionalMiss(app))
            return nil
        }
        if exceedsInUseLimit(app.rawValue, packList) {
            _ = fail(app.rawValue, .inUseLimit)
            return nil
        }
        if case .granted(let id) = grantHit(app.rawValue, packList, priority: .normal, optional: false) {
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
        emit(.priorityChanged(request, AppID(rawValue: state.requests[slot].app), priority))
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
        let a = Int(app.rawValue)
        for tag in tags {
            // A numbered catalog keeps no table: its tag's pack takes the value directly (below).
            if !state.appContents[a].tagPreservation.isEmpty { state.appContents[a].tagPreservation[Int(tag.rawValue)] = value }
            emit(.preservationChanged(app, tag, value))
        }
        let catalog = state.appContents[a].catalog
        for tag in tags {
            for p in packs(ofTag: tag, app: a) {
                let local = Int(p - state.apps[a].firstPack)
                let preservation = state.apps[a].tagsArePacks ? value
                    : catalog.packs[local].tags.map { state.appContents[a].tagPreservation[Int($0)] }.max() ?? 0
                guard preservation != state.packDetails[Int(p)].preservation else { continue }
                state.packDetails[Int(p)].preservation = preservation
                if state.packs[Int(p)].phase == .resident { policy.packPreservationChanged(candidate(at: Int(p))) }
            }
        }
    }

    /// The packs a live request includes (device-wide), or nil if it is not live.
    public func packs(ofRequest request: RequestID) -> [PackID]? {
        guard let slot = liveSlot(request) else { return nil }
        return packList(of: slot).map { PackID(rawValue: $0) }
    }

    /// Whether the request is live and granted.
    public func isGranted(_ request: RequestID) -> Bool {
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
            let record = state.packs[Int(p)]
            total += record.size
            done += record.phase == .resident ? record.size : record.bytesOnDisk
        }
        return RequestProgress(completedBytes: done, totalBytes: total)
    }

    // MARK: Internals

    func liveSlot(_ id: RequestID) -> Int? {
        let slot = Int(id.slot)
        guard slot >= 0, slot < state.requests.count, state.requests[slot].live,
              state.requests[slot].generation == id.generation else { return nil }
        return slot
    }

    /// The union of the packs of `tags` in tag order, or nil for an unknown tag or absent app.
    func resolve(_ app: AppID, _ tags: [TagID]) -> PackList? {
        if tags.count == 1 { return resolve(app, tag: tags[0]) }
        let a = Int(app.rawValue)
        guard a >= 0, a < state.apps.count, state.apps[a].installed else { return nil }
        let tagCount = state.apps[a].tagCount
        for tag in tags where tag.rawValue < 0 || tag.rawValue >= tagCount { return nil }
        var result: [Int32] = []
        for tag in tags {
            for p in packs(ofTag: tag, app: a) where !result.contains(p) { result.append(p) }
        }
        return PackList(result)
    }

    /// The packs of one tag, or nil for an unknown tag or absent app.
    func resolve(_ app: AppID, tag: TagID) -> PackList? {
        let a = Int(app.rawValue)
        guard a >= 0, a < state.apps.count, state.apps[a].installed, tag.rawValue >= 0, tag.rawValue < state.apps[a].tagCount else { return nil }
        let single = singlePack(of: tag, app: a)
        return single >= 0 ? PackList(single: single) : PackList(state.appContents[a].tagPacks[Int(tag.rawValue)])
    }

    /// The global packs of a valid `tag` of app `a`.
    func packs(ofTag tag: TagID, app a: Int) -> PackList {
        state.apps[a].tagsArePacks ? PackList(single: state.apps[a].firstPack + tag.rawValue) : PackList(state.appContents[a].tagPacks[Int(tag.rawValue)])
    }

    /// The only pack of a valid `tag` of app `a`, or -1 if the tag has several.
    func singlePack(of tag: TagID, app a: Int) -> Int32 {
        state.apps[a].tagsArePacks ? state.apps[a].firstPack + tag.rawValue : state.appContents[a].singlePackOfTag[Int(tag.rawValue)]
    }

    func noteRequested(_ packList: PackList) {
        for p in packList {
            if state.packs[Int(p)].requestCount < Int32.max { state.packs[Int(p)].requestCount += 1 }
            state.packs[Int(p)].lastRequestOrdinal = state.requestOrdinal
        }
    }

    func allocate(_ app: Int32, _ packList: PackList, priority: LoadingPriority, optional: Bool) -> (Int, RequestID) {
        let slot: Int
        if let free = state.freeSlots.popLast() {
            slot = Int(free)
        } else {
            slot = state.requests.count
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
        return (slot, RequestID(slot: Int32(slot), generation: state.requests[slot].generation))
    }

    /// Frees the request in `slot` (`event`: it ended granted, or was cancelled waiting).
    func release(slot: Int, _ event: RequestLife.Event) {
        move(request: slot, event)
        if state.requests[slot].single < 0 { state.requestPackArrays[slot] = [] }
        state.freeSlots.append(Int32(slot))
    }

    /// The packs of the request in `slot`.
    func packList(of slot: Int) -> PackList {
        let single = state.requests[slot].single
        return single >= 0 ? PackList(single: single) : PackList(state.requestPackArrays[slot])
    }

    func id(of slot: Int) -> RequestID {
        RequestID(slot: Int32(slot), generation: state.requests[slot].generation)
    }

    func begin(_ app: Int32, _ packList: PackList, priority: LoadingPriority, optional: Bool) -> RequestOutcome {
        noteRequested(packList)
        if exceedsInUseLimit(app, packList) { return fail(app, .inUseLimit) }
        var missing: Int32 = 0
        for p in packList where state.packs[Int(p)].phase != .resident || state.packs[Int(p)].downloading { missing += 1 }
        if missing == 0 { return grantHit(app, packList, priority: priority, optional: optional) }

        if state.link == .offline { return fail(app, .noNetwork) }
        if state.link == .cellular && !state.apps[Int(app)].allowsCellular { return fail(app, .cellularNotAllowed) }

        let (slot, id) = allocate(app, packList, priority: priority, optional: optional)
        var needed: Int64 = 0
        for p in packList {
            let i = Int(p)
            pin(i)
            if state.packs[i].phase == .resident && !state.packs[i].downloading {
                use(i)
            } else if !state.packs[i].downloading {
                needed += state.packs[i].size - state.packs[i].bytesOnDisk
            }
        }
        guard makeRoom(needed, mayWarn: true) else {
            for p in packList { unpin(Int(p)) }
            release(slot: slot, .cancel)
            if settings.onSpaceExhausted == .terminateApp {
                terminate(app, cause: .outOfSpace)
            }
            return fail(app, .outOfSpace)
        }
        state.requests[slot].missing = missing
        for p in packList where state.packs[Int(p)].phase != .resident || state.packs[Int(p)].downloading {
            let i = Int(p)
            if state.packs[i].downloading {
                state.downloadWaiters[Int(state.packs[i].download)].join(id, priority: priority)
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
    func exceedsInUseLimit(_ app: Int32, _ packList: PackList) -> Bool {
        guard let limit = settings.profile.maxInUseSize else { return false }
        var added: Int64 = 0
        for p in packList where !isCommitted(Int(p)) { added += state.packs[Int(p)].size }
        return state.apps[Int(app)].committedBytes + added > limit
    }

    func grantHit(_ app: Int32, _ packList: PackList, priority: LoadingPriority, optional: Bool) -> RequestOutcome {
        state.ledger.hits += 1
        let (slot, id) = allocate(app, packList, priority: priority, optional: optional)
        for p in packList { use(Int(p)) }
        grant(slot, hit: true)
        return .granted(id)
    }

    func grant(_ slot: Int, hit: Bool) {
        move(request: slot, .grant)
        let app = state.requests[slot].app
        for p in packList(of: slot) { hold(Int(p), app: app, pinned: !hit) }
        state.ledger.grants += 1
        emit(.requestGranted(id(of: slot), AppID(rawValue: app), waited: state.now - state.requests[slot].begunAt, hit: hit))
    }

    func end(_ slot: Int, cause: ODREvent.EndCause) {
        let app = state.requests[slot].app
        let id = id(of: slot)
        for p in packList(of: slot) { release(Int(p), app: app) }
        release(slot: slot, .end)
        emit(.requestEnded(id, AppID(rawValue: app), cause))
    }

    func cancelWaiting(_ slot: Int) {
        let app = state.requests[slot].app
        let id = id(of: slot)
        for p in packList(of: slot) {
            let i = Int(p)
            unpin(i)
            let d = Int(state.packs[i].download)
            // Every pack of a waiting request it does not hold yet is downloading for it.
            if d >= 0, state.downloadWaiters[d].leave(), !state.packDetails[i].systemDownload { abandon(i) }
            refresh(i)
        }
        release(slot: slot, .cancel)
        state.revision &+= 1
        state.ledger.cancelled += 1
        emit(.requestCancelled(id, AppID(rawValue: app)))
        refreshRunnability()
    }

    func setPaused(_ paused: Bool, _ request: RequestID, at time: Double) -> Bool {
        advance(to: time)
        guard let slot = liveSlot(request), !state.requests[slot].granted, state.requests[slot].paused != paused else {
            return false
        }
        move(request: slot, paused ? .pause : .resume)
        if !paused { noteWaiterChanged(slot) }
        let app = AppID(rawValue: state.requests[slot].app)
        emit(paused ? .requestPaused(request, app) : .requestResumed(request, app))
        state.revision &+= 1
        refreshRunnability()
        return true
    }

    /// Ends (granted) or cancels (waiting) every request of `app`.
    func dropRequests(of app: Int32) {
        for slot in state.requests.indices where state.requests[slot].live && state.requests[slot].app == app {
            if state.requests[slot].granted { end(slot, cause: .appGone) } else { cancelWaiting(slot) }
        }
    }
}
