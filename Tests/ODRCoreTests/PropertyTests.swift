import ODRPolicies
import PropertyBased
import Testing

@testable import ODRCore

/// Random sequences of operations on a device with three small apps; after every step the
/// device must keep the invariants of its doc comment and of ODR-SPEC §2 and §4.
@Suite("Device invariants under random operations")
struct PropertyTests {
    /// One step: an operation code and two arguments, interpreted by ``Harness/apply(_:)``.
    struct Step: CustomStringConvertible, Sendable {
        let code: Int
        let a: Int
        let b: Int
        var description: String { "\(Harness.opNames[code])(\(a),\(b))" }
    }

    static let steps = zip(Gen.int(in: 0...(Harness.opNames.count - 1)), Gen.int(in: 0...999), Gen.int(in: 0...999))
        .map { Step(code: $0.0, a: $0.1, b: $0.2) }

    @Test("Disk, retain counts, purges and byte accounting stay consistent")
    func invariants() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 150...500), Gen.int(in: 0...200), Gen.bool, Self.steps.array(of: 10...80)
        ) { capacity, other, terminates, steps in
            Self.run(steps, capacity: capacity, other: other, terminates: terminates)
        }
    }

    @Test("The same invariants hold on a small, nearly full disk")
    func invariantsUnderPressure() async {
        await propertyCheck(
            count: 200,
            input: Gen.int(in: 150...260), Gen.int(in: 100...200), Gen.bool, Self.steps.array(of: 20...80)
        ) { capacity, other, terminates, steps in
            Self.run(steps, capacity: capacity, other: other, terminates: terminates)
        }
    }

    /// Applies `steps` to a fresh device, checking every invariant after each one.
    static func run(_ steps: [Step], capacity: Int, other: Int, terminates: Bool) {
        let harness = Harness(capacity: Int64(capacity) * MB, other: Int64(other) * MB, terminateApp: terminates)
        for (i, step) in steps.enumerated() {
            harness.apply(step)
            let problems = harness.check()
            if !problems.isEmpty {
                Issue.record("after step \(i) \(step): \(problems.joined(separator: "; "))")
                return
            }
        }
    }
}

/// Drives a device and keeps an independent model of the requests, to judge every purge.
final class Harness {
    static let opNames = [
        "begin", "begin", "begin", "beginPair", "conditional", "end", "end", "cancel", "pause", "resume",
        "receive", "receive", "receive", "receive", "receive", "deliverAll", "otherGrow", "otherShrink", "link",
        "install", "launch", "terminate", "uninstall", "preservation", "priority",
    ]

    let device: ODRDevice
    let apps: [AppID]
    var time = 0.0
    /// Every request handed out, live or not, in order.
    var issued: [RequestID] = []
    /// The model: live requests, their packs and whether granted.
    var live: [RequestID: (packs: [PackID], granted: Bool)] = [:]
    var retain: [PackID: Int] = [:]
    /// Problems found while replaying the latest step's events.
    var problems: [String] = []
    /// What the events alone say: requests made, bytes fetched by closed downloads, each open
    /// download's bytes to fetch at its start, and the downloads reported stalled.
    var madeByEvents: Int64 = 0
    var fetchedByEvents: Int64 = 0
    var openDownloads: [PackID: Int64] = [:]
    var stalled: Set<PackID> = []

