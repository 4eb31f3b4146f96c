import ODRCore

/// Runs one scenario under one purge policy: a virtual clock, an event heap, and the models
/// (network, disk, apps) that drive an ``ODRDevice``.
///
/// Sources of events each keep one pending entry: the sampling clock and download
/// completions in the kernel's heap; the network phases, the scripted list and each workload
/// generator in the merger of event streams (``StreamMerger``), read in step with it. So
/// memory follows live state, not simulated time. Among equal times, download completions
/// run first, then network phases, then scripted and generated events, then samples; within
/// one kind, scheduling order (file order for scripted events).
///
/// ```swift
/// let simulator = Simulator(scenario: scenario, policy: ApplePolicy())
/// simulator.run(observer: collector, sampleInterval: 60)
/// simulator.device.ledger.overPurgeBytes
/// ```
///
/// Or one event at a time, as SimPy's `peek` and `step` (to look at the device in between):
///
/// ```swift
/// simulator.start(observer: collector)
/// while let time = simulator.peek(), time < 3600 { simulator.step() }
/// ```
public final class Simulator {
    public let scenario: Scenario
    public let device: ODRDevice
    /// The seed of this run (the scenario's, or a replication's).
    public let seed: UInt64
    /// Apps' device IDs, by ``AppIndex``.
    public let appIDs: [AppID]
    /// Kernel events processed so far (for throughput measurements).
    public private(set) var processedEvents = 0
    /// What scripted events asked for that could not happen as written, in run order.
    public private(set) var notices: [RunNotice] = []

    /// Entries of the kernel's queue. Scripted and generated events are not among them: the
    /// merger of their streams is a second agenda, read in step with the queue (see ``run``).
    private enum Item {
        /// The moment the bandwidth plan has the next download finish.
        case downloadDue
        case sample
    }

    /// Among equal times: download completions, then the merged streams (network phases, scripted
    /// and generated events), then samples.
    private enum Rank {
        static let downloadDue: UInt8 = 0
        /// The merger of event streams, consulted in step with the queue (see ``upcoming()``).
        static let stream: UInt8 = 2
        static let sample: UInt8 = 3
    }

    // Performance: this state is only touched from the run loop, one access at a time, so
    // Swift's dynamic exclusivity checks (a quarter of kernel time) are switched off for it.
    @exclusivity(unchecked) private var queue = EventQueue<Item>()
    @exclusivity(unchecked) private var network: NetworkModel
    private let events: StreamMerger
    /// Requests by scenario key, from their start until the scenario ends them (`end`, or a
    /// `cancel` that took effect). A request the core ended by itself (a low-disk release, its
    /// app terminated) keeps its entry until then: the core ignores a finished request's ID,
    /// so the entry is harmless, and the run needs no report of such endings.
    private let live = KeyTable<RequestID>()
    /// Each live request's key by its ``RequestID/index``, for labels: kept only when an
    /// observer listens.
    @exclusivity(unchecked) private var keys: [(id: RequestID, key: RequestKey)?] = []
    @exclusivity(unchecked) private var currentKey: RequestKey?
    /// Per scripted request key, whether a scripted `end` has ended it (for the notice of a
    /// second `end`).
    @exclusivity(unchecked) private var endedByScript: [Bool]
    /// "popularity3-" and so on, by generator.
    private let generatorLabelPrefixes: [String]
    /// Whether the core records events (only for an observer). A copy of the device's flag:
    /// reading a property of another module's class costs a dynamic exclusivity check.
    @exclusivity(unchecked) private var recording = true
    /// Between samples, in seconds; 0 takes none.
    private var sampleInterval: Double = 0
    private var started = false
    private weak var observer: (any SimulationObserver)?

    /// Prepares a run of `scenario` with `policy` and `seed` (the scenario's seed by default).
    public init(scenario: Scenario, policy: any PurgePolicy, seed: UInt64? = nil) {
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        let settings = DeviceSettings(profile: scenario.platform, onSpaceExhausted: scenario.device.onSpaceExhausted)
        let device = ODRDevice(capacity: scenario.device.capacity, otherData: scenario.device.used, policy: policy, settings: settings)
        appIDs = scenario.apps.map {
            device.addApp(name: $0.id, catalog: $0.catalog, allowsCellular: $0.cellular, lowDiskResponse: $0.onLowDisk)
        }
        self.device = device
        generatorLabelPrefixes = scenario.generators.indices.map(scenario.labelPrefix(ofGenerator:))
        network = NetworkModel(packCount: device.packCount)
        events = Self.merger(scenario, seed: seed ?? scenario.seed)
        endedByScript = Array(repeating: false, count: scenario.requestLabels.count)
    }

