import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §3 (pause, resume, cancel) and §6 (offline leaves packs partially downloaded).
@Suite("Pause, cancel and the link")
struct DownloadControlTests {
    static func catalog() throws -> Catalog {
        try makeCatalog([(["A"], 100 * MB), (["B"], 50 * MB)])
    }

    @Test("Cancel keeps the bytes received as a partially downloaded pack and releases the reservation")
    func cancelKeepsBytes() throws {
        // 1000 MB disk with 200 MB of other data.
        let device = ODRDevice(capacity: 1000 * MB, otherData: 200 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let a = device.pack("A", of: app)
        let request = try #require(device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 1).request)
        // The download reserves all 100 MB at start: 200 + 100 = 300 MB used.
        #expect(device.reservedBytes == 100 * MB)
        #expect(device.usedBytes == 300 * MB)
        device.receive(30 * MB, for: a, at: 2)
        #expect(device.usedBytes == 300 * MB)

        #expect(device.cancel(request, at: 3))
        #expect(!device.isLive(request))
        // 30 MB kept, the other 70 MB no longer reserved: 200 + 30 = 230 MB used.
        #expect(device.state(of: a) == .partiallyDownloaded(bytes: 30 * MB))
        #expect(device.odrBytes == 30 * MB)
        #expect(device.reservedBytes == 0)
        #expect(device.usedBytes == 230 * MB)
        #expect(device.downloads().isEmpty)
        #expect(device.eventKinds.contains(.requestCancelled(request, app)))
        #expect(device.eventKinds.contains(.downloadAbandoned(a, app, bytes: 30 * MB, keptBytes: 30 * MB)))
        // Cancelling twice does nothing.
        #expect(!device.cancel(request, at: 4))

        // A later request continues from the 30 MB kept: 70 MB to fetch, 70 MB reserved.
        device.removeAllEvents()
        let again = try #require(device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 5).request)
        #expect(device.eventKinds.contains(.downloadStarted(a, app, request: again, bytes: 70 * MB, redownload: false)))
        #expect(device.reservedBytes == 70 * MB)
        #expect(device.downloads().first?.received == 30 * MB)
        #expect(device.progress(of: again) == RequestProgress(completedBytes: 30 * MB, totalBytes: 100 * MB))
        device.receive(70 * MB, for: a, at: 6)
        #expect(device.isGranted(again))
        // Each byte fetched once: 30 + 70.
        #expect(device.ledger.downloadedBytes == 100 * MB)
        #expect(device.ledger.redownloadBytes == 0)
    }

    @Test("Cancel does not affect a granted request")
    func cancelGranted() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let request = try #require(device.use(app, ["A"], at: 1))
        #expect(!device.cancel(request, at: 2))
        #expect(device.isGranted(request))
    }

