import ODRCore
import ODRPolicies
import PropertyBased
import Testing

/// `ODRDevice.access(_:tag:at:)` takes a short cut for trace replay; it must be
/// indistinguishable from the long way: `beginAccessing`, delivering every missing byte,
/// `endAccessing`. Two devices, one per way, run the same random sequence under every
/// policy; their outcomes, ledgers, disk use, pack states and the exact notifications and
/// questions their policies received must agree at every step. A policy's admission
/// (``ODRCore/Admission``) is a trace replay's alone and differs from the long way by design
/// (a request keeps its pack): the log that wraps each policy here does not forward it.
@Suite("access(_:tag:at:) equals begin, deliver, end")
struct AccessEquivalenceTests {
    /// One step: an operation code and two arguments.
    struct Step: CustomStringConvertible, Sendable {
        let code: Int
        let a: Int
        let b: Int
        var description: String { "\(code)(\(a),\(b))" }
    }

    static let steps = zip(Gen.int(in: 0...11), Gen.int(in: 0...999), Gen.int(in: 0...999))
        .map { Step(code: $0.0, a: $0.1, b: $0.2) }

    @Test("Every policy sees the same device either way", arguments: PolicyRegistry.names)
    func equivalent(policy name: String) async {
        await propertyCheck(
            count: 60, input: Gen.int(in: 40...160), Gen.int(in: 0...60), Self.steps.array(of: 20...120)
        ) { capacity, other, steps in
            Self.compare(name, steps, capacity: Int64(capacity) * Self.MB, other: Int64(other) * Self.MB)
        }
    }

    /// The policies that ignore a release right after a use
    /// (``ODRCore/PurgePolicy/ignoresReleaseAfterUse``), which the log that wraps a policy
    /// does not pass on.
    static let ignoringRelease = PolicyRegistry.names.filter {
        PolicyRegistry.descriptor(named: $0)!.make(PolicyContext(future: FutureRequests(.init())))
            .ignoresReleaseAfterUse
    }

    @Test(
        "A policy that ignores a release right after a use, not told of it by the short cut, sees the same device",
        arguments: ignoringRelease)
    func equivalentUnheard(policy name: String) async {
        await propertyCheck(
            count: 60, input: Gen.int(in: 40...160), Gen.int(in: 0...60), Self.steps.array(of: 20...120)
        ) { capacity, other, steps in
            Self.compare(name, steps, capacity: Int64(capacity) * Self.MB, other: Int64(other) * Self.MB, logged: false)
        }
    }

