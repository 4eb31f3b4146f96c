import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §2, errors an app can get. Out of space and the in-use limit have their own suites.
@Suite("Request errors")
struct RequestErrorTests {
    static func catalog() throws -> Catalog {
        try makeCatalog([(["A"], 100 * MB), (["B"], 50 * MB)])
    }

    @Test("An unknown tag fails with invalidTag and holds nothing")
    func invalidTag() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        // The catalog has tags 0 and 1; 2 and -1 are not tags of it.
        #expect(device.beginAccessing(app, tags: [TagID(rawValue: 2)], at: 1) == .failed(.invalidTag))
        // One bad tag spoils the request even with a good one beside it.
        #expect(
            device.beginAccessing(app, tags: [device.tag("A", of: app), TagID(rawValue: -1)], at: 1)
                == .failed(.invalidTag))
        #expect(device.ledger.failures(.invalidTag) == 2)
        #expect(device.ledger.downloadsStarted == 0)
        #expect(device.eventKinds.contains(.requestFailed(nil, app, .invalidTag)))
    }

    @Test("The one-tag entry point fails and succeeds exactly as the list form with that tag")
    func singleTagEntryPoint() throws {
        // Two devices fed the same calls, one through beginAccessing(_:tag:), one through
        // beginAccessing(_:tags:) with a one-element list: a multi-pack tag (B is in "B" and
        // "A+B"), an unknown tag on each side of the range, and an app not installed yet.
        let catalog = try makeCatalog([(["A"], 100 * MB), (["B"], 50 * MB), (["A", "B"], 20 * MB)])
        let one = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let list = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let (appOne, appList) = (
            one.addApp(name: "game", catalog: catalog), list.addApp(name: "game", catalog: catalog)
        )
        let tags = [one.tag("A", of: appOne), one.tag("B", of: appOne), TagID(rawValue: 2), TagID(rawValue: -1)]
        #expect(one.beginAccessing(appOne, tag: tags[0], at: 0) == .failed(.appNotInstalled))
        #expect(list.beginAccessing(appList, tags: [tags[0]], at: 0) == .failed(.appNotInstalled))
        one.install(appOne, at: 1)
        list.install(appList, at: 1)
        for (i, tag) in tags.enumerated() {
            let a = one.beginAccessing(appOne, tag: tag, at: Double(2 + i))
            let b = list.beginAccessing(appList, tags: [tag], at: Double(2 + i))
            #expect(a == b, "tag \(tag.rawValue)")
        }
        #expect(one.ledger == list.ledger)
        #expect(one.ledger.failures(.invalidTag) == 2)
        #expect(one.eventKinds == list.eventKinds)
        // Tag B waits for both of its packs.
        #expect(one.state(of: one.pack("A+B", of: appOne)) == list.state(of: list.pack("A+B", of: appList)))
        #expect(one.reservedBytes == 170 * MB)
    }

    @Test("An app that is not installed gets appNotInstalled, before install and after uninstall")
    func appNotInstalled() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: try Self.catalog())
        let tagA = device.tag("A", of: app)
        #expect(device.beginAccessing(app, tags: [tagA], at: 1) == .failed(.appNotInstalled))
        device.install(app, at: 2)
        #expect(device.use(app, ["A"], at: 3) != nil)
        device.uninstall(app, at: 4)
        #expect(device.beginAccessing(app, tags: [tagA], at: 5) == .failed(.appNotInstalled))
        #expect(device.ledger.failures(.appNotInstalled) == 2)
    }

    @Test("Offline: a request needing a download fails with noNetwork; one fully on the device is granted")
    func noNetwork() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        device.useAndRelease(app, ["A"], at: 1)
        device.setLink(.offline, at: 2)
        #expect(device.beginAccessing(app, tags: [device.tag("B", of: app)], at: 3) == .failed(.noNetwork))
        #expect(device.ledger.failures(.noNetwork) == 1)
        #expect(device.state(of: device.pack("B", of: app)) == .notDownloaded)
        #expect(device.reservedBytes == 0)
        // A is on the device: nothing to download, so no network is needed.
        guard case .granted = device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 4) else {
            Issue.record("expected A to be granted offline")
            return
        }
    }

    @Test("On cellular, an app not allowed to use it fails with cellularNotAllowed; another app proceeds")
    func cellularNotAllowed() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let wifiOnly = device.installedApp("video", try Self.catalog(), allowsCellular: false)
        let any = device.installedApp("game", try Self.catalog())
        device.setLink(.cellular, at: 1)
        #expect(
            device.beginAccessing(wifiOnly, tags: [device.tag("A", of: wifiOnly)], at: 2)
                == .failed(.cellularNotAllowed))
        #expect(device.ledger.failures(.cellularNotAllowed) == 1)
        guard case .waiting = device.beginAccessing(any, tags: [device.tag("A", of: any)], at: 2) else {
            Issue.record("expected the cellular-enabled app to download")
            return
        }
        #expect(device.downloads().map(\.isRunnable) == [true])
        #expect(device.ledger.failedRequests == 1)
    }

    @Test("A failed request holds nothing and reserves nothing")
    func failedRequestHoldsNothing() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        device.setLink(.offline, at: 0)
        _ = device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 1)
        _ = device.beginAccessing(app, tags: [TagID(rawValue: 9)], at: 1)
        #expect(device.inUseBytes == 0)
        #expect(device.reservedBytes == 0)
        #expect(device.ledger.requests == 2)
        #expect(device.ledger.failedRequests == 2)
        #expect(device.ledger.grants == 0)
    }
}
