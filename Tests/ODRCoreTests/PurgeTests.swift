import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §4 and §6: what is purged, in which order, and what it costs.
@Suite("Purging")
struct PurgeTests {
    @Test(
        "Over-purge: purging a whole pack to free a small amount",
        arguments: [
            // Apple's example: 100 MB needed, the only candidate is 512 MB → 412 MB over-purged.
            (needed: 100 * MB, pack: 512 * MB, overPurge: 412 * MB),
            // The other write-up: 50 MB needed, a 400 MB pack → 350 MB wasted.
            (needed: 50 * MB, pack: 400 * MB, overPurge: 350 * MB),
        ])
    func overPurge(needed: Int64, pack: Int64, overPurge: Int64) throws {
        // Disk of 1000 MB: other data fills what the big pack leaves, so the disk is full.
        let device = ODRDevice(capacity: 1000 * MB, otherData: 1000 * MB - pack, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["big"], pack), (["small"], needed)]))
        device.useAndRelease(app, ["big"], at: 1)
        #expect(device.freeBytes == 0)
        device.removeAllEvents()

        // The small tag needs `needed` bytes, none free: the big pack goes, all of it.
        let outcome = device.beginAccessing(app, tags: [device.tag("small", of: app)], at: 2)
        guard case .waiting = outcome else {
            Issue.record("expected a download, got \(outcome)")
            return
        }
        let big = device.pack("big", of: app)
        #expect(device.state(of: big) == .purged)
        #expect(device.ledger.purgeEpisodes == 1)
        #expect(device.ledger.purgedBytes == pack)
        #expect(device.ledger.overPurgeBytes == overPurge)
        #expect(device.eventKinds.contains(.packPurged(big, app, bytes: pack, episode: 1)))
        #expect(device.eventKinds.contains(.purgeEpisode(episode: 1, needed: needed, purged: pack)))
        // After: other data + the small pack's reservation; the over-purged bytes are free.
        #expect(device.usedBytes == 1000 * MB - pack + needed)
        #expect(device.freeBytes == overPurge)
        #expect(device.ledger.lowDiskWarnings == 0)
    }

    /// Game: g1, g2; News: n1; 100 MB each, on a full 300 MB disk. Neither app is running.
    static func gameAndNews() throws -> (ODRDevice, game: AppID, news: AppID) {
        let device = ODRDevice(capacity: 300 * MB, policy: ApplePolicy())
        let game = device.installedApp("game", try makeCatalog([(["g1"], 100 * MB), (["g2"], 100 * MB)]))
        let news = device.installedApp("news", try makeCatalog([(["n1"], 100 * MB)]))
        return (device, game, news)
    }

    @Test("Preservation priority beats recency within an app")
    func preservationWithinApp() throws {
        let (device, game, news) = try Self.gameAndNews()
        // Last use, oldest first: g1 (t=1), n1 (t=2), g2 (t=3).
        device.useAndRelease(game, ["g1"], at: 1)
        device.useAndRelease(news, ["n1"], at: 2)
        device.useAndRelease(game, ["g2"], at: 3)
        // The game protects its oldest pack.
        device.setPreservationPriority(1.0, for: [device.tag("g1", of: game)], of: game, at: 4)
        #expect(device.candidate(device.pack("g1", of: game)).preservation == 1.0)

        // 100 MB needed. The game holds the least recently used candidate (g1), so the game
        // gives up a pack; within the game the lowest preservation goes first: g2 (0.0),
        // although it is the most recently used pack on the device. A global order by
        // (preservation, recency) would have taken n1 instead.
        device.changeOtherData(by: 100 * MB, at: 5)
        #expect(device.purgedPacks == [device.pack("g2", of: game)])
        #expect(device.state(of: device.pack("g1", of: game)) == .downloaded)
        #expect(device.state(of: device.pack("n1", of: news)) == .downloaded)
    }

    @Test("Without preservation priorities the least recently used pack goes first")
    func leastRecentlyUsedFirst() throws {
        let (device, game, news) = try Self.gameAndNews()
        device.useAndRelease(game, ["g1"], at: 1)
        device.useAndRelease(news, ["n1"], at: 2)
        device.useAndRelease(game, ["g2"], at: 3)
        // g1 is the oldest; then n1.
        device.changeOtherData(by: 100 * MB, at: 4)
        #expect(device.purgedPacks == [device.pack("g1", of: game)])
        device.changeOtherData(by: 100 * MB, at: 5)
        #expect(device.purgedPacks == [device.pack("g1", of: game), device.pack("n1", of: news)])
    }

    @Test("A high preservation priority is not compared across apps: it does not shift the purge to another app")
    func preservationNotAcrossApps() throws {
        let (device, game, news) = try Self.gameAndNews()
        // Oldest first: n1, g1, g2; the news app marks n1 as precious.
        device.useAndRelease(news, ["n1"], at: 1)
        device.useAndRelease(game, ["g1"], at: 2)
        device.useAndRelease(game, ["g2"], at: 3)
        device.setPreservationPriority(1.0, for: [device.tag("n1", of: news)], of: news, at: 4)
        // The news app holds the least recently used candidate, so it pays: n1 goes, even
        // with preservation 1.0 against the game's 0.0.
        device.changeOtherData(by: 100 * MB, at: 5)
        #expect(device.purgedPacks == [device.pack("n1", of: news)])
    }

    @Test("A shared pack's preservation is the highest among its tags")
    func sharedPackPreservation() throws {
        let device = ODRDevice(capacity: 1 * GB, policy: ApplePolicy())
        let app = device.installedApp(
            "game",
            try makeCatalog([(["A"], 1 * MB), (["A", "B"], 1 * MB)], settings: ["B": .init(preservation: 0.3)]))
        let shared = device.pack("A+B", of: app)
        #expect(device.candidate(shared).preservation == 0.3)
        device.setPreservationPriority(0.8, for: [device.tag("A", of: app)], of: app, at: 1)
        #expect(device.candidate(shared).preservation == 0.8)
        #expect(device.candidate(device.pack("A", of: app)).preservation == 0.8)
        device.setPreservationPriority(0.1, for: [device.tag("A", of: app)], of: app, at: 2)
        // max(0.1, 0.3)
        #expect(device.candidate(shared).preservation == 0.3)
    }

    @Test("A running app's packs are purged last, only when the others cannot free the space")
    func runningAppLast() throws {
        // 400 MB disk, full: Game (running) g1, g2 and News (not running) n1, n2, 100 MB each.
        let device = ODRDevice(capacity: 400 * MB, policy: ApplePolicy())
        let game = device.installedApp(
            "game", try makeCatalog([(["g1"], 100 * MB), (["g2"], 100 * MB)]), running: true)
        let news = device.installedApp("news", try makeCatalog([(["n1"], 100 * MB), (["n2"], 100 * MB)]))
        // The game's packs are the least recently used on the device.
        device.useAndRelease(game, ["g1"], at: 1)
        device.useAndRelease(game, ["g2"], at: 2)
        device.useAndRelease(news, ["n1"], at: 3)
        device.useAndRelease(news, ["n2"], at: 4)
        #expect(device.freeBytes == 0)

        // 100 MB needed: News is not running, so its oldest pack n1 goes, not g1.
        device.changeOtherData(by: 100 * MB, at: 5)
        #expect(device.purgedPacks == [device.pack("n1", of: news)])

        // 150 MB needed: all of News (n2, 100 MB) is not enough, so the rest, 50 MB, comes
        // from the running game: its oldest, g1. Purged 200 MB for 150 needed: 50 over.
        device.removeAllEvents()
        device.changeOtherData(by: 150 * MB, at: 6)
        #expect(device.purgedPacks == [device.pack("n2", of: news), device.pack("g1", of: game)])
        #expect(device.eventKinds.contains(.purgeEpisode(episode: 2, needed: 150 * MB, purged: 200 * MB)))
        #expect(device.ledger.overPurgeBytes == 50 * MB)
        #expect(device.state(of: device.pack("g2", of: game)) == .downloaded)
    }

    @Test("Packs in use are never purged: a demand only they could meet fails with outOfSpace")
    func inUseNeverPurged() throws {
        // 300 MB disk: 100 MB other data, a1 and a2 held (100 MB each): full.
        let device = ODRDevice(capacity: 300 * MB, otherData: 100 * MB, policy: ApplePolicy())
        let app = device.installedApp(
            "game", try makeCatalog([(["a1"], 100 * MB), (["a2"], 100 * MB), (["a3"], 100 * MB)]))
        _ = device.use(app, ["a1"], at: 1)
        _ = device.use(app, ["a2"], at: 2)
        device.removeAllEvents()
        // a3 needs 100 MB, nothing purgeable: warning, then failure, nothing purged.
        #expect(device.beginAccessing(app, tags: [device.tag("a3", of: app)], at: 3) == .failed(.outOfSpace))
        #expect(device.purgedPacks.isEmpty)
        #expect(device.ledger.purges == 0)
        #expect(device.state(of: device.pack("a1", of: app)) == .inUse(retainCount: 1))
        #expect(device.state(of: device.pack("a2", of: app)) == .inUse(retainCount: 1))
        #expect(device.ledger.lowDiskWarnings == 1)
        #expect(
            device.eventKinds == [
                .requestMade(app, conditional: false), .lowDiskWarning(needed: 100 * MB),
                .requestFailed(nil, app, .outOfSpace),
            ])
    }

    @Test("When purging cannot free enough, nothing is purged at all")
    func partialPurgeNeverHappens() throws {
        // 300 MB disk, 100 MB other data; a1 held, a2 released (100 MB each).
        let device = ODRDevice(capacity: 300 * MB, otherData: 100 * MB, policy: ApplePolicy())
        let app = device.installedApp(
            "game", try makeCatalog([(["a1"], 100 * MB), (["a2"], 100 * MB), (["big"], 150 * MB)]))
        _ = device.use(app, ["a1"], at: 1)
        device.useAndRelease(app, ["a2"], at: 2)
        // big needs 150 MB; purging a2 would free only 100: the request fails and a2 stays.
        #expect(device.beginAccessing(app, tags: [device.tag("big", of: app)], at: 3) == .failed(.outOfSpace))
        #expect(device.state(of: device.pack("a2", of: app)) == .downloaded)
        #expect(device.ledger.purges == 0)
        #expect(device.usedBytes == 300 * MB)
    }

    @Test("A request never purges the packs it is about to use")
    func awaitedPackNotPurged() throws {
        // Tag T maps to packs "T" (100 MB) and "T+U" (100 MB); U was used and released, so
        // "T+U" is on the device and is the only purgeable pack. Disk 250 MB, 150 used.
        let device = ODRDevice(capacity: 250 * MB, otherData: 50 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["T"], 100 * MB), (["T", "U"], 100 * MB)]))
        device.useAndRelease(app, ["U"], at: 1)
        #expect(device.isPurgeable(device.pack("T+U", of: app)))
        // T needs pack "T", 100 MB with 100 free: fits, nothing purged.
        let fits = try #require(device.beginAccessing(app, tags: [device.tag("T", of: app)], at: 2).request)
        #expect(device.ledger.purges == 0)
        device.cancel(fits, at: 3)
        // With 50 MB more other data, 50 MB are free: purging "T+U" would make room, but T
        // needs it, so the request fails instead.
        device.changeOtherData(by: 50 * MB, at: 4)
        #expect(device.beginAccessing(app, tags: [device.tag("T", of: app)], at: 5) == .failed(.outOfSpace))
        #expect(device.state(of: device.pack("T+U", of: app)) == .downloaded)
        #expect(device.ledger.purges == 0)
    }

    @Test("A purged pack requested again is downloaded again: re-download bytes = pack size")
    func redownload() throws {
        let device = ODRDevice(capacity: 500 * MB, policy: HistoryReadingPolicy())
        let app = device.installedApp("game", try makeCatalog([(["A"], 120 * MB)]))
        let a = device.pack("A", of: app)
        device.useAndRelease(app, ["A"], at: 1)
        #expect(device.ledger.redownloadBytes == 0)
        // 450 MB of other data on a 500 MB disk with 120 MB of A: 70 MB short → A purged.
        device.changeOtherData(by: 450 * MB, at: 2)
        #expect(device.state(of: a) == .purged)
        #expect(device.candidate(a).purgeCount == 1)
        device.changeOtherData(by: -450 * MB, at: 3)
        device.removeAllEvents()
        let again = try #require(device.use(app, ["A"], at: 4))
        #expect(device.eventKinds.contains(.downloadStarted(a, app, request: again, bytes: 120 * MB, redownload: true)))
        #expect(device.ledger.redownloadBytes == 120 * MB)
        #expect(device.ledger.downloadedBytes == 240 * MB)
        #expect(device.isGranted(again))
    }

    @Test("Leftover partial downloads are purged before any complete pack")
    func leftoversFirst() throws {
        // 300 MB disk. "old" (100 MB) is complete and the least recently used; "part" was
        // cancelled at 60 of 100 MB and is a leftover.
        let device = ODRDevice(capacity: 300 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["old"], 100 * MB), (["part"], 100 * MB)]))
        device.useAndRelease(app, ["old"], at: 1)
        let request = try #require(device.beginAccessing(app, tags: [device.tag("part", of: app)], at: 2).request)
        device.receive(60 * MB, for: device.pack("part", of: app), at: 3)
        device.cancel(request, at: 4)
        // Used: 100 + 60 = 160 MB; other data grows by 170 MB: 30 MB short.
        device.changeOtherData(by: 170 * MB, at: 5)
        // The 60 MB leftover goes, the complete pack stays: 30 MB over-purged.
        #expect(device.purgedPacks == [device.pack("part", of: app)])
        #expect(device.state(of: device.pack("old", of: app)) == .downloaded)
        #expect(device.ledger.overPurgeBytes == 30 * MB)
        #expect(device.usedBytes == 270 * MB)
    }
}