    /// The scripted events and the generator streams (each with its own key range above the
    /// scripted request keys), merged in run order.
    static func merger(_ scenario: Scenario, seed: UInt64) -> StreamMerger {
        let keySpace = Scenario.generatorKeySpace
        let generated = scenario.generators.enumerated().map { i, generator in
            generator.makeStream(scenario: scenario, seed: seed,
                                 firstKey: scenario.requestLabels.count + i * keySpace, keySpace: keySpace)
        }
        return StreamMerger(network: networkEvents(scenario), scripted: scenario.events, generated: generated)
    }

    /// The scenario's network phases as link changes; before the first phase (or without
    /// any) the link is offline.
    static func networkEvents(_ scenario: Scenario) -> [ScenarioEvent] {
        var events = scenario.network.map { ScenarioEvent(time: $0.at, action: .network(bandwidth: $0.bandwidth, kind: $0.kind)) }
        if (scenario.network.first?.at ?? 1) > 0 {
            events.insert(ScenarioEvent(time: 0, action: .network(bandwidth: 0, kind: .wifi)), at: 0)
        }
        return events
    }

    /// The scenario's scripted and generated events for a run with `seed` (the scenario's by
    /// default), in the order the run takes them: the workload alone, with no device behind
    /// it. Events past the scenario's duration follow; stop reading at it.
    public static func workload(of scenario: Scenario, seed: UInt64? = nil) -> StreamMerger {
        merger(scenario, seed: seed ?? scenario.seed)
    }

    /// Every request the run will make, in order, as the packs each includes: the future an
    /// offline policy such as Belady needs. Workloads depend only on the seed, never on the
    /// device's state, so this stream is exactly the one the run will see.
    public static func requestStream(of scenario: Scenario, seed: UInt64? = nil) -> [[PackID]] {
        let probe = ODRDevice(capacity: 0, policy: NoPurges())
        let apps = scenario.apps.map { probe.addApp(name: $0.id, catalog: $0.catalog) }
        let merged = merger(scenario, seed: seed ?? scenario.seed)
        var result: [[PackID]] = []
        while let event = merged.next(), event.time <= scenario.duration {
            let tags: RequestTags
            let app: AppIndex
            switch event.action {
            case .request(let a, let t, _, _, _), .requestIfPresent(let a, let t, _): (app, tags) = (a, t)
            default: continue
            }
            let catalog = scenario.apps[app].catalog
            var packs: [PackID] = []
            for tag in tags {
                for p in catalog.tag(tag).packs {
                    let id = probe.pack(Int(p), of: apps[app])
                    if !packs.contains(id) { packs.append(id) }
                }
            }
            result.append(packs)
        }
        return result
    }

    /// The scenario label of a request (its `id`), or "" if it has none.
    public func label(of request: RequestID?) -> String {
        if let request, let key = key(of: request) { return label(ofKey: key) }
        if request == nil, let key = currentKey { return label(ofKey: key) }
        return ""
    }

    /// ``Scenario/label(of:)``, with the generators' prefixes built once: an observer asks
    /// for a label on every request row it writes.
    private func label(ofKey key: RequestKey) -> String {
        guard let (generator, number) = scenario.generatorRequest(key), generator < generatorLabelPrefixes.count else {
            return scenario.label(of: key)
        }
        return generatorLabelPrefixes[generator] + String(number)
    }

    /// How a run ended.
    public enum End: Sendable, Hashable {
        /// It reached the scenario's duration.
        case completed
        /// It processed `maxEvents` kernel events first (a runaway workload).
        case eventLimit(time: Double)
        /// `progress` asked it to stop.
        case stopped(time: Double)
    }

    /// Kernel events between two calls of a run's `progress`.
    public static let progressInterval = 1 << 10

