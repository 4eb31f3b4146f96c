import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §2: the retain-count model, the six states of a pack, and conditional requests.
@Suite("Request life cycle")
struct RequestLifecycleTests {
    /// Tag A: one 100 MB pack; tag B: one 50 MB pack.
    static func catalog() throws -> Catalog {
        try makeCatalog([(["A"], 100 * MB), (["B"], 50 * MB)])
    }

    @Test("Two requests on one tag retain its pack twice; it is purgeable only when both ended")
    func retainAndRelease() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let a = device.pack("A", of: app)
        let first = try #require(device.use(app, ["A"], at: 1))
        // The second request finds the pack on the device: granted at once, a hit.
        let second = device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 2)
        guard case .granted(let secondID) = second else {
            Issue.record("expected a hit, got \(second)")
            return
        }
        #expect(device.ledger.hits == 1)
        #expect(device.ledger.downloadsStarted == 1)
        #expect(device.retainCount(of: a) == 2)
        #expect(device.state(of: a) == .inUse(retainCount: 2))
        #expect(device.inUseBytes(of: app) == 100 * MB)

        #expect(device.endAccessing(first, at: 3))
        #expect(device.retainCount(of: a) == 1)
        #expect(device.state(of: a) == .inUse(retainCount: 1))
        #expect(!device.isPurgeable(a))
        #expect(device.inUseBytes(of: app) == 100 * MB)

        #expect(device.endAccessing(secondID, at: 4))
        #expect(device.retainCount(of: a) == 0)
        #expect(device.state(of: a) == .downloaded)
        #expect(device.isPurgeable(a))
        #expect(device.inUseBytes(of: app) == 0)
        // One request object serves one begin/end cycle: ending it again does nothing.
        #expect(!device.endAccessing(secondID, at: 5))
        #expect(device.retainCount(of: a) == 0)
    }

    @Test("A pack goes through all six states")
    func sixStates() throws {
        let device = ODRDevice(capacity: 1000 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let a = device.pack("A", of: app)
        #expect(device.state(of: a) == .notDownloaded)

        let request = try #require(device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 1).request)
        #expect(device.state(of: a) == .downloading(bytes: 0))
        device.receive(40 * MB, for: a, at: 2)
        #expect(device.state(of: a) == .downloading(bytes: 40 * MB))
        #expect(device.progress(of: request) == RequestProgress(completedBytes: 40 * MB, totalBytes: 100 * MB))
        #expect(device.progress(of: request)?.fractionCompleted == 0.4)

        // Connection lost part-way: 40 of 100 MB on the device.
        device.setLink(.offline, at: 3)
        #expect(device.state(of: a) == .partiallyDownloaded(bytes: 40 * MB))
        device.setLink(.wifi, at: 4)
        #expect(device.state(of: a) == .downloading(bytes: 40 * MB))
        device.receive(60 * MB, for: a, at: 5)
        #expect(device.state(of: a) == .inUse(retainCount: 1))
        #expect(device.isGranted(request))

        device.endAccessing(request, at: 6)
        #expect(device.state(of: a) == .downloaded)

        // Other data grows by 950 MB on a 1000 MB disk holding 100 MB of ODR content:
        // free 900 MB, 50 MB short → the only candidate, A, is purged.
        device.changeOtherData(by: 950 * MB, at: 7)
        #expect(device.state(of: a) == .purged)
        #expect(device.odrBytes == 0)
    }

    @Test("Conditional begin never downloads and grants only when everything is present")
    func conditional() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let tagA = device.tag("A", of: app)
        let tagB = device.tag("B", of: app)

        // Nothing on the device: no, and nothing starts.
        #expect(device.conditionallyBeginAccessing(app, tags: [tagA], at: 1) == nil)
        #expect(device.ledger.downloadsStarted == 0)
        #expect(device.downloads().isEmpty)
        #expect(device.reservedBytes == 0)
        #expect(device.eventKinds.contains(.conditionalMiss(app)))

        // While A downloads, it is not yet present: still no.
        let request = try #require(device.beginAccessing(app, tags: [tagA], at: 2).request)
        #expect(device.conditionallyBeginAccessing(app, tags: [tagA], at: 3) == nil)
        device.deliverAll(at: 4)
        device.endAccessing(request, at: 5)

        // A present, B missing: no for A+B, and B is not fetched.
        #expect(device.conditionallyBeginAccessing(app, tags: [tagA, tagB], at: 6) == nil)
        #expect(device.ledger.downloadsStarted == 1)
        #expect(device.state(of: device.pack("B", of: app)) == .notDownloaded)

        // A present: yes, granted as a hit with A retained.
        let granted = try #require(device.conditionallyBeginAccessing(app, tags: [tagA], at: 7))
        #expect(device.isGranted(granted))
        #expect(device.retainCount(of: device.pack("A", of: app)) == 1)
        #expect(device.ledger.downloadsStarted == 1)
        #expect(device.ledger.hits == 1)
        // Three misses and one grant among the five requests made.
        #expect(device.ledger.requests == 5)
        #expect(device.eventKinds.filter { $0 == .conditionalMiss(app) }.count == 3)
    }

    @Test("Conditional begin with an unknown tag or an absent app answers no")
    func conditionalErrors() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let absent = device.addApp(name: "absent", catalog: try Self.catalog())
        #expect(device.conditionallyBeginAccessing(app, tags: [TagID(rawValue: 7)], at: 1) == nil)
        #expect(device.conditionallyBeginAccessing(absent, tags: [TagID(rawValue: 0)], at: 1) == nil)
        #expect(device.ledger.failures(.invalidTag) == 1)
        #expect(device.ledger.failures(.appNotInstalled) == 1)
    }

    @Test("Ending a request still waiting for downloads cancels it")
    func endWhileWaiting() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let request = try #require(device.beginAccessing(app, tags: [device.tag("B", of: app)], at: 1).request)
        #expect(device.isLive(request) && !device.isGranted(request))
        #expect(device.endAccessing(request, at: 2))
        #expect(!device.isLive(request))
        #expect(device.eventKinds.contains(.requestCancelled(request, app)))
        // Nothing received: the pack is back to not downloaded, nothing reserved.
        #expect(device.state(of: device.pack("B", of: app)) == .notDownloaded)
        #expect(device.reservedBytes == 0)
        #expect(device.downloads().isEmpty)
    }

    @Test("A request waiting on two packs is granted when the last one arrives")
    func grantWaitsForEveryPack() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let request = try #require(
            device.beginAccessing(app, tags: [device.tag("A", of: app), device.tag("B", of: app)], at: 10).request)
        device.receive(100 * MB, for: device.pack("A", of: app), at: 12)
        #expect(!device.isGranted(request))
        // A arrived but is awaited by the request: not purgeable.
        #expect(!device.isPurgeable(device.pack("A", of: app)))
        device.receive(50 * MB, for: device.pack("B", of: app), at: 15)
        #expect(device.isGranted(request))
        // Waited from 10 to 15.
        #expect(device.eventKinds.contains(.requestGranted(request, app, waited: 5, hit: false)))
    }

    @Test("A pack of zero bytes is granted at once, alone or with others (regression)")
    func emptyPack() throws {
        // E holds only an empty resource: a 0-byte pack, nothing to fetch. Its first request
        // is a miss (a download starts and finishes at once) that is granted right away.
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["E"], 0), (["A"], 10 * MB)]))
        let empty = device.beginAccessing(app, tags: [device.tag("E", of: app)], at: 1)
        guard case .waiting(let id) = empty else {
            Issue.record("expected a miss, got \(empty)")
            return
        }
        #expect(device.isGranted(id))
        #expect(device.eventKinds.contains(.requestGranted(id, app, waited: 0, hit: false)))
        #expect(device.ledger.hits == 0)
        #expect(device.state(of: device.pack("E", of: app)) == .inUse(retainCount: 1))
        device.endAccessing(id, at: 2)
        // E is on the device now; with A (10 MB) the request waits for A only.
        let both = try #require(
            device.beginAccessing(app, tags: [device.tag("E", of: app), device.tag("A", of: app)], at: 3).request)
        device.receive(10 * MB, for: device.pack("A", of: app), at: 4)
        #expect(device.isGranted(both))
    }

    @Test("A finished request's ID stays finished when its slot serves a new request")
    func staleRequestID() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let old = try #require(device.use(app, ["A"], at: 1))
        device.endAccessing(old, at: 2)
        let new = try #require(device.use(app, ["A"], at: 3))
        #expect(old != new)
        #expect(!device.isLive(old) && device.isLive(new))
        // Ending the old ID again must not release the new request's hold.
        #expect(!device.endAccessing(old, at: 4))
        #expect(device.retainCount(of: device.pack("A", of: app)) == 1)
        #expect(device.progress(of: old) == nil)
    }

    @Test("Loading priority: the download runs at the highest priority of its waiters")
    func loadingPriority() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let low = try #require(LoadingPriority(0.2))
        let request = try #require(
            device.beginAccessing(app, tags: [device.tag("A", of: app)], priority: low, at: 1).request)
        #expect(device.downloads().first?.priority == low)
        let revision = device.downloadsRevision
        #expect(device.setLoadingPriority(.urgent, for: request, at: 2))
        #expect(device.downloads().first?.priority == .urgent)
        #expect(device.downloadsRevision != revision)
        #expect(LoadingPriority(1.5) == nil)
        #expect(LoadingPriority.normal.value == 0.5)
        #expect(LoadingPriority(1)! < .urgent)
    }
}
