import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §6: purge policies are pluggable, and the device checks every answer. A wrong
/// answer stops the program (a silently corrected policy would spoil every comparison).

/// Answers with a fixed pack whatever the view holds.
final class FixedPolicy: PurgePolicy {
    let name: String
    let answer: [PackID]
    init(name: String, answer: [PackID]) {
        self.name = name
        self.answer = answer
    }
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] { answer }
}

/// Answers with the first candidate only, however many bytes are needed.
final class StingyPolicy: PurgePolicy {
    let name = "stingy"
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        view.candidates.prefix(1).map(\.pack)
    }
}

/// Records what the device tells a policy, and answers like the apple policy.
final class RecordingPolicy: PurgePolicy {
    let name = "recording"
    var log: [String] = []
    var views: [(scope: PurgeScope, bytes: Int64, candidates: [PackID], candidateBytes: Int64, heldIsCandidate: Bool)] =
        []
    private let inner = ApplePolicy()
    // Notifications are forwarded: the incremental apple policy keeps its index from them.
    func packStored(_ pack: PurgeCandidate) {
        log.append("stored \(pack.pack.rawValue)")
        inner.packStored(pack)
    }
    func packRequested(_ pack: PurgeCandidate) {
        log.append("requested \(pack.pack.rawValue)")
        inner.packRequested(pack)
    }
    func packReleased(_ pack: PurgeCandidate) {
        log.append("released \(pack.pack.rawValue)")
        inner.packReleased(pack)
    }
    func packRemoved(_ pack: PurgeCandidate) {
        log.append("removed \(pack.pack.rawValue)")
        inner.packRemoved(pack)
    }
    func packPreservationChanged(_ pack: PurgeCandidate) { inner.packPreservationChanged(pack) }
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        views.append(
            (view.scope, bytes, view.candidates.map(\.pack), view.candidateBytes, view.isCandidate(PackID(rawValue: 0)))
        )
        return inner.selectVictims(toFree: bytes, from: view)
    }
}

/// The apple policy's answers, from a policy that reads its packs' history (the device keeps it).
final class HistoryReadingPolicy: PurgePolicy {
    let name = "history-reading"
    private let inner = ApplePolicy()
    var readsPackHistory: Bool { true }
    func packStored(_ pack: PurgeCandidate) { inner.packStored(pack) }
    func packRequested(_ pack: PurgeCandidate) { inner.packRequested(pack) }
    func packReleased(_ pack: PurgeCandidate) { inner.packReleased(pack) }
    func packRemoved(_ pack: PurgeCandidate) { inner.packRemoved(pack) }
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        inner.selectVictims(toFree: bytes, from: view)
    }
}

/// Answers like LRU by asking the view for each pack's size, and records what it was told.
final class SizeAskingPolicy: PurgePolicy {
    let name = "size-asking"
    var answers: [Int64?] = []
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        answers = (0..<4).map { view.candidateSize(PackID(rawValue: $0)) }
        // Hints, even for packs the device does not have, change nothing.
        for p: Int32 in [-1, 0, 3, 4, 1 << 20] { view.prefetch(PackID(rawValue: p)) }
        return [PackID(rawValue: 1), PackID(rawValue: 2)]
    }
}

/// Eleven 10 MB packs `t0`…`t10` on a 100 MB disk; `t0`…`t9` used and released (the disk
/// is full), so asking for `t10` needs 10 MB.
func manyPacksScenario(policy: any PurgePolicy) -> (ODRDevice, AppID) {
    let names = (0...10).map { "t\($0)" }
    let catalog = try! makeCatalog(names.map { ([$0], 10 * MB) })
    let device = ODRDevice(capacity: 100 * MB, policy: policy)
    let app = device.installedApp("game", catalog)
    for (k, name) in names.prefix(10).enumerated() { device.useAndRelease(app, [name], at: Double(k + 1)) }
    return (device, app)
}

