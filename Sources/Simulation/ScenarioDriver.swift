import ODRCore

/// The models that drive an ``ODRDevice`` through a scenario: they apply each scripted or
/// generated action (installs, launches, requests by scenario key, disk growth, link
/// changes), keep the network's bandwidth plan, and know each request's scenario key.
/// The kernel (``Simulator``) decides when; the driver decides what happens to the device.
final class ScenarioDriver {
    let scenario: Scenario
    let device: ODRDevice
    /// Apps' device IDs, by ``AppIndex``.
    let appIDs: [AppID]
    /// What scripted events asked for that could not happen as written, in run order.
    private(set) var notices: [RunNotice] = []

    /// The driver's mutable state, in one container: only the run loop touches it, one
    /// access at a time, so Swift's dynamic exclusivity checks (a quarter of kernel time) are
    /// switched off for it, here and nowhere else in the module.
    private struct State {
        var network: NetworkModel
        /// Each live request's key by its ``RequestID/index``, for labels: kept only when an
        /// observer listens.
        var keys: [(id: RequestID, key: RequestKey)?] = []
        var currentKey: RequestKey?
        /// Per scripted request key, whether a scripted `end` has ended it (for the notice of
        /// a second `end`).
        var endedByScript: [Bool]
        /// Whether the core records events (only for an observer). A copy of the device's
        /// flag: reading a property of another module's class costs a dynamic exclusivity check.
        var recording = true
        /// Whether downloads' bytes come from outside (``Simulator/Transfers/external``): the
        /// network model then keeps the link and delivers nothing.
        var externalTransfers = false
    }
    @exclusivity(unchecked) private var state: State

    /// Requests by scenario key, from their start until the scenario ends them (`end`, or a
    /// `cancel` that took effect). A request the core ended by itself (a low-disk release, its
    /// app terminated) keeps its entry until then: the core ignores a finished request's ID,
    /// so the entry is harmless, and the run needs no report of such endings.
    private let live = KeyTable<RequestID>()
    /// Who is told of link changes, and the simulator it is told about.
    weak var observer: (any SimulationObserver)?
    unowned(unsafe) var simulator: Simulator!

    init(scenario: Scenario, policies: RunPolicies) {
        self.scenario = scenario
        // Wi-Fi only (the user's setting): every download on cellular waits as a large one does
        // (WAITING_FOR_WIFI), and the same dialog lets the user accept mobile data for it:
        // "This happens if the pack is too big for cellular or the user set a Wi-Fi-only
        // preference" / RequestToUseMobileDataAsync "ask[s] for the permission to continue
        // download using the mobile data" (Play Core AssetPackManager.showCellularDataConfirmation;
        // Unity AndroidAssetPackStatus.WaitingForWifi). The consent comes after
        // apps[].cellular_confirmation, as for a large download; `never` leaves it waiting.
        func asSet(_ platform: PlatformProfile) -> PlatformProfile {
            var profile = platform
            if scenario.device.wifiOnly && profile.cellularConfirmationBytes != nil {
                profile.cellularConfirmationBytes = 0
            }
            return profile
        }
        setsTimers =
            scenario.appPlatforms.contains { $0.cellularConfirmationBytes != nil }
            || scenario.apps.contains { !$0.installedByPlay } || scenario.generators.contains(where: \.stallsTransfers)
            || scenario.events.contains { if case .stallTransfer = $0.action { true } else { false } }
        let settings = DeviceSettings(
            profile: asSet(scenario.platform), onSpaceExhausted: scenario.device.onSpaceExhausted)
        let device = ODRDevice(
            capacity: scenario.device.capacity, otherData: scenario.device.used, policy: policies.system,
            settings: settings)
        // Each app's eviction goes to the device with the app: its budget, kept tags and strategy.
        appIDs = scenario.apps.enumerated().map { index, app in
            let eviction = EvictionRules(
                budget: app.eviction.budget, keep: app.eviction.keep, strategy: policies.strategies[index])
            return device.addApp(
                name: app.id, catalog: app.catalog, allowsCellular: app.cellular, lowDiskResponse: app.onLowDisk,
                eviction: eviction, profile: app.platform.map(asSet))
        }
        for (app, spec) in zip(appIDs, scenario.apps) {
            if spec.automaticFilter != nil { device.setAutomaticDownloadFilter(of: app, spec.automaticFilter) }
            if !spec.installedByPlay { device.requireUserConfirmation(of: app) }
        }
        self.device = device
        state = State(
            network: NetworkModel(packCount: device.packCount),
            endedByScript: Array(repeating: false, count: scenario.requestLabels.count))
    }