    init(capacity: Int64, other: Int64, terminateApp: Bool, policy: any PurgePolicy = ApplePolicy()) {
        let device = ODRDevice(
            capacity: capacity, otherData: other, policy: policy,
            settings: DeviceSettings(onSpaceExhausted: terminateApp ? .terminateApp : .failRequest))
        let catalogs: [(String, Catalog, LowDiskResponse, Bool)] = [
            // Shared packs, an initial-install and a prefetch tag.
            (
                "game",
                try! makeCatalog(
                    [
                        (["L1"], 40 * MB), (["L1", "L2"], 60 * MB), (["L2"], 30 * MB), (["L3"], 80 * MB),
                        (["intro"], 20 * MB), (["extra"], 25 * MB), (["L3", "extra"], 10 * MB),
                    ],
                    settings: [
                        "intro": .init(category: .initialInstall), "extra": .init(category: .prefetch(order: 1)),
                    ]),
                .releaseUnused, true
            ),
            (
                "news",
                try! makeCatalog(
                    [(["a"], 50 * MB), (["b"], 50 * MB), (["a", "b"], 20 * MB), (["c"], 100 * MB)],
                    settings: ["c": .init(category: .prefetch(order: 1), preservation: 0.5)]),
                .releaseAll, true
            ),
            // Wi-Fi only, with a zero-byte pack.
            ("tool", try! makeCatalog([(["x"], 120 * MB), (["y"], 5 * MB), (["z"], 0)]), .ignore, false),
        ]
        self.device = device
        apps = catalogs.map { name, catalog, response, cellular in
            device.addApp(name: name, catalog: catalog, allowsCellular: cellular, lowDiskResponse: response)
        }
        // Every app starts installing (the game's initial-install pack must still arrive);
        // install and uninstall remain operations of the sequence.
        for app in apps { device.install(app, at: 0) }
        replay(pending: [], outcome: nil)
    }

    func tags(of app: AppID) -> Int { device.catalog(of: app).tags.count }

    func packs(of app: AppID, _ tags: [TagID]) -> [PackID] {
        var result: [PackID] = []
        for t in tags {
            for p in device.catalog(of: app).tag(t).packs where !result.contains(device.pack(Int(p), of: app)) {
                result.append(device.pack(Int(p), of: app))
            }
        }
        return result
    }

    func apply(_ step: PropertyTests.Step) {
        time += 1
        let app = apps[step.a % apps.count]
        let pick = { (list: [RequestID]) in list.isEmpty ? nil : list[step.b % list.count] }
        var pending: [PackID] = []
        var outcome: RequestOutcome?
        device.removeAllEvents()
        switch Self.opNames[step.code] {
        case "begin", "beginPair", "conditional":
            let n = tags(of: app)
            var tagList = [TagID(rawValue: Int32(step.b % n))]
            if Self.opNames[step.code] == "beginPair" { tagList.append(TagID(rawValue: Int32((step.b / 7) % n))) }
            if device.isInstalled(app) { pending = packs(of: app, tagList) }
            if Self.opNames[step.code] == "conditional" {
                let id = device.conditionallyBeginAccessing(app, tags: tagList, at: time)
                outcome = id.map { .granted($0) }
            } else {
                let priority = step.b % 5 == 0 ? LoadingPriority.urgent : LoadingPriority(Double(step.b % 11) / 10)!
                outcome = device.beginAccessing(
                    app, tags: tagList, priority: priority, optional: step.a % 2 == 0, at: time)
            }
        case "end":
            if let id = pick(issued) { device.endAccessing(id, at: time) }
        case "cancel":
            if let id = pick(issued) { device.cancel(id, at: time) }
        case "pause":
            if let id = pick(issued) { device.pause(id, at: time) }
        case "resume":
            if let id = pick(issued) { device.resume(id, at: time) }
        case "priority":
            if let id = pick(issued) {
                device.setLoadingPriority(LoadingPriority(Double(step.a % 11) / 10)!, for: id, at: time)
            }
        case "receive":
            let runnable = device.downloads().filter(\.isRunnable)
            if !runnable.isEmpty {
                let d = runnable[step.b % runnable.count]
                // A tenth to all of what remains, sometimes the exact rest.
                let bytes = step.a % 3 == 0 ? d.remaining : d.remaining * Int64(step.a % 10 + 1) / 10
                device.receive(bytes, for: d.pack, at: time)
            }
        case "deliverAll":
            device.deliverAll(at: time)
        case "otherGrow":
            device.changeOtherData(by: Int64(step.b % 200) * MB, at: time)
        case "otherShrink":
            device.changeOtherData(by: -Int64(step.b % 200) * MB, at: time)
        case "link":
            device.setLink([.wifi, .wifi, .cellular, .offline][step.b % 4], at: time)
        case "install":
            device.install(app, at: time)
        case "launch":
            device.launch(app, at: time)
        case "terminate":
            device.terminate(app, at: time)
        case "uninstall":
            device.uninstall(app, at: time)
        case "preservation":
            if device.isInstalled(app) {
                device.setPreservationPriority(
                    Double(step.b % 5) / 4, for: [TagID(rawValue: Int32(step.b % tags(of: app)))], of: app, at: time)
            }
        default:
            Issue.record("unknown op \(step.code)")
        }
        replay(pending: pending, outcome: outcome)
    }