/// A 300 MB disk, 100 MB other data; app "game" with h (held), r1 and r2 (released), 50 MB
/// each, and x (150 MB) not downloaded: 250 MB used. Asking for x needs 100 MB more.
/// Packs: h = 0, r1 = 1, r2 = 2, x = 3.
func contractScenario(policy: any PurgePolicy) -> (ODRDevice, AppID) {
    let catalog = try! makeCatalog([(["h"], 50 * MB), (["r1"], 50 * MB), (["r2"], 50 * MB), (["x"], 150 * MB)])
    let device = ODRDevice(capacity: 300 * MB, otherData: 100 * MB, policy: policy)
    let app = device.installedApp("game", catalog)
    _ = device.use(app, ["h"], at: 1)
    device.useAndRelease(app, ["r1"], at: 2)
    device.useAndRelease(app, ["r2"], at: 3)
    return (device, app)
}

@Suite("Purge policy contract")
struct PolicyContractTests {
    @Test("A correct answer is accepted: the device asks for the shortfall among released packs")
    func correctAnswer() {
        let policy = RecordingPolicy()
        let (device, app) = contractScenario(policy: policy)
        _ = device.beginAccessing(app, tags: [device.tag("x", of: app)], at: 4)
        // 150 MB needed, 50 free: 100 MB to free from r1 and r2 (h is held), in one tier.
        #expect(policy.views.count == 1)
        #expect(policy.views.first?.scope == .tier(.appsNotRunning))
        #expect(policy.views.first?.bytes == 100 * MB)
        #expect(policy.views.first?.candidates == [PackID(rawValue: 1), PackID(rawValue: 2)])
        #expect(policy.views.first?.candidateBytes == 100 * MB)
        #expect(policy.views.first?.heldIsCandidate == false)
        #expect(device.purgedPacks == [PackID(rawValue: 1), PackID(rawValue: 2)])
        // Notifications: each pack stored once, released once, the purged ones removed.
        #expect(policy.log.filter { $0.hasPrefix("stored") } == ["stored 0", "stored 1", "stored 2"])
        #expect(policy.log.filter { $0.hasPrefix("released") } == ["released 1", "released 2"])
        #expect(policy.log.suffix(2) == ["removed 1", "removed 2"])
    }