    /// Whether the core's events are recorded (an observer listens).
    var recording: Bool {
        get { state.recording }
        set { state.recording = newValue }
    }

    // MARK: The network

    /// Whether downloads' bytes come from outside (``Simulator/Transfers/external``).
    var externalTransfers: Bool {
        get { state.externalTransfers }
        set { state.externalTransfers = newValue }
    }

    /// Downloads progress to `time` at the planned rates (none planned: external transfers).
    @inline(__always)
    func advance(to time: Double) {
        if !state.externalTransfers { state.network.advance(device, to: time) }
    }

    /// A new bandwidth plan if the downloads changed; the time the next download finishes
    /// (never, when transfers are external: their bytes arrive when they arrive).
    @inline(__always)
    func replanIfNeeded(at time: Double) -> Double? {
        guard !state.externalTransfers, state.network.needsReplan(device) else { return nil }
        return state.network.replan(device, at: time)
    }

    private func applyLink(bandwidth: Double, kind: LinkKind, at time: Double) {
        state.network.setLink(bandwidth: bandwidth, kind: kind)
        device.setLink(state.network.linkState, at: time)
        observer?.simulator(simulator, linkChangedTo: bandwidth, kind: kind, at: time)
    }

    // MARK: Timers

    /// A moment of the model the driver asks the kernel to wake it at, and what it then does.
    /// Platform behaviour with a delay lives here, not in the kernel's queue.
    enum Timer {
        /// The user confirms the app's large downloads on cellular (Play's `WAITING_FOR_WIFI`
        /// dialog, ``AppSpec/cellularConfirmationDelay`` after the app began waiting).
        case cellularConfirmation(AppID)
        /// A stall ends: of these packs' transfers, or (none) of the link's.
        case stallEnds([PackID])
    }

    /// Whether this run's model sets timers at all (large cellular downloads wait for the
    /// user's confirmation on this platform), so a run without them asks nothing per event.
    let setsTimers: Bool
    /// Apps whose confirmation is already on its way.
    private var confirmationScheduled: Set<AppID> = []
    /// Timers set by actions (a stall's end), handed to the kernel at the next ``timersDue(at:)``.
    private var actionTimers: [(timer: Timer, at: Double)] = []
    /// How many stalls of each pack (nil key: of the link) are under way: one that ends while
    /// another of the same transfer goes on leaves it stalled.
    private var stallsUnderWay: [PackID?: Int] = [:]

    /// The timers set by what happened at `time`: for each app newly waiting to use cellular
    /// data, the user's confirmation (its ``AppSpec/cellularConfirmationDelay`` from now).
    func timersDue(at time: Double) -> [(timer: Timer, at: Double)] {
        var due: [(timer: Timer, at: Double)] = actionTimers
        actionTimers.removeAll()
        for app in device.appsAwaitingCellularConfirmation where !confirmationScheduled.contains(app) {
            guard let index = appIDs.firstIndex(of: app), let delay = scenario.apps[index].cellularConfirmationDelay
            else { continue }
            confirmationScheduled.insert(app)
            due.append((.cellularConfirmation(app), time + delay))
        }
        return due
    }