    @Test("Cancelling one of two requests sharing a download keeps it running for the other")
    func cancelShared() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let tagA = device.tag("A", of: app)
        let first = try #require(device.beginAccessing(app, tags: [tagA], at: 1).request)
        let second = try #require(device.beginAccessing(app, tags: [tagA], at: 1).request)
        #expect(device.ledger.downloadsStarted == 1)
        device.cancel(first, at: 2)
        #expect(device.downloads().map(\.isRunnable) == [true])
        #expect(device.reservedBytes == 100 * MB)
        device.deliverAll(at: 3)
        #expect(device.isGranted(second))
        #expect(device.retainCount(of: device.pack("A", of: app)) == 1)
    }

    @Test("Pause makes the download non-runnable; resume makes it runnable again")
    func pauseResume() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let a = device.pack("A", of: app)
        let request = try #require(device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 1).request)
        device.receive(25 * MB, for: a, at: 2)
        #expect(device.downloads()[0].isRunnable)

        #expect(device.pause(request, at: 3))
        #expect(device.downloads()[0].isRunnable == false)
        #expect(device.state(of: a) == .partiallyDownloaded(bytes: 25 * MB))
        // Paused, not cancelled: the reservation for the remaining 75 MB stays.
        #expect(device.reservedBytes == 75 * MB)
        #expect(device.eventKinds.contains(.requestPaused(request, app)))
        #expect(device.eventKinds.contains(.downloadStalled(a, app, .paused)))
        // Pausing a paused request does nothing.
        #expect(!device.pause(request, at: 4))

        #expect(device.resume(request, at: 5))
        #expect(device.downloads()[0].isRunnable)
        #expect(device.state(of: a) == .downloading(bytes: 25 * MB))
        #expect(device.eventKinds.contains(.requestResumed(request, app)))
        #expect(device.eventKinds.contains(.downloadContinued(a, app)))
        device.receive(75 * MB, for: a, at: 6)
        #expect(device.isGranted(request))
        // A granted request has nothing to pause.
        #expect(!device.pause(request, at: 7))
    }

    @Test("A download awaited by a paused and an unpaused request keeps running")
    func pauseShared() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let tagA = device.tag("A", of: app)
        let paused = try #require(device.beginAccessing(app, tags: [tagA], at: 1).request)
        let other = try #require(device.beginAccessing(app, tags: [tagA], at: 1).request)
        device.pause(paused, at: 2)
        #expect(device.downloads()[0].isRunnable)
        device.pause(other, at: 3)
        #expect(!device.downloads()[0].isRunnable)
        device.resume(paused, at: 4)
        #expect(device.downloads()[0].isRunnable)
    }

    @Test("Offline stalls downloads, with a downloadStalled event; back online they continue")
    func offlineStalls() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let a = device.pack("A", of: app)
        let b = device.pack("B", of: app)
        let request = try #require(
            device.beginAccessing(app, tags: [device.tag("A", of: app), device.tag("B", of: app)], at: 1).request)
        device.receive(10 * MB, for: a, at: 2)
        device.removeAllEvents()

        device.setLink(.offline, at: 3)
        #expect(device.downloads().map(\.isRunnable) == [false, false])
        #expect(device.eventKinds == [.downloadStalled(a, app, .offline), .downloadStalled(b, app, .offline)])
        #expect(device.state(of: a) == .partiallyDownloaded(bytes: 10 * MB))
        #expect(device.state(of: b) == .partiallyDownloaded(bytes: 0))
        // The request still waits; nothing is lost.
        #expect(device.isLive(request) && !device.isGranted(request))
        #expect(device.reservedBytes == 140 * MB)

        device.setLink(.wifi, at: 4)
        #expect(device.downloads().map(\.isRunnable) == [true, true])
        #expect(device.eventKinds.suffix(2) == [.downloadContinued(a, app), .downloadContinued(b, app)])
        device.deliverAll(at: 5)
        #expect(device.isGranted(request))
    }

    @Test("Switching to cellular stalls only the apps not allowed to use it")
    func cellularStalls() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let video = device.installedApp("video", try Self.catalog(), allowsCellular: false)
        let game = device.installedApp("game", try Self.catalog())
        _ = device.beginAccessing(video, tags: [device.tag("A", of: video)], at: 1)
        _ = device.beginAccessing(game, tags: [device.tag("A", of: game)], at: 1)
        device.setLink(.cellular, at: 2)
        #expect(device.downloads().map(\.isRunnable) == [false, true])
        #expect(device.eventKinds.contains(.downloadStalled(device.pack("A", of: video), video, .cellularNotAllowed)))
    }

    @Test("An urgent download suspends the others, with a stall event of its cause; they continue when it ends")
    func urgentSuspends() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        let a = device.pack("A", of: app)
        let b = device.pack("B", of: app)
        let normal = try #require(device.beginAccessing(app, tags: [device.tag("A", of: app)], at: 1).request)
        #expect(
            device.eventKinds.contains(.downloadStarted(a, app, request: normal, bytes: 100 * MB, redownload: false)))
        device.removeAllEvents()

        let urgent = try #require(
            device.beginAccessing(app, tags: [device.tag("B", of: app)], priority: .urgent, at: 2).request)
        #expect(device.eventKinds.contains(.downloadStalled(a, app, .suspendedByUrgent)))
        #expect(!device.eventKinds.contains { if case .downloadStalled(b, _, _) = $0 { true } else { false } })
        device.removeAllEvents()

        device.receive(50 * MB, for: b, at: 3)
        #expect(device.isGranted(urgent))
        #expect(device.eventKinds.contains(.downloadFinished(b, app, bytes: 50 * MB)))
        #expect(device.eventKinds.last == .downloadContinued(a, app))
        device.removeAllEvents()

        // Raising the waiting request to urgent is recorded; alone, it suspends nothing.
        #expect(device.setLoadingPriority(.urgent, for: normal, at: 4))
        #expect(device.eventKinds == [.priorityChanged(normal, app, .urgent)])
    }

    @Test("Setting a tag's preservation priority is an event of its own")
    func preservationEvent() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp("game", try Self.catalog())
        device.removeAllEvents()
        device.setPreservationPriority(0.75, for: [device.tag("B", of: app)], of: app, at: 1)
        #expect(device.eventKinds == [.preservationChanged(app, device.tag("B", of: app), 0.75)])
    }
}
