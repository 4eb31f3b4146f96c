import ODRPolicies
import Testing

@testable import ODRCore

/// An ODR app and a Background Assets app on one iPhone: each app's packs are removed as its
/// own platform says (the system purges the ODR app's, the app's code its own), and a demand
/// is met by the system first (``RoomMaker``).
@Suite struct MixedPlatformTests {
    /// A 1,000 MB device (no other data) with `maps` on ODR and `game` on Background Assets.
    /// `maps` holds `mapsBytes` of released packs; `game` holds a released 300 MB pack `old`
    /// and has a 500 MB on-demand pack `new`.
    private func device(mapsBytes: Int64) throws -> (ODRDevice, maps: AppID, game: AppID) {
        let device = ODRDevice(capacity: 1_000 * MB, policy: LRUPolicy(), settings: DeviceSettings(profile: .ios17))
        device.recordsEvents = true
        let maps = device.addApp(name: "maps", catalog: try makeCatalog([(["region"], mapsBytes)]))
        let game = device.addApp(
            name: "game", catalog: try makeCatalog([(["old"], 300 * MB), (["new"], 500 * MB)]),
            profile: .backgroundAssets)
        device.install(maps, at: 0)
        device.install(game, at: 0)
        device.useAndRelease(maps, ["region"], at: 1)
        device.useAndRelease(game, ["old"], at: 2)
        return (device, maps, game)
    }

    @Test func systemPurgesTheODRAppBeforeTheGameEvictsItsOwn() throws {
        // Free: 1,000 − 400 − 300 = 300 MB; `new` needs 500: 200 MB short. The system frees it
        // from the ODR app's 400 MB pack first; the game's code removes nothing.
        let (device, maps, game) = try device(mapsBytes: 400 * MB)
        device.removeAllEvents()
        _ = device.use(game, ["new"], at: 3)
        #expect(device.purgedPacks == [device.pack("region", of: maps)])
        #expect(device.state(of: device.pack("old", of: game)) == .downloaded)
    }

    @Test func theSystemNeverTakesTheGamesPacksForAnODRApp() throws {
        // maps 150 MB, the game's `old` 450 MB.
        let device = ODRDevice(capacity: 1_000 * MB, policy: LRUPolicy(), settings: DeviceSettings(profile: .ios17))
        device.recordsEvents = true
        let maps = device.addApp(name: "maps", catalog: try makeCatalog([(["region"], 150 * MB)]))
        let game = device.addApp(
            name: "game", catalog: try makeCatalog([(["old"], 450 * MB), (["new"], 500 * MB)]),
            profile: .backgroundAssets)
        device.install(maps, at: 0)
        device.install(game, at: 0)
        device.useAndRelease(maps, ["region"], at: 1)
        device.useAndRelease(game, ["old"], at: 2)
        device.removeAllEvents()
        // Free: 1,000 − 150 − 450 = 400 MB; 100 MB short. The system's 150 MB comes first
        // (that frees it all), so the game keeps `old`.
        _ = device.use(game, ["new"], at: 3)
        #expect(device.purgedPacks == [device.pack("region", of: maps)])
        #expect(device.state(of: device.pack("old", of: game)) == .downloaded)
        // Now 1,000 − 450 − 500 = 50 MB free, and only the game's packs are on the device.
        // The ODR app asks for its 150 MB again: 100 MB short, and the system may not take
        // the game's packs, so the request fails (after the low-disk warning), nothing removed.
        device.removeAllEvents()
        let outcome = device.beginAccessing(maps, tags: [device.tag("region", of: maps)], at: 4)
        #expect(outcome == .failed(.outOfSpace))
        #expect(device.purgedPacks.isEmpty)
        #expect(device.ledger.lowDiskWarnings == 1)
    }

