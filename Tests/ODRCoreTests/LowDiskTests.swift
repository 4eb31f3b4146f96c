import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §4: when purging cannot free enough, apps get a low-disk warning and react;
/// if space still cannot be found, the request fails (or the app is terminated).
@Suite("Low-disk warnings")
struct LowDiskTests {
    /// A 1000 MB disk and one app with tags a (400 MB), b (300 MB), c (500 MB) that holds
    /// `a` through an optional request and `b` through a required one: 700 MB used.
    static func holding(
        _ response: LowDiskResponse, settings: DeviceSettings = DeviceSettings()
    ) throws -> (ODRDevice, AppID, optional: RequestID, required: RequestID) {
        let device = ODRDevice(capacity: 1000 * MB, policy: ApplePolicy(), settings: settings)
        let app = device.installedApp(
            "game", try makeCatalog([(["a"], 400 * MB), (["b"], 300 * MB), (["c"], 500 * MB)]),
            running: true, lowDisk: response)
        let optional = try #require(device.use(app, ["a"], optional: true, at: 1))
        let required = try #require(device.use(app, ["b"], at: 2))
        device.removeAllEvents()
        return (device, app, optional, required)
    }

    @Test("outOfSpace after the warning when the app ignores it; nothing is purged")
    func ignore() throws {
        let (device, app, optional, required) = try Self.holding(.ignore)
        // c needs 500 MB, 300 free: 200 MB short with nothing purgeable.
        #expect(device.beginAccessing(app, tags: [device.tag("c", of: app)], at: 3) == .failed(.outOfSpace))
        #expect(device.ledger.lowDiskWarnings == 1)
        #expect(device.ledger.failures(.outOfSpace) == 1)
        #expect(device.isGranted(optional) && device.isGranted(required))
        #expect(device.ledger.purges == 0)
        #expect(
            device.eventKinds == [
                .requestMade(app, conditional: false), .lowDiskWarning(needed: 200 * MB),
                .requestFailed(nil, app, .outOfSpace),
            ])
        #expect(device.isRunning(app))
    }

    @Test("releaseUnused ends the optional requests, and the retry succeeds")
    func releaseUnused() throws {
        let (device, app, optional, required) = try Self.holding(.releaseUnused)
        // 200 MB short → warning → the optional request on a ends → a (400 MB) is purgeable
        // → the retry purges a: 200 MB over-purged.
        // After: b 300 MB + c's reservation 500 MB = 800 MB used.
        let outcome = device.beginAccessing(app, tags: [device.tag("c", of: app)], at: 3)
        guard case .waiting = outcome else {
            Issue.record("expected c to download, got \(outcome)")
            return
        }
        #expect(device.ledger.lowDiskWarnings == 1)
        #expect(!device.isLive(optional))
        #expect(device.isGranted(required))
        #expect(device.eventKinds.contains(.requestEnded(optional, app, .lowDisk)))
        #expect(device.purgedPacks == [device.pack("a", of: app)])
        #expect(device.ledger.overPurgeBytes == 200 * MB)
        #expect(device.usedBytes == 800 * MB)
        // Order: warning, release, purge.
        let warning = device.eventKinds.firstIndex(of: .lowDiskWarning(needed: 200 * MB))
        let ended = device.eventKinds.firstIndex(of: .requestEnded(optional, app, .lowDisk))
        let purged = device.eventKinds.firstIndex(
            of: .packPurged(device.pack("a", of: app), app, bytes: 400 * MB, episode: 1))
        #expect(warning != nil && ended != nil && purged != nil)
        if let warning, let ended, let purged { #expect(warning < ended && ended < purged) }
    }

    @Test("releaseAll ends every granted request")
    func releaseAll() throws {
        let (device, app, optional, required) = try Self.holding(.releaseAll)
        // Both end (a first, so a is the least recently used); 200 MB short → a (400 MB) goes.
        let outcome = device.beginAccessing(app, tags: [device.tag("c", of: app)], at: 3)
        guard case .waiting = outcome else {
            Issue.record("expected c to download, got \(outcome)")
            return
        }
        #expect(!device.isLive(optional) && !device.isLive(required))
        #expect(
            device.eventKinds.filter { if case .requestEnded(_, _, .lowDisk) = $0 { true } else { false } }.count == 2)
        #expect(device.purgedPacks == [device.pack("a", of: app)])
        #expect(device.state(of: device.pack("b", of: app)) == .downloaded)
        #expect(device.inUseBytes(of: app) == 0)
    }

    @Test("A release that still leaves too little space fails the request without purging")
    func releaseNotEnough() throws {
        let (device, app, optional, required) = try Self.holding(.releaseUnused)
        // 250 MB more other data: 950 MB used, 50 MB free.
        device.changeOtherData(by: 250 * MB, at: 2.5)
        #expect(device.freeBytes == 50 * MB)
        // c needs 500 MB: 450 short. The warning releases a (400 MB), still 50 short:
        // the request fails and a is not purged for nothing.
        #expect(device.beginAccessing(app, tags: [device.tag("c", of: app)], at: 3) == .failed(.outOfSpace))
        // The optional request was released by the warning, but a was not purged.
        #expect(!device.isLive(optional) && device.isGranted(required))
        #expect(device.state(of: device.pack("a", of: app)) == .downloaded)
        #expect(device.ledger.purges == 0)
    }

    @Test("Another app's demand warns every app, and their releases serve it")
    func warningReachesOtherApps() throws {
        // 1000 MB disk. News (release-all) holds n (600 MB); Game (ignore) wants g (500 MB).
        let device = ODRDevice(capacity: 1000 * MB, policy: ApplePolicy())
        let news = device.installedApp("news", try makeCatalog([(["n"], 600 * MB)]), lowDisk: .releaseAll)
        let game = device.installedApp("game", try makeCatalog([(["g"], 500 * MB)]), running: true)
        let held = try #require(device.use(news, ["n"], at: 1))
        // 400 free, 100 short, nothing purgeable → warning → News ends its request → n purged.
        let outcome = device.beginAccessing(game, tags: [device.tag("g", of: game)], at: 2)
        guard case .waiting = outcome else {
            Issue.record("expected g to download, got \(outcome)")
            return
        }
        #expect(!device.isLive(held))
        #expect(device.state(of: device.pack("n", of: news)) == .purged)
        #expect(device.ledger.overPurgeBytes == 500 * MB)
        #expect(device.ledger.lowDiskWarnings == 1)
    }

    @Test("With terminate-app, the app that cannot get space is terminated and its request fails")
    func terminateApp() throws {
        let (device, app, optional, required) = try Self.holding(
            .ignore, settings: DeviceSettings(onSpaceExhausted: .terminateApp))
        #expect(device.beginAccessing(app, tags: [device.tag("c", of: app)], at: 3) == .failed(.outOfSpace))
        #expect(device.ledger.appTerminations == 1)
        #expect(device.ledger.failures(.outOfSpace) == 1)
        #expect(!device.isRunning(app))
        #expect(device.eventKinds.contains(.appTerminated(app, .outOfSpace)))
        // Its requests ended with it; the packs stay, now released, and nothing was purged.
        #expect(!device.isLive(optional) && !device.isLive(required))
        #expect(device.eventKinds.contains(.requestEnded(required, app, .appGone)))
        #expect(device.inUseBytes(of: app) == 0)
        #expect(device.ledger.purges == 0)
        #expect(device.isPurgeable(device.pack("a", of: app)) && device.isPurgeable(device.pack("b", of: app)))
        // Still installed; it can be launched again.
        #expect(device.isInstalled(app))
        #expect(device.launch(app, at: 4))
    }
}