    @Test("The candidate a policy sees: recency, request counts, admission order, running state")
    func candidateView() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: HistoryReadingPolicy())
        let app = device.installedApp("game", try makeCatalog([(["A"], 10 * MB), (["B"], 20 * MB)]), running: true)
        let a = device.pack("A", of: app)
        let b = device.pack("B", of: app)
        device.useAndRelease(app, ["A"], at: 1)  // request 1
        device.useAndRelease(app, ["B"], at: 2)  // request 2
        let again = device.conditionallyBeginAccessing(app, tags: [device.tag("A", of: app)], at: 3)  // request 3
        #expect(again != nil)
        let ca = device.candidate(a)
        let cb = device.candidate(b)
        // A: requested twice, last by request 3 at t = 3; B: once, by request 2, last used at t = 2.
        #expect(ca.requestCount == 2 && ca.lastRequestOrdinal == 3 && ca.lastUse == 3)
        #expect(cb.requestCount == 1 && cb.lastRequestOrdinal == 2 && cb.lastUse == 2)
        #expect(ca.lastUseTick > cb.lastUseTick)
        // A arrived first.
        #expect(ca.storedTick < cb.storedTick)
        #expect(ca.size == 10 * MB && cb.size == 20 * MB)
        #expect(ca.appIsRunning && ca.app == app && ca.category == .onDemand && ca.purgeCount == 0)
        #expect(device.requestOrdinal == 3)
    }

    @Test("A device keeps its packs' history only for a policy that reads it, from an app's strategy on for every pack")
    func historyOnlyWhenRead() throws {
        let catalog = try makeCatalog([(["A"], 10 * MB), (["B"], 20 * MB)])
        let plain = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        _ = plain.installedApp("game", catalog, running: true)
        plain.useAndRelease(AppID(rawValue: 0), ["A"], at: 1)
        #expect(!plain.state.keepsHistory && plain.state.history.isEmpty)
        // A second app whose own strategy reads it: every pack has its history from then on.
        let device = ODRDevice(
            capacity: 1 * GB, policy: ApplePolicy(), settings: DeviceSettings(profile: .backgroundAssets))
        let first = device.installedApp("game", catalog, running: true)
        #expect(!device.state.keepsHistory)
        let second = device.addApp(
            name: "maps", catalog: catalog, eviction: EvictionRules(strategy: HistoryReadingPolicy()))
        #expect(device.state.keepsHistory && device.state.history.count == 4)
        device.useAndRelease(first, ["B"], at: 5)
        #expect(device.candidate(device.pack("B", of: first)).lastUse == 5)
        #expect(device.candidate(device.pack("A", of: second)).lastRequestOrdinal == 0)
    }

    @Test("A policy choosing a held pack stops the program")
    func heldPackChosen() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (device, app) = contractScenario(policy: FixedPolicy(name: "held", answer: [PackID(rawValue: 0)]))
            _ = device.beginAccessing(app, tags: [device.tag("x", of: app)], at: 4)
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("purge policy 'held' chose pack#0, which is not a candidate"))
        }
    }

    @Test("A policy naming a pack twice stops the program")
    func duplicateChosen() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (device, app) = contractScenario(
                policy: FixedPolicy(name: "twice", answer: [PackID(rawValue: 1), PackID(rawValue: 1)]))
            _ = device.beginAccessing(app, tags: [device.tag("x", of: app)], at: 4)
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("purge policy 'twice' chose pack#1 twice"))
        }
    }

    @Test("A repeat at the end of a long answer stops the program, after the victims before it")
    func duplicateAmongMany() async {
        // The answer is checked as it is purged: the repeat is found when pack 0 comes again,
        // purged by then, nine victims on.
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let answer = (0..<9).map { PackID(rawValue: $0) } + [PackID(rawValue: 0)]
            let (device, app) = manyPacksScenario(policy: FixedPolicy(name: "many", answer: answer))
            _ = device.beginAccessing(app, tags: [device.tag("t10", of: app)], at: 20)
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("purge policy 'many' chose pack#0 twice"))
        }
    }

    @Test("Ten distinct victims are accepted, and all of them purged")
    func manyDistinctVictims() {
        // 10 MB needed; the answer frees 100 MB, more than asked: allowed (over-purge).
        let answer = (0..<10).map { PackID(rawValue: $0) }
        let (device, app) = manyPacksScenario(policy: FixedPolicy(name: "many", answer: answer))
        _ = device.beginAccessing(app, tags: [device.tag("t10", of: app)], at: 20)
        #expect(device.purgedPacks == answer)
        #expect(device.ledger.overPurgeBytes == 90 * MB)
    }

    @Test("The view tells a candidate's size, and nil for a pack that is not a candidate; its hints change nothing")
    func candidateSizes() {
        let policy = SizeAskingPolicy()
        let (device, app) = contractScenario(policy: policy)
        _ = device.beginAccessing(app, tags: [device.tag("x", of: app)], at: 4)
        // h is held, r1 and r2 released (50 MB each), x is not on the device.
        #expect(policy.answers == [nil, 50 * MB, 50 * MB, nil])
        #expect(device.purgedPacks == [PackID(rawValue: 1), PackID(rawValue: 2)])
        #expect(device.state(of: PackID(rawValue: 0)) == .inUse(retainCount: 1))
    }

    @Test("A policy freeing too few bytes while candidates remain stops the program")
    func tooFewBytes() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // 100 MB needed; the stingy policy offers r1 alone (50 MB) with r2 left.
            let (device, app) = contractScenario(policy: StingyPolicy())
            _ = device.beginAccessing(app, tags: [device.tag("x", of: app)], at: 4)
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("purge policy 'stingy' freed 50000000 of 100000000 bytes"))
        }
    }

    @Test("A policy naming a pack that is not on the device stops the program")
    func absentPackChosen() async {
        await #expect(processExitsWith: .failure) {
            let (device, app) = contractScenario(policy: FixedPolicy(name: "absent", answer: [PackID(rawValue: 3)]))
            _ = device.beginAccessing(app, tags: [device.tag("x", of: app)], at: 4)
        }
    }

    @Test("The stingy policy is fine when its one pack is enough")
    func stingyEnough() {
        // Asking for 50 MB more other data: 50 free, nothing to purge. Then 50 MB more:
        // 50 MB short, r1 alone frees it.
        let (device, _) = contractScenario(policy: StingyPolicy())
        device.changeOtherData(by: 50 * MB, at: 4)
        device.changeOtherData(by: 50 * MB, at: 5)
        #expect(device.purgedPacks == [PackID(rawValue: 1)])
        #expect(device.ledger.refusedOtherBytes == 0)
    }
}