    /// What a timer does when its time comes.
    func fire(_ timer: Timer, at time: Double) {
        switch timer {
        case .cellularConfirmation(let app): device.confirmCellular(app, at: time)
        case .stallEnds(let packs):
            for pack in packs.isEmpty ? [nil] : packs.map(Optional.some) {
                stallsUnderWay[pack, default: 1] -= 1
                if stallsUnderWay[pack] == 0 {
                    stallsUnderWay[pack] = nil
                    device.setTransferStalled(pack, false, at: time)
                }
            }
        }
    }

    // MARK: Actions

    /// A scripted event: applied as a generated one would be, with a ``RunNotice`` where it
    /// cannot happen as written.
    func applyScripted(_ action: ScenarioEvent.Action, index: Int, at time: Double) {
        func notice(_ message: String) {
            notices.append(RunNotice(event: index, time: time, message: message))
        }
        switch action {
        case .disk(let delta):
            let applied = device.changeOtherData(by: delta, at: time)
            if applied != delta {
                let missing = ByteFormatting.describe(abs(delta - applied))
                if delta < 0 {
                    notice(
                        """
                        other data cannot shrink by \(ByteFormatting.describe(-delta)): only \
                        \(ByteFormatting.describe(-applied)) was left, so it stops at zero (\(missing) not \
                        removed)
                        """
                    )
                } else {
                    notice(
                        """
                        other data cannot grow by \(ByteFormatting.describe(delta)): \(missing) did not fit, even \
                        after purging, and was refused (refused_other_bytes)
                        """
                    )
                }
            }
            return
        case .end(let a, let key):
            if live[key] == nil, key < state.endedByScript.count, state.endedByScript[key] {
                notice(
                    """
                    request '\(scenario.requestLabels[key])' of app '\(scenario.apps[a].id)' was already ended; this \
                    end does nothing
                    """
                )
            }
            if key < state.endedByScript.count { state.endedByScript[key] = true }
        case .request(let a, _, _, _, _), .requestLatest(let a, _, _, _, _), .requestIfPresent(let a, _, _):
            if device.isInstalled(appIDs[a]) && !device.isRunning(appIDs[a]) {
                notice(
                    """
                    app '\(scenario.apps[a].id)' is not running; the request is made all the same, and its app's \
                    content is purged as that of an app not running
                    """
                )
            }
        case .update(let a, let pack):
            let id = device.pack(Int(pack), of: appIDs[a])
            switch device.updatePack(id, at: time) {
            case .busy:
                notice(
                    """
                    pack '\(device.name(of: id))' of app '\(scenario.apps[a].id)' is being downloaded or used; the \
                    update is not applied
                    """
                )
            case .outdated:
                notice(
                    """
                    pack '\(device.name(of: id))' of app '\(scenario.apps[a].id)' is being downloaded or used, or \
                    its new version does not fit; its old version stays, out of date, until a request with \
                    latest: true
                    """
                )
            default: break
            }
            return
        default: break
        }
        apply(action, at: time)
    }

