import ODRCore

/// Runs one scenario under one purge policy: a virtual clock, an event heap, and the merger of
/// the scenario's event streams, in the manner of SimPy's core. What each event does to the
/// device is the ``ScenarioDriver``'s business (the models: network, disk, apps); what the
/// streams hold, ``ScenarioStreams``'.
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
    public var device: ODRDevice { driver.device }
    /// The seed of this run (the scenario's, or a replication's).
    public let seed: UInt64
    /// Apps' device IDs, by ``AppIndex``.
    public var appIDs: [AppID] { driver.appIDs }
    /// Kernel events processed so far (for throughput measurements).
    public private(set) var processedEvents = 0
    /// What scripted events asked for that could not happen as written, in run order.
    public var notices: [RunNotice] { driver.notices }

    /// Entries of the kernel's queue. Scripted and generated events are not among them: the
    /// merger of their streams is a second agenda, read in step with the queue (see ``run``).
    private enum Item {
        /// The moment the bandwidth plan has the next download finish.
        case downloadDue
        /// A moment the driver asked to be woken at (``ScenarioDriver/Timer``): the kernel keeps
        /// its time and hands it back, knowing nothing of what it means.
        case timer(ScenarioDriver.Timer)
        case sample
    }

    /// Among equal times: download completions, then the driver's timers, then the merged streams (network phases,
    /// scripted and generated events), then samples.
    private enum Rank {
        static let downloadDue: UInt8 = 0
        static let timer: UInt8 = 1
        /// The merger of event streams, consulted in step with the queue (see ``upcoming()``).
        static let stream: UInt8 = 2
        static let sample: UInt8 = 3
    }

    // Performance: the queue is only touched from the run loop, one access at a time, so
    // Swift's dynamic exclusivity check is switched off for it (without it, `compare
    // photo-filters.scn` takes 1.3 % more instructions).
    @exclusivity(unchecked) private var queue = EventQueue<Item>()
    private let events: StreamMerger
    private let driver: ScenarioDriver
    /// Between samples, in seconds; 0 takes none.
    private var sampleInterval: Double = 0
    private var started = false
    private weak var observer: (any SimulationObserver)?

    /// Prepares a run of `scenario` with `policy` and `seed` (the scenario's seed by default):
    /// every app's packs are `policy`'s business.
    public convenience init(scenario: Scenario, policy: any PurgePolicy, seed: UInt64? = nil) {
        self.init(scenario: scenario, policies: RunPolicies(system: policy), seed: seed)
    }

    /// Where downloads' bytes come from.
    public enum Transfers: Sendable, Hashable {
        /// The network model: the link's bandwidth shared among the downloads (``run``).
        case modelled
        /// The caller: bytes arrive by ``deliver(_:to:at:)`` and transfers fail by
        /// ``failTransfer(_:at:)``, between events (`odr-sim live`, real downloads). The link
        /// still changes as the scenario says, and the device still decides which downloads run.
        case external
    }

    /// Where this run's downloads get their bytes.
    public let transfers: Transfers

    /// Prepares a run of `scenario` with the system's policy and the apps' own strategies.
    public init(scenario: Scenario, policies: RunPolicies, seed: UInt64? = nil, transfers: Transfers = .modelled) {
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        self.transfers = transfers
        driver = ScenarioDriver(scenario: scenario, policies: policies)
        driver.externalTransfers = transfers == .external
        events = ScenarioStreams.merger(scenario, seed: seed ?? scenario.seed)
        driver.simulator = self
    }

    /// The scenario key of a request (``RequestKey``: a scripted `id` or a generator's n-th
    /// request), or nil if it has none; nil asks for the request of the action being applied
    /// (one that failed before it had an ID). Known while an observer listens.
    public func requestKey(of request: RequestID?) -> RequestKey? { driver.requestKey(of: request) }

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
    public func run(
        observer: (any SimulationObserver)? = nil, sampleInterval: Double? = nil,
        maxEvents: Int = .max, progress: ((Double) -> Bool)? = nil
    ) -> End {
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
        driver.observer = observer
        // Performance: without an observer no one reads the core's events, so it keeps none.
        device.recordsEvents = observer != nil
        device.recordsOnlyGrants = !(observer?.observesAllEvents ?? true)
        driver.recording = observer != nil
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
        driver.advance(to: duration)
        if driver.recording && !device.recordsOnlyGrants { device.recordOutstanding(at: duration) }
        drainEvents()
        if sampleInterval > 0, duration.truncatingRemainder(dividingBy: sampleInterval) != 0 {
            observer?.simulator(self, sampleAt: duration)
        }
        self.observer = nil
        driver.observer = nil
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
            entry.time < streamTime || (entry.time == streamTime && entry.priority < Rank.stream)
        {
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
        driver.advance(to: time)
        if let entry = next.entry {
            _ = queue.pop()
            switch entry.payload {
            case .downloadDue:
                // Nothing left to do: bringing the network to this time, as before every
                // event, delivered the download's last bytes and the device finished it. If
                // the plan changed since it was made, nothing is due now and the entry passes.
                break
            case .timer(let timer):
                driver.fire(timer, at: time)
            case .sample:
                drainEvents()
                observer?.simulator(self, sampleAt: time)
                let next = time + sampleInterval
                if next <= scenario.duration { queue.schedule(.sample, at: next, priority: Rank.sample) }
            }
        } else {
            let action = events.take().action
            if let scripted = events.lastScriptedIndex {
                driver.applyScripted(action, index: scripted, at: time)
            } else {
                driver.apply(action, at: time)
            }
        }
        settle(at: time)
    }

    /// What follows whatever happened at `time`: the core's events to the observer, the
    /// driver's new timers, a new bandwidth plan.
    @inline(__always)
    private func settle(at time: Double) {
        if driver.recording { drainEvents() }
        if driver.setsTimers {
            for (timer, at) in driver.timersDue(at: time) {
                queue.schedule(.timer(timer), at: at, priority: Rank.timer)
            }
        }
        if let finish = driver.replanIfNeeded(at: time) {
            queue.schedule(.downloadDue, at: finish, priority: Rank.downloadDue)
        }
    }

    // MARK: External transfers

    /// `bytes` of `pack`'s running download arrived at `time` (external transfers): the
    /// device receives them (a download's last byte stores the pack and grants what waited for
    /// it), and what follows settles as after an event. `time` is not before the device's
    /// clock and not after ``peek()``.
    public func deliver(_ bytes: Int64, to pack: PackID, at time: Double) {
        precondition(transfers == .external, "deliver(_:to:at:) is for external transfers")
        start()
        let time = max(time, device.now)
        device.receive(bytes, for: pack, at: time)
        settle(at: time)
    }

    /// `pack`'s running download failed at `time` (external transfers): the device's
    /// ``ODRDevice/failDownload(_:at:because:)``, its waiting requests failing with `error`,
    /// then what follows settles as after an event.
    public func failTransfer(_ pack: PackID, at time: Double, because error: RequestError = .downloadFailed) {
        precondition(transfers == .external, "failTransfer(_:at:because:) is for external transfers")
        start()
        let time = max(time, device.now)
        device.failDownload(pack, at: time, because: error)
        settle(at: time)
    }

    /// Other data changed by `delta` bytes at `time` (external transfers: what the real disk
    /// says beside the scenario), as the scenario's own `disk` events change it; what follows
    /// settles as after an event. Returns the change applied (other data stops at 0 and at
    /// the capacity).
    @discardableResult
    public func changeOtherData(by delta: Int64, at time: Double) -> Int64 {
        precondition(transfers == .external, "changeOtherData(by:at:) is for external transfers")
        start()
        let time = max(time, device.now)
        let applied = device.changeOtherData(by: delta, at: time)
        settle(at: time)
        return applied
    }

    /// Hands the core's events to the observer, then drops the keys of requests that finished.
    private func drainEvents() {
        guard driver.recording, !device.events.isEmpty else { return }
        for event in device.events {
            observer?.simulator(self, emitted: event)
            driver.forget(event)
        }
        device.removeAllEvents()
        driver.endStep()
    }
}