/// ODR-SPEC §4: other data on the disk competes with ODR content.
@Suite("Other data")
struct OtherDataTests {
    @Test("Other data growth purges like a download")
    func growthPurges() throws {
        // 1000 MB disk: 700 MB other data + pack A (200 MB) released = 900 MB used.
        let device = ODRDevice(capacity: 1000 * MB, otherData: 700 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["A"], 200 * MB)]))
        device.useAndRelease(app, ["A"], at: 1)
        device.removeAllEvents()
        // +150 MB: 100 free, 50 short → A purged (200 MB, 150 over), all 150 applied.
        device.changeOtherData(by: 150 * MB, at: 2)
        #expect(device.otherBytes == 850 * MB)
        #expect(device.odrBytes == 0)
        #expect(device.usedBytes == 850 * MB)
        #expect(device.ledger.overPurgeBytes == 150 * MB)
        #expect(device.eventKinds.last == .otherDataChanged(requested: 150 * MB, applied: 150 * MB))
        #expect(device.ledger.refusedOtherBytes == 0)
    }

    @Test("Growth that cannot fit is partly refused and the disk never overfills")
    func growthRefused() throws {
        // 1000 MB disk: 700 MB other data, A (200 MB) held, B (50 MB) released: 950 MB used.
        let device = ODRDevice(capacity: 1000 * MB, otherData: 700 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", try makeCatalog([(["A"], 200 * MB), (["B"], 50 * MB)]))
        _ = device.use(app, ["A"], at: 1)
        device.useAndRelease(app, ["B"], at: 2)
        device.removeAllEvents()
        // +200 MB: 50 free + 50 purgeable (B) = 100 MB can be had: a warning (150 MB short),
        // then B is purged and 100 MB applied, 100 MB refused.
        device.changeOtherData(by: 200 * MB, at: 3)
        #expect(device.ledger.lowDiskWarnings == 1)
        #expect(device.state(of: device.pack("B", of: app)) == .purged)
        #expect(device.otherBytes == 800 * MB)
        #expect(device.ledger.refusedOtherBytes == 100 * MB)
        #expect(device.usedBytes == device.capacity)
        #expect(device.ledger.peakUsedBytes == 1000 * MB)
        #expect(device.eventKinds.first == .lowDiskWarning(needed: 150 * MB))
        #expect(device.eventKinds.last == .otherDataChanged(requested: 200 * MB, applied: 100 * MB))
        // The held pack is untouched.
        #expect(device.state(of: device.pack("A", of: app)) == .inUse(retainCount: 1))
        // A full disk refuses everything more.
        device.changeOtherData(by: 10 * MB, at: 4)
        #expect(device.ledger.refusedOtherBytes == 110 * MB)
        #expect(device.usedBytes == 1000 * MB)
    }

    @Test("Other data shrinks to zero at most; the device starts with no more than its capacity")
    func shrink() {
        let device = ODRDevice(capacity: 100 * MB, otherData: 40 * MB, policy: ApplePolicy())
        device.changeOtherData(by: -70 * MB, at: 1)
        #expect(device.otherBytes == 0)
        #expect(device.eventKinds == [.otherDataChanged(requested: -70 * MB, applied: -40 * MB)])
        let full = ODRDevice(capacity: 100 * MB, otherData: 150 * MB, policy: ApplePolicy())
        #expect(full.usedBytes == 100 * MB)
    }
}