    @Test func aDemandTooLargeForTheSystemTakesBothInOrder() throws {
        // maps 100 MB, old 300 MB: free 600 MB; `new` of 500 fits. Make it 800 MB: 200 short.
        // The system frees its 100 MB, the game's code its `old` (300 MB) for the other 100.
        let device = ODRDevice(capacity: 1_000 * MB, policy: LRUPolicy(), settings: DeviceSettings(profile: .ios17))
        device.recordsEvents = true
        let maps = device.addApp(name: "maps", catalog: try makeCatalog([(["region"], 100 * MB)]))
        let game = device.addApp(
            name: "game", catalog: try makeCatalog([(["old"], 300 * MB), (["new"], 800 * MB)]),
            profile: .backgroundAssets)
        device.install(maps, at: 0)
        device.install(game, at: 0)
        device.useAndRelease(maps, ["region"], at: 1)
        device.useAndRelease(game, ["old"], at: 2)
        device.removeAllEvents()
        _ = device.use(game, ["new"], at: 3)
        #expect(device.purgedPacks == [device.pack("region", of: maps), device.pack("old", of: game)])
        #expect(device.freeBytes == 200 * MB)
    }

    @Test func theAlternativeOrderLetsTheGameEvictFirst() throws {
        // As above (maps 100 MB, old 300 MB, new 800 MB: 200 MB short), with the undocumented
        // alternative: the game's code removes `old` (300 MB, enough alone) and the system
        // purges nothing of maps.
        var profile = PlatformProfile.backgroundAssets
        profile.systemPurgesBeforeAppEvicts = false
        let device = ODRDevice(capacity: 1_000 * MB, policy: LRUPolicy(), settings: DeviceSettings(profile: .ios17))
        device.recordsEvents = true
        let maps = device.addApp(name: "maps", catalog: try makeCatalog([(["region"], 100 * MB)]))
        let game = device.addApp(
            name: "game", catalog: try makeCatalog([(["old"], 300 * MB), (["new"], 800 * MB)]), profile: profile)
        device.install(maps, at: 0)
        device.install(game, at: 0)
        device.useAndRelease(maps, ["region"], at: 1)
        device.useAndRelease(game, ["old"], at: 2)
        device.removeAllEvents()
        _ = device.use(game, ["new"], at: 3)
        #expect(device.purgedPacks == [device.pack("old", of: game)])
        #expect(device.state(of: device.pack("region", of: maps)) == .downloaded)
    }

    @Test func otherDataTakesTheODRAppsPacksOnly() throws {
        // 1,000 − 400 − 300 = 300 MB free; photos of 800 MB: the system purges the ODR pack
        // (300 + 400 = 700 MB), and the 100 MB still missing are refused: the game's pack is
        // its own.
        let (device, maps, game) = try device(mapsBytes: 400 * MB)
        device.removeAllEvents()
        let applied = device.changeOtherData(by: 800 * MB, at: 3)
        #expect(applied == 700 * MB)
        #expect(device.ledger.refusedOtherBytes == 100 * MB)
        #expect(device.purgedPacks == [device.pack("region", of: maps)])
        #expect(device.state(of: device.pack("old", of: game)) == .downloaded)
    }

    @Test func eachAppKeepsItsOwnPlatformsRules() throws {
        // A Play app beside an unlimited (cache) app: the Play app's install-time pack cannot
        // be removed by its own code, and its large cellular downloads wait for the user,
        // while the other app's do not.
        let device = ODRDevice(capacity: 10 * GB, policy: LRUPolicy(), settings: DeviceSettings(profile: .unlimited))
        let cache = device.addApp(name: "cache", catalog: try makeCatalog([(["big"], 300 * MB)]))
        let play = device.addApp(
            name: "play", catalog: try makeCatalog([(["big"], 300 * MB)]), profile: .playAssetDelivery)
        device.install(cache, at: 0)
        device.install(play, at: 0)
        device.setLink(.cellular, at: 1)
        _ = device.beginAccessing(cache, tags: [device.tag("big", of: cache)], at: 1)
        _ = device.beginAccessing(play, tags: [device.tag("big", of: play)], at: 1)
        #expect(device.appsAwaitingCellularConfirmation == [play])
    }
}