    /// Replays the step's events against the model; `pending` are the packs of a request
    /// begun in this step, which the device must protect while it makes room for them.
    func replay(pending: [PackID], outcome: RequestOutcome?) {
        problems = []
        for event in device.events {
            switch event.kind {
            case .requestMade: madeByEvents += 1
            case .downloadStarted(let p, _, _, let bytes, _):
                if openDownloads[p] != nil { problems.append("\(p) started while downloading") }
                openDownloads[p] = bytes
            case .downloadFinished(let p, _, let bytes):
                guard let toFetch = openDownloads.removeValue(forKey: p) else {
                    problems.append("\(p) finished unstarted")
                    continue
                }
                if bytes != toFetch { problems.append("\(p) fetched \(bytes), its start said \(toFetch)") }
                fetchedByEvents += bytes
                stalled.remove(p)
            case .downloadAbandoned(let p, _, let bytes, _):
                if openDownloads.removeValue(forKey: p) == nil { problems.append("\(p) abandoned unstarted") }
                fetchedByEvents += bytes
                stalled.remove(p)
            case .downloadStalled(let p, _, _):
                if !stalled.insert(p).inserted { problems.append("\(p) stalled twice") }
            case .downloadContinued(let p, _):
                if stalled.remove(p) == nil { problems.append("\(p) continued without a stall") }
            case .requestGranted(let id, _, _, _):
                if let entry = live[id] {
                    if entry.granted { problems.append("\(id) granted twice") }
                    live[id] = (entry.packs, true)
                    for p in entry.packs { retain[p, default: 0] += 1 }
                } else {
                    // A request granted in the step that began it.
                    live[id] = (pending, true)
                    issued.append(id)
                    for p in pending { retain[p, default: 0] += 1 }
                }
            case .requestEnded(let id, _, _):
                guard let entry = live.removeValue(forKey: id), entry.granted else {
                    problems.append("\(id) ended but was not granted")
                    continue
                }
                for p in entry.packs { retain[p, default: 0] -= 1 }
            case .requestCancelled(let id, _):
                guard let entry = live.removeValue(forKey: id), !entry.granted else {
                    problems.append("\(id) cancelled but was not waiting")
                    continue
                }
            case .packPurged(let p, _, _, _):
                if retain[p, default: 0] != 0 { problems.append("\(p) purged while in use (retain \(retain[p]!))") }
                if live.values.contains(where: { !$0.granted && $0.packs.contains(p) }) {
                    problems.append("\(p) purged while awaited")
                }
                if pending.contains(p) { problems.append("\(p) purged by the request that needs it") }
            default:
                break
            }
        }
        if case .waiting(let id) = outcome, live[id] == nil {
            live[id] = (pending, false)
            issued.append(id)
        }
        if case .granted(let id) = outcome, live[id] == nil {
            problems.append("\(id) granted without an event")
        }
    }