    /// A generated event (or a scripted one, once checked).
    func apply(_ action: consuming ScenarioEvent.Action, at time: Double) {
        state.currentKey = nil
        switch consume action {
        case .install(let a): device.install(appIDs[a], at: time)
        case .updateApp(let a): device.updateApp(appIDs[a], at: time)
        case .launch(let a): device.launch(appIDs[a], at: time)
        case .terminate(let a): device.terminate(appIDs[a], at: time)
        case .uninstall(let a): device.uninstall(appIDs[a], at: time)
        case .request(let a, let tags, let key, let priority, let optional):
            state.currentKey = key
            // Performance: a one-tag request goes to the core without building an array.
            let outcome =
                if let tag = tags.single {
                    device.beginAccessing(appIDs[a], tag: tag, priority: priority, optional: optional, at: time)
                } else {
                    device.beginAccessing(
                        appIDs[a], tags: Array(tags), priority: priority, optional: optional, at: time)
                }
            if let id = outcome.request { remember(key, id) }
        case .requestLatest(let a, let tags, let key, let priority, let optional):
            state.currentKey = key
            let outcome = device.beginAccessing(
                appIDs[a], tags: Array(tags), priority: priority, optional: optional, requireLatest: true, at: time)
            if let id = outcome.request { remember(key, id) }
        case .requestIfPresent(let a, let tags, let key):
            state.currentKey = key
            if let id = device.conditionallyBeginAccessing(appIDs[a], tags: Array(tags), at: time), let key {
                remember(key, id)
            }
        case .setPriority(_, let key, let priority):
            if let id = live[key] { device.setLoadingPriority(priority, for: id, at: time) }
        case .pause(_, let key):
            if let id = live[key] { device.pause(id, at: time) }
        case .resume(_, let key):
            if let id = live[key] { device.resume(id, at: time) }
        case .cancel(_, let key):
            // A granted request is not cancelled: it stays live until its end.
            if let id = live[key], device.cancel(id, at: time) { live[key] = nil }
        case .end(_, let key):
            if let id = live.removeValue(forKey: key) { device.endAccessing(id, at: time) }
        case .preserve(let a, let list):
            for entry in list {
                device.setPreservationPriority(entry.priority, for: [entry.tag], of: appIDs[a], at: time)
            }
        case .disk(let delta):
            device.changeOtherData(by: delta, at: time)
        case .network(let bandwidth, let kind):
            applyLink(bandwidth: bandwidth, kind: kind, at: time)
        case .update(let a, let pack):
            device.updatePack(device.pack(Int(pack), of: appIDs[a]), at: time)
        case .retire(let a, let pack):
            device.retirePack(device.pack(Int(pack), of: appIDs[a]), at: time)
        case .checkForUpdates(let a):
            device.checkForUpdates(appIDs[a], at: time)
        case .failDownload(let a, let packs):
            for pack in packs { device.failDownload(device.pack(Int(pack), of: appIDs[a]), at: time) }
        case .failDownloads:
            device.failDownloads(at: time)
        case .offload(let a):
            device.offload(appIDs[a], at: time)
        case .clearStorage(let a):
            device.clearStorage(appIDs[a], at: time)
        case .stallTransfer(let a, let packs, let seconds):
            let ids = a.map { a in packs.map { device.pack(Int($0), of: appIDs[a]) } } ?? []
            for pack in ids.isEmpty ? [nil] : ids.map(Optional.some) {
                stallsUnderWay[pack, default: 0] += 1
                device.setTransferStalled(pack, true, at: time)
            }
            actionTimers.append((.stallEnds(ids), time + seconds))
        }
    }

    // MARK: Request keys

    private func remember(_ key: RequestKey, _ id: RequestID) {
        live[key] = id
        // The flag, not the weak observer: loading a weak reference is an atomic operation.
        guard state.recording else { return }
        while state.keys.count <= id.index { state.keys.append(nil) }
        state.keys[id.index] = (id, key)
    }

    private func key(of id: RequestID) -> RequestKey? {
        guard id.index < state.keys.count, let entry = state.keys[id.index], entry.id == id else { return nil }
        return entry.key
    }

    /// The scenario key of a request, or nil if it has none; a request that failed before
    /// it had an ID is the one of the action being applied.
    func requestKey(of request: RequestID?) -> RequestKey? {
        if let request { return key(of: request) }
        return state.currentKey
    }

    /// Drops the key of a request that finished (its row has been written).
    func forget(_ event: ODREvent) {
        switch event.kind {
        case .requestEnded(let id, _, _), .requestCancelled(let id, _):
            if key(of: id) != nil { state.keys[id.index] = nil }
        default: break
        }
    }

    /// The events of one step are all handed over: the next action sets its own key.
    func endStep() { state.currentKey = nil }
}