    /// Runs to the scenario's duration. `sampleInterval` of nil or 0 takes no samples.
    ///
    /// `maxEvents` bounds the kernel events of the run; `progress` is called with the
    /// virtual time every ``progressInterval`` events and stops the run by returning false.
    /// A run that stops early leaves the device as it was at that moment.
    ///
    /// It is ``start(observer:sampleInterval:)``, ``step()`` until none is left, and
    /// ``finish()``, with the limit and the progress calls in between.
    @discardableResult
    public func run(observer: (any SimulationObserver)? = nil, sampleInterval: Double? = nil,
                    maxEvents: Int = .max, progress: ((Double) -> Bool)? = nil) -> End {
        start(observer: observer, sampleInterval: sampleInterval)
        // One comparison per event: the limit and the progress calls share a checkpoint.
        var checkpoint = min(maxEvents, processedEvents + Self.progressInterval)
        while let next = upcoming() {
            if processedEvents >= checkpoint {
                if processedEvents >= maxEvents {
                    self.observer = nil
                    return .eventLimit(time: next.time)
                }
                if let progress, !progress(next.time) {
                    self.observer = nil
                    return .stopped(time: next.time)
                }
                checkpoint = min(maxEvents, processedEvents + Self.progressInterval)
            }
            execute(next)
        }
        finish()
        return .completed
    }

    /// Prepares the run: the observer, the sampling clock and the first link change are set
    /// up, and nothing has happened yet. ``step()`` calls it (with no observer and no
    /// samples) if it was not called first; calling it again does nothing.
    public func start(observer: (any SimulationObserver)? = nil, sampleInterval: Double? = nil) {
        guard !started else { return }
        started = true
        self.observer = observer
        // Performance: without an observer no one reads the core's events, so it keeps none.
        device.recordsEvents = observer != nil
        device.recordsOnlyGrants = !(observer?.observesAllEvents ?? true)
        recording = observer != nil
        self.sampleInterval = sampleInterval ?? 0
        if self.sampleInterval > 0 { queue.schedule(.sample, at: 0, priority: Rank.sample) }
    }

    /// The virtual time of the next event, or nil if none is left within the scenario's
    /// duration. Nothing happens.
    public func peek() -> Double? {
        start()
        return upcoming()?.time
    }

    /// Runs the next event: the device and the models are brought to its time, it happens,
    /// and its consequences (grants, purges, a new bandwidth plan) are settled. Returns false,
    /// doing nothing, if no event is left within the scenario's duration; then ``finish()``
    /// closes the run.
    @discardableResult
    public func step() -> Bool {
        start()
        guard let next = upcoming() else { return false }
        execute(next)
        return true
    }

    /// Closes the run at the scenario's duration: downloads progress to it, the record closes
    /// with what is still open (so its events account for every request and every byte
    /// fetched), and the last sample is taken. Call it once, when ``step()`` returns false.
    public func finish() {
        let duration = scenario.duration
        network.advance(device, to: duration)
        if recording && !device.recordsOnlyGrants { device.recordOutstanding(at: duration) }
        drainEvents()
        if sampleInterval > 0, duration.truncatingRemainder(dividingBy: sampleInterval) != 0 {
            observer?.simulator(self, sampleAt: duration)
        }
        self.observer = nil
    }

    /// The next event: from the merger of event streams, or the kernel's queue.
    private struct Upcoming {
        let time: Double
        /// The queue's earliest entry, or nil if the event comes from the streams.
        let entry: EventQueue<Item>.Entry?
    }

    @inline(__always)
    private func upcoming() -> Upcoming? {
        // Performance: the event streams' merger is consulted in step with the queue rather
        // than through an entry of its own, which saves a push and a pop per event. The
        // order is the one such an entry (rank 2) would give: its time, then rank.
        let streamTime = events.nextTime ?? .infinity
        let next: Upcoming
        if let entry = queue.earliest,
           entry.time < streamTime || (entry.time == streamTime && entry.priority < Rank.stream) {
            next = Upcoming(time: entry.time, entry: entry)
        } else {
            next = Upcoming(time: streamTime, entry: nil)
        }
        guard next.time <= scenario.duration, next.time.isFinite else { return nil }
        return next
    }

    @inline(__always)
    private func execute(_ next: Upcoming) {
        let time = next.time
        processedEvents += 1
        network.advance(device, to: time)
        if let entry = next.entry {
            _ = queue.pop()
            switch entry.payload {
            case .downloadDue:
                // Nothing left to do: bringing the network to this time, as before every
                // event, delivered the download's last bytes and the device finished it. If
                // the plan changed since it was made, nothing is due now and the entry passes.
                break
            case .sample:
                drainEvents()
                observer?.simulator(self, sampleAt: time)
                let next = time + sampleInterval
                if next <= scenario.duration { queue.schedule(.sample, at: next, priority: Rank.sample) }
            }
        } else {
            let action = events.take().action
            if let scripted = events.lastScriptedIndex {
                applyScripted(action, index: scripted, at: time)
            } else {
                apply(action, at: time)
            }
        }
        if recording { drainEvents() }
        replanIfNeeded(at: time)
    }

