import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §1, tag categories: initial-install content arrives with the app, prefetch
/// content right after it in order, on-demand content only when asked for.
@Suite("Install, launch and uninstall")
struct InstallTests {
    /// I: initial install (50 MB); P1, P2: prefetch in that order (30, 20 MB); D: on demand (10 MB).
    /// P2 is listed first so that pack order differs from prefetch order.
    static func catalog() throws -> Catalog {
        try makeCatalog(
            [(["P2"], 20 * MB), (["I"], 50 * MB), (["D"], 10 * MB), (["P1"], 30 * MB)],
            settings: [
                "I": .init(category: .initialInstall), "P1": .init(category: .prefetch(order: 1)),
                "P2": .init(category: .prefetch(order: 2)),
            ])
    }

    @Test("Initial-install packs download first, launch waits for them, prefetch packs follow one at a time in order")
    func installSequence() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: try Self.catalog())
        let i = device.pack("I", of: app)
        let p1 = device.pack("P1", of: app)
        let p2 = device.pack("P2", of: app)

        #expect(device.install(app, at: 0))
        // Only the initial-install pack runs; the app is not installed yet.
        #expect(device.downloads().map(\.pack) == [i])
        #expect(!device.isInstalled(app))
        #expect(!device.install(app, at: 0))
        // Launching now is remembered, not done: the app cannot run before I is on the device.
        #expect(device.launch(app, at: 1))
        #expect(!device.isRunning(app))
        // Requests before the install completes find no installed app.
        #expect(device.beginAccessing(app, tags: [device.tag("D", of: app)], at: 1) == .failed(.appNotInstalled))

        device.receive(50 * MB, for: i, at: 2)
        #expect(device.isInstalled(app))
        #expect(device.isRunning(app))
        let installed = device.eventKinds.firstIndex(of: .appInstalled(app))
        let launched = device.eventKinds.firstIndex(of: .appLaunched(app))
        #expect(installed != nil && launched != nil && installed! < launched!)
        // Prefetch: P1 alone first, then P2.
        #expect(device.downloads().map(\.pack) == [p1])
        device.receive(30 * MB, for: p1, at: 3)
        #expect(device.downloads().map(\.pack) == [p2])
        device.receive(20 * MB, for: p2, at: 4)
        #expect(device.downloads().isEmpty)
        // D, on demand, was never fetched. 50 + 30 + 20 MB downloaded.
        #expect(device.startedPacks == [i, p1, p2])
        #expect(device.state(of: device.pack("D", of: app)) == .notDownloaded)
        #expect(device.ledger.downloadedBytes == 100 * MB)
        #expect(device.odrBytes == 100 * MB)
        // Install content is on the device but held by no request.
        #expect(device.state(of: i) == .downloaded)
    }

    @Test("An app without initial-install content is installed at once")
    func installWithoutInitial() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.addApp(name: "tool", catalog: try makeCatalog([(["D"], 10 * MB)]))
        device.install(app, at: 0)
        #expect(device.isInstalled(app))
        #expect(device.downloads().isEmpty)
        #expect(device.launch(app, at: 1))
        #expect(device.isRunning(app))
        #expect(!device.launch(app, at: 2))
    }

    @Test("A request for a pack being prefetched waits for that download instead of starting another")
    func requestJoinsPrefetch() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: try Self.catalog())
        device.install(app, at: 0)
        device.receive(50 * MB, for: device.pack("I", of: app), at: 1)
        // P1 is being prefetched.
        let request = try #require(device.beginAccessing(app, tags: [device.tag("P1", of: app)], at: 2).request)
        #expect(device.ledger.downloadsStarted == 2)
        device.receive(30 * MB, for: device.pack("P1", of: app), at: 3)
        #expect(device.isGranted(request))
        #expect(device.downloads().map(\.pack) == [device.pack("P2", of: app)])
    }

    @Test("An install whose initial-install content cannot fit fails with outOfSpace")
    func installOutOfSpace() throws {
        // 40 MB disk, 50 MB of initial-install content.
        let device = ODRDevice(capacity: 40 * MB, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: try Self.catalog())
        #expect(device.install(app, at: 0))
        #expect(!device.isInstalled(app))
        #expect(device.eventKinds.contains(.installFailed(app, .outOfSpace)))
        // An install is not a request: it counts as an install failure only.
        #expect(device.ledger.installFailures == 1)
        #expect(device.ledger.failedRequests == 0)
        #expect(device.ledger.lowDiskWarnings == 1)
        #expect(device.downloads().isEmpty)
        #expect(device.usedBytes == 0)
    }

    @Test("A prefetch pack that does not fit is skipped, without a low-disk warning")
    func prefetchSkipped() throws {
        // 200 MB disk, 110 MB other data. I (50) + P1 (30) → 190 MB used, 10 MB free.
        // P2 (100 MB) is 90 MB short and only I + P1 = 80 MB are purgeable: skipped,
        // since a prefetch never posts a warning; nothing is purged for it.
        let catalog = try makeCatalog(
            [(["I"], 50 * MB), (["P1"], 30 * MB), (["P2"], 100 * MB)],
            settings: [
                "I": .init(category: .initialInstall), "P1": .init(category: .prefetch(order: 1)),
                "P2": .init(category: .prefetch(order: 2)),
            ])
        let device = ODRDevice(capacity: 200 * MB, otherData: 110 * MB, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: catalog)
        device.install(app, at: 0)
        device.deliverAll(at: 1)
        let p2 = device.pack("P2", of: app)
        #expect(device.eventKinds.contains(.prefetchSkipped(p2, app, .outOfSpace)))
        #expect(device.state(of: p2) == .notDownloaded)
        #expect(device.ledger.lowDiskWarnings == 0)
        #expect(device.ledger.purges == 0)
        #expect(device.usedBytes == 190 * MB)
    }

    @Test("A prefetch never purges its own app's initial-install packs; a request of the app may (issue 18)")
    func prefetchSparesOwnInitialInstall() throws {
        // 200 MB disk, 100 MB other data. I (50) installed → 150 MB used, 50 MB free. P1
        // (80 MB) is 30 MB short; only I is purgeable. Before, the prefetch purged I for P1.
        let catalog = try makeCatalog(
            [(["I"], 50 * MB), (["P1"], 80 * MB)],
            settings: ["I": .init(category: .initialInstall), "P1": .init(category: .prefetch(order: 1))])
        let device = ODRDevice(capacity: 200 * MB, otherData: 100 * MB, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: catalog)
        device.install(app, at: 0)
        device.deliverAll(at: 1)
        let (i, p1) = (device.pack("I", of: app), device.pack("P1", of: app))
        #expect(device.eventKinds.contains(.prefetchSkipped(p1, app, .outOfSpace)))
        #expect(device.state(of: i) == .downloaded)
        #expect(device.ledger.purges == 0)
        #expect(device.isPurgeable(i))
        // A request of the same app for P1 may purge I: it is a candidate again.
        let request = device.beginAccessing(app, tags: [device.tag("P1", of: app)], at: 2)
        #expect(request.request != nil)
        #expect(device.ledger.purges == 1)
        #expect(device.state(of: i) == .purged)
    }

    @Test("Uninstall removes every pack, partial downloads included, without counting purges")
    func uninstall() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: try Self.catalog())
        device.install(app, at: 0)
        device.deliverAll(at: 1)
        // 100 MB of install content; D is requested and 4 of its 10 MB arrive.
        let request = try #require(device.beginAccessing(app, tags: [device.tag("D", of: app)], at: 2).request)
        device.receive(4 * MB, for: device.pack("D", of: app), at: 3)
        #expect(device.odrBytes == 104 * MB)

        #expect(device.uninstall(app, at: 4))
        #expect(!device.isInstalled(app))
        #expect(!device.isLive(request))
        #expect(device.odrBytes == 0)
        #expect(device.reservedBytes == 0)
        #expect(device.usedBytes == 0)
        #expect(device.ledger.removedBytes == 104 * MB)
        #expect(device.ledger.purges == 0)
        #expect(device.eventKinds.contains(.appUninstalled(app, removedBytes: 104 * MB)))
        #expect(device.state(of: device.pack("D", of: app)) == .notDownloaded)
        #expect(
            device.odrBytes == device.ledger.downloadedBytes - device.ledger.purgedBytes - device.ledger.removedBytes)
        #expect(!device.uninstall(app, at: 5))
    }

    @Test("Uninstalling during a download leaves no phantom purgeable space behind (regression)")
    func uninstallMidDownloadThenDemand() throws {
        // 1000 MB disk, nothing else on it. x (500 MB) is requested and 200 MB arrive; the
        // app is uninstalled: its 200 MB are removed, the disk is empty again.
        let device = ODRDevice(capacity: 1000 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["x"], 500 * MB)]))
        _ = device.beginAccessing(app, tags: [device.tag("x", of: app)], at: 1)
        device.receive(200 * MB, for: device.pack("x", of: app), at: 2)
        device.uninstall(app, at: 3)
        #expect(device.usedBytes == 0)
        #expect(device.ledger.removedBytes == 200 * MB)
        device.removeAllEvents()
        // Other data grows by 1100 MB: 1000 MB free and nothing to purge, so 100 MB are
        // refused after a warning. (The removed partial download must not count as purgeable.)
        device.changeOtherData(by: 1100 * MB, at: 4)
        #expect(device.usedBytes == 1000 * MB)
        #expect(device.ledger.refusedOtherBytes == 100 * MB)
        #expect(device.ledger.lowDiskWarnings == 1)
        #expect(device.ledger.purgeEpisodes == 0)
        #expect(device.ledger.overPurgeBytes == 0)
    }

    @Test("Terminating an app ends its requests; its packs stay on the device")
    func terminate() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["A"], 10 * MB), (["B"], 10 * MB)]), running: true)
        let granted = try #require(device.use(app, ["A"], at: 1))
        let waiting = try #require(device.beginAccessing(app, tags: [device.tag("B", of: app)], at: 2).request)
        #expect(device.terminate(app, at: 3))
        #expect(!device.isRunning(app))
        #expect(!device.isLive(granted) && !device.isLive(waiting))
        #expect(device.eventKinds.contains(.appTerminated(app, .user)))
        #expect(device.eventKinds.contains(.requestEnded(granted, app, .appGone)))
        #expect(device.state(of: device.pack("A", of: app)) == .downloaded)
        #expect(device.ledger.appTerminations == 0)
    }
}