    /// The invariants after a step, as a list of violations.
    func check() -> [String] {
        var found = problems
        let d = device
        // The device's own invariants (its state against the totals it keeps).
        found += d.checkInvariants()
        let ledger = d.ledger
        if d.odrBytes != ledger.downloadedBytes - ledger.purgedBytes - ledger.removedBytes {
            found.append(
                """
                odrBytes \(d.odrBytes) ≠ downloaded \(ledger.downloadedBytes) − purged \(ledger.purgedBytes) − \
                removed \(ledger.removedBytes)
                """
            )
        }
        // The books balance: each request made is granted, failed, cancelled, a conditional
        // miss, or still waiting; and the model's waiting requests are the device's.
        let waiting = d.waitingRequests
        let outcomes =
            ledger.grants + ledger.failedRequests + ledger.cancelled + ledger.conditionalMisses + Int64(waiting)
        if ledger.requests != outcomes {
            found.append(
                """
                requests \(ledger.requests) ≠ granted \(ledger.grants) + failed \(ledger.failedRequests) + cancelled \
                \(ledger.cancelled) + conditional misses \(ledger.conditionalMisses) + waiting \(waiting)
                """
            )
        }
        // The events account for every request and every byte fetched.
        if madeByEvents != ledger.requests {
            found.append("\(madeByEvents) requestMade events, \(ledger.requests) requests")
        }
        var fetched = fetchedByEvents
        for (p, toFetch) in openDownloads {
            guard let received = d.bytesReceived(by: p) else {
                found.append("\(p) open in the events, not downloading")
                continue
            }
            fetched += received - (d.size(of: p) - toFetch)
        }
        if fetched != ledger.downloadedBytes {
            found.append("events fetched \(fetched) bytes, ledger \(ledger.downloadedBytes)")
        }
        // A download is reported stalled exactly when it cannot run, or an urgent one runs and it is not urgent.
        let downloads = d.downloads()
        let urgentRuns = downloads.contains { $0.isRunnable && $0.priority.isUrgent }
        for download in downloads {
            let expected = !download.isRunnable || (urgentRuns && !download.priority.isUrgent)
            if expected != stalled.contains(download.pack) {
                found.append("\(download.pack) stalled \(stalled.contains(download.pack)), expected \(expected)")
            }
        }
        if waiting != live.values.filter({ !$0.granted }).count {
            found.append(
                "device has \(waiting) waiting requests, the model \(live.values.filter { !$0.granted }.count)")
        }
        for i in 0..<d.packCount {
            let p = PackID(rawValue: Int32(i))
            let count = d.retainCount(of: p)
            if count != retain[p, default: 0] { found.append("\(p) retain \(count), model \(retain[p, default: 0])") }
            let state = d.state(of: p)
            if (count > 0) != (state == .inUse(retainCount: count)) {
                found.append("\(p) retain \(count) in state \(state)")
            }
            if count > 0 && d.isPurgeable(p) { found.append("\(p) in use and purgeable") }
        }
        for app in apps {
            let held = (0..<d.catalog(of: app).packs.count).map { d.pack($0, of: app) }.filter {
                d.retainCount(of: $0) > 0
            }
            let bytes = held.reduce(0) { $0 + d.size(of: $1) }
            if bytes != d.inUseBytes(of: app) {
                found.append("\(app) holds \(bytes), inUseBytes \(d.inUseBytes(of: app))")
            }
        }
        if ledger.peakUsedBytes > d.capacity { found.append("peak \(ledger.peakUsedBytes) over capacity") }
        for id in live.keys where !d.isLive(id) { found.append("\(id) live in the model, not on the device") }
        for id in issued where d.isLive(id) && live[id] == nil {
            found.append("\(id) live on the device, not in the model")
        }
        for (id, entry) in live where entry.granted != d.isGranted(id) { found.append("\(id) granted mismatch") }
        // A request never waits for packs that are all on the device.
        for (id, entry) in live where !entry.granted {
            let present = entry.packs.allSatisfy { p in
                switch d.state(of: p) {
                case .downloaded, .inUse: true
                default: false
                }
            }
            if present { found.append("\(id) waits although all its packs are on the device") }
        }
        return found
    }
}