    @Test("LRU and the policies that do nothing on a release say so; the others do not")
    func whoIgnoresRelease() {
        #expect(Self.ignoringRelease.contains("lru") && Self.ignoringRelease.contains("fifo"))
        // Apple's, best-fit's and largest-first's releases move the pack; SLRU evicts on its own.
        for name in ["apple", "best-fit", "largest-first"] { #expect(!Self.ignoringRelease.contains(name)) }
    }

    // The unit's own symbol, as the spec writes sizes (1 MB).
    // swift-format-ignore: AlwaysUseLowerCamelCase

    static let MB: Int64 = 1_000_000
    /// Two apps of single-pack tags, sizes 1–30 MB; the last tag of app 0 is larger than
    /// any disk here, so it fails for space.
    static let sizes: [[Int64]] = [
        [3, 7, 12, 1, 25, 9, 4, 18, 30, 6, 2, 400].map { $0 * MB },
        [5, 11, 8, 14, 2, 20, 3].map { $0 * MB },
    ]

    /// `logged`: the notifications each side's policy heard are compared too; otherwise the
    /// log passes on the policy's ``ODRCore/PurgePolicy/ignoresReleaseAfterUse``, so that the
    /// short cut leaves releases out, and the sides are compared by what their devices do.
    static func compare(_ name: String, _ steps: [Step], capacity: Int64, other: Int64, logged: Bool = true) {
        // Belady needs the request stream: only access steps are requests.
        var builder = FutureRequests.Builder()
        let probe = Layout()
        for step in steps where step.code <= 5 {
            let (app, tag) = probe.target(step)
            builder.append(PackID(rawValue: probe.firstPack[app] + Int32(tag)))
        }
        let context = PolicyContext(
            seed: 7, future: FutureRequests(builder), options: PolicyOptions(values: ["default_quota": Double(20 * MB)])
        )
        let descriptor = PolicyRegistry.descriptor(named: name)!
        let short = Side(descriptor.make(context), capacity: capacity, other: other, logged: logged)
        let long = Side(descriptor.make(context), capacity: capacity, other: other, logged: logged)

        for (i, step) in steps.enumerated() {
            let time = Double(i + 1)
            let a = short.apply(step, at: time, shortCut: true)
            let b = long.apply(step, at: time, shortCut: false)
            var problems: [String] = []
            if a != b { problems.append("outcome \(String(describing: a)) vs \(String(describing: b))") }
            if short.device.ledger != long.device.ledger {
                problems.append("ledger \(short.device.ledger) vs \(long.device.ledger)")
            }
            if short.device.usedBytes != long.device.usedBytes {
                problems.append("used \(short.device.usedBytes) vs \(long.device.usedBytes)")
            }
            if logged && short.log.entries != long.log.entries {
                let k =
                    zip(short.log.entries, long.log.entries).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(short.log.entries.count, long.log.entries.count)
                problems.append(
                    "policy heard \(short.log.entries.dropFirst(k).first ?? "nothing") vs "
                        + "\(long.log.entries.dropFirst(k).first ?? "nothing")"
                )
            }
            for p in 0..<short.device.packCount {
                let pack = PackID(rawValue: Int32(p))
                if short.device.state(of: pack) != long.device.state(of: pack) {
                    problems.append("\(pack): \(short.device.state(of: pack)) vs \(long.device.state(of: pack))")
                }
            }
            if !problems.isEmpty {
                Issue.record("\(name), step \(i) \(step): \(problems.joined(separator: "; "))")
                return
            }
        }
    }

    /// Where each app's packs start and which tag a step names.
    struct Layout {
        let firstPack: [Int32] = [0, Int32(AccessEquivalenceTests.sizes[0].count)]
        func target(_ step: Step) -> (app: Int, tag: Int) {
            let app = step.a % 2
            return (app, step.b % AccessEquivalenceTests.sizes[app].count)
        }
    }

    /// One device, its apps, and a log of what its policy heard.
    final class Side {
        let device: ODRDevice
        let log: Log
        var apps: [AppID] = []

        init(_ policy: any PurgePolicy, capacity: Int64, other: Int64, logged: Bool) {
            log = Log(policy, passesReleaseFlag: !logged)
            device = ODRDevice(capacity: capacity, otherData: other, policy: log)
            device.recordsEvents = false
            for (a, list) in AccessEquivalenceTests.sizes.enumerated() {
                let catalog = try! Catalog(singleResourceTags: list.enumerated().map { ("t\($0.offset)", $0.element) })
                let app = device.addApp(name: "app\(a)", catalog: catalog)
                device.install(app, at: 0)
                apps.append(app)
            }
        }

        /// Applies the step; returns the access outcome for access steps, else nil.
        func apply(_ step: Step, at time: Double, shortCut: Bool) -> AccessOutcome? {
            let (app, tag) = Layout().target(step)
            switch step.code {
            case 0...5:
                let tagID = TagID(rawValue: Int32(tag))
                return shortCut ? device.access(apps[app], tag: tagID, at: time) : longWay(apps[app], tagID, at: time)
            case 6: device.changeOtherData(by: Int64(step.b % 40) * AccessEquivalenceTests.MB, at: time)
            case 7: device.changeOtherData(by: -Int64(step.b % 40) * AccessEquivalenceTests.MB, at: time)
            case 8: device.launch(apps[app], at: time)
            case 9: device.terminate(apps[app], at: time)
            case 10:
                device.setPreservationPriority(
                    Double(step.a % 5) / 4, for: [TagID(rawValue: Int32(tag))], of: apps[app], at: time)
            default: device.setLink(step.b % 3 == 0 ? .offline : .wifi, at: time)
            }
            return nil
        }

        private func longWay(_ app: AppID, _ tag: TagID, at time: Double) -> AccessOutcome {
            switch device.beginAccessing(app, tags: [tag], at: time) {
            case .granted(let request):
                device.endAccessing(request, at: time)
                return .hit
            case .waiting(let request):
                for download in device.downloads() {
                    device.receive(download.size - download.received, for: download.pack, at: time)
                }
                device.endAccessing(request, at: time)
                return .miss
            case .failed(let error):
                return .failed(error)
            }
        }
    }

    /// Forwards to a policy, writing down every notification (with what a policy may read
    /// of the pack at that moment) and every purge question and answer.
    final class Log: PurgePolicy {
        let inner: any PurgePolicy
        var entries: [String] = []
        var name: String { inner.name }

        /// Whether it says what the policy says of a release right after a use (else false).
        let passesReleaseFlag: Bool
        var ignoresReleaseAfterUse: Bool { passesReleaseFlag && inner.ignoresReleaseAfterUse }

        init(_ inner: any PurgePolicy, passesReleaseFlag: Bool = false) {
            self.inner = inner
            self.passesReleaseFlag = passesReleaseFlag
        }
        /// It writes every field of the candidates it hears of, the history included.
        var readsPackHistory: Bool { true }

        private func note(_ what: String, _ c: PurgeCandidate) {
            entries.append(
                """
                \(what) \(c.pack) app \(c.app) size \(c.size) use \(c.lastUse)/\(c.lastUseTick) stored \
                \(c.storedTick) pres \(c.preservation) running \(c.appIsRunning) requests \
                \(c.requestCount)@\(c.lastRequestOrdinal) purged \(c.purgeCount)
                """
            )
        }

        func packStored(_ pack: PurgeCandidate) {
            note("stored", pack)
            inner.packStored(pack)
        }
        func packRequested(_ pack: PurgeCandidate) {
            note("requested", pack)
            inner.packRequested(pack)
        }
        func packReleased(_ pack: PurgeCandidate) {
            note("released", pack)
            inner.packReleased(pack)
        }
        func packRemoved(_ pack: PurgeCandidate) {
            note("removed", pack)
            inner.packRemoved(pack)
        }
        func packPreservationChanged(_ pack: PurgeCandidate) {
            note("preservation", pack)
            inner.packPreservationChanged(pack)
        }

        func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
            let victims = inner.selectVictims(toFree: bytes, from: view)
            entries.append(
                "select \(bytes) \(view.scope) of \(view.candidateBytes) at \(view.requestOrdinal): \(victims)")
            return victims
        }
    }
}