    private func replanIfNeeded(at time: Double) {
        guard network.needsReplan(device) else { return }
        if let finish = network.replan(device, at: time) {
            queue.schedule(.downloadDue, at: finish, priority: Rank.downloadDue)
        }
    }

    private func applyLink(bandwidth: Double, kind: LinkKind, at time: Double) {
        network.setLink(bandwidth: bandwidth, kind: kind)
        device.setLink(network.linkState, at: time)
        observer?.simulator(self, linkChangedTo: bandwidth, kind: kind, at: time)
    }

    /// A scripted event: applied as a generated one would be, with a ``RunNotice`` where it
    /// cannot happen as written.
    private func applyScripted(_ action: ScenarioEvent.Action, index: Int, at time: Double) {
        func notice(_ message: String) {
            notices.append(RunNotice(event: index, time: time, message: message))
        }
        switch action {
        case .disk(let delta):
            let applied = device.changeOtherData(by: delta, at: time)
            if applied != delta {
                let missing = ByteFormatting.describe(abs(delta - applied))
                if delta < 0 {
                    notice("other data cannot shrink by \(ByteFormatting.describe(-delta)): only \(ByteFormatting.describe(-applied)) was left, so it stops at zero (\(missing) not removed)")
                } else {
                    notice("other data cannot grow by \(ByteFormatting.describe(delta)): \(missing) did not fit, even after purging, and was refused (refused_other_bytes)")
                }
            }
            return
        case .end(let a, let key):
            if live[key] == nil, key < endedByScript.count, endedByScript[key] {
                notice("request '\(scenario.label(of: key))' of app '\(scenario.apps[a].id)' was already ended; this end does nothing")
            }
            if key < endedByScript.count { endedByScript[key] = true }
        case .request(let a, _, _, _, _), .requestIfPresent(let a, _, _):
            if device.isInstalled(appIDs[a]) && !device.isRunning(appIDs[a]) {
                notice("app '\(scenario.apps[a].id)' is not running; the request is made all the same, and its app's content is purged as that of an app not running")
            }
        default: break
        }
        apply(action, at: time)
    }

    private func apply(_ action: consuming ScenarioEvent.Action, at time: Double) {
        currentKey = nil
        switch consume action {
        case .install(let a): device.install(appIDs[a], at: time)
        case .launch(let a): device.launch(appIDs[a], at: time)
        case .terminate(let a): device.terminate(appIDs[a], at: time)
        case .uninstall(let a): device.uninstall(appIDs[a], at: time)
        case .request(let a, let tags, let key, let priority, let optional):
            currentKey = key
            // Performance: a one-tag request goes to the core without building an array.
            let outcome = if let tag = tags.single {
                device.beginAccessing(appIDs[a], tag: tag, priority: priority, optional: optional, at: time)
            } else {
                device.beginAccessing(appIDs[a], tags: Array(tags), priority: priority, optional: optional, at: time)
            }
            if let id = outcome.request { remember(key, id) }
        case .requestIfPresent(let a, let tags, let key):
            currentKey = key
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
            for entry in list { device.setPreservationPriority(entry.priority, for: [entry.tag], of: appIDs[a], at: time) }
        case .disk(let delta):
            device.changeOtherData(by: delta, at: time)
        case .network(let bandwidth, let kind):
            applyLink(bandwidth: bandwidth, kind: kind, at: time)
        }
    }

    private func remember(_ key: RequestKey, _ id: RequestID) {
        live[key] = id
        // The flag, not the weak observer: loading a weak reference is an atomic operation.
        guard recording else { return }
        while keys.count <= id.index { keys.append(nil) }
        keys[id.index] = (id, key)
    }

    private func key(of id: RequestID) -> RequestKey? {
        guard id.index < keys.count, let entry = keys[id.index], entry.id == id else { return nil }
        return entry.key
    }

    /// Hands the core's events to the observer, then drops the labels of requests that finished.
    private func drainEvents() {
        guard recording, !device.events.isEmpty else { return }
        for event in device.events {
            observer?.simulator(self, emitted: event)
            switch event.kind {
            case .requestEnded(let id, _, _), .requestCancelled(let id, _):
                if key(of: id) != nil { keys[id.index] = nil }
            default: break
            }
        }
        device.removeAllEvents()
        currentKey = nil
    }
}

/// The policy of a device that never purges: the request-stream probe only adds apps to
/// learn their pack numbering.
private final class NoPurges: PurgePolicy {
    let name = "none"
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] { [] }
}
