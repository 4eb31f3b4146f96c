import Testing

@testable import ODRCore

/// An app's eviction is one value the device owns (``EvictionRules``): its budget, the tags
/// it keeps and its own strategy. The device routes each pack's notifications to its app's
/// policy (``PolicyTable``), asks the app's strategy for the app's own demands, and asks the
/// system's policy first, then each app's own, when the system removes packs.
@Suite struct AppEvictionTests {
    /// A 1,000 MB device purging under `system`: `maps` on ODR (a 100 MB pack `region`) and
    /// `game` on Background Assets (`old` 300 MB, `new` 500 MB) with `eviction`; both packs
    /// used once and released. `keep` names the game's tags its code never removes.
    private func device(
        system: RecordingPolicy, game eviction: EvictionRules, keep: [String] = [],
        profile: PlatformProfile = .backgroundAssets
    ) throws -> (ODRDevice, maps: AppID, game: AppID) {
        let device = ODRDevice(capacity: 1_000 * MB, policy: system, settings: DeviceSettings(profile: .ios17))
        device.recordsEvents = true
        let maps = device.addApp(name: "maps", catalog: try makeCatalog([(["region"], 100 * MB)]))
        let catalog = try makeCatalog([(["old"], 300 * MB), (["new"], 500 * MB)])
        var eviction = eviction
        eviction.keep = keep.compactMap(catalog.tagID(named:))
        let game = device.addApp(name: "game", catalog: catalog, eviction: eviction, profile: profile)
        device.install(maps, at: 0)
        device.install(game, at: 0)
        device.useAndRelease(maps, ["region"], at: 1)
        device.useAndRelease(game, ["old"], at: 2)
        return (device, maps, game)
    }

    /// The packs a recording policy heard of, by their numbers in its log.
    private func packsHeard(_ policy: RecordingPolicy) -> Set<Int32> {
        Set(policy.log.compactMap { $0.split(separator: " ").last.flatMap { Int32($0) } })
    }

    @Test func eachPacksNotificationsGoToItsAppsPolicy() throws {
        let system = RecordingPolicy()
        let own = RecordingPolicy()
        let (device, maps, game) = try device(system: system, game: EvictionRules(strategy: own))
        #expect(packsHeard(system) == [device.pack("region", of: maps).rawValue])
        #expect(packsHeard(own) == [device.pack("old", of: game).rawValue])
        #expect(system.log.contains("stored \(device.pack("region", of: maps).rawValue)"))
        #expect(own.log.contains("stored \(device.pack("old", of: game).rawValue)"))
    }

    @Test func withoutAStrategyTheSystemsPolicyHearsEveryApp() throws {
        let system = RecordingPolicy()
        let (device, maps, game) = try device(system: system, game: EvictionRules(budget: 500 * MB))
        #expect(
            packsHeard(system) == [device.pack("region", of: maps).rawValue, device.pack("old", of: game).rawValue])
    }

    @Test func theAppsBudgetAsksTheAppsStrategyAlone() throws {
        // The game holds `old` (300 MB) under a 500 MB budget; `new` (500 MB) would take it to
        // 800: its code removes `old`, chosen by its own strategy, and the system is not asked.
        let system = RecordingPolicy()
        let own = RecordingPolicy()
        let (device, _, game) = try device(system: system, game: EvictionRules(budget: 500 * MB, strategy: own))
        device.removeAllEvents()
        _ = device.use(game, ["new"], at: 3)
        #expect(own.views.map(\.scope) == [.app(game)])
        #expect(own.views.first?.bytes == 300 * MB)
        #expect(system.views.isEmpty)
        #expect(device.purgedPacks == [device.pack("old", of: game)])
    }

    @Test func theSystemRemovingForOtherDataAsksItsPolicyFirstThenTheApps() throws {
        // Background Assets where the system also removes the apps' unused packs for other data.
        var profile = PlatformProfile.backgroundAssets
        profile.systemRemovesForOtherData = true
        let system = RecordingPolicy()
        let own = RecordingPolicy()
        let (device, maps, game) = try device(system: system, game: EvictionRules(strategy: own), profile: profile)
        device.removeAllEvents()
        // 600 MB free; 700 MB of photos: 100 short. The system's policy chooses among the
        // packs it heard of (the map's 100 MB), which is enough: the game's is not asked.
        #expect(device.changeOtherData(by: 700 * MB, at: 3) == 700 * MB)
        #expect(system.views.count == 1 && own.views.isEmpty)
        #expect(device.purgedPacks == [device.pack("region", of: maps)])
        // Now the disk is full; 250 MB more: the system's policy knows no pack left, so the
        // game's strategy chooses its `old` within the same episode.
        #expect(device.changeOtherData(by: 250 * MB, at: 4) == 250 * MB)
        #expect(system.views.count == 2 && own.views.count == 1)
        #expect(own.views.first.map { if case .tier = $0.scope { true } else { false } } == true)
        #expect(device.purgedPacks == [device.pack("region", of: maps), device.pack("old", of: game)])
    }

    @Test func keptTagsAreNeverTheAppsToRemove() throws {
        // `old` is kept: the budget cannot be met, so nothing is removed and the game goes over.
        let own = RecordingPolicy()
        let (device, _, game) = try device(
            system: RecordingPolicy(), game: EvictionRules(budget: 500 * MB, strategy: own), keep: ["old"])
        device.removeAllEvents()
        _ = device.use(game, ["new"], at: 3)
        #expect(own.views.isEmpty)
        #expect(device.purgedPacks.isEmpty)
        // 800 MB stored against 500.
        #expect(device.ledger.budgetExceededBytes == 300 * MB)
    }
}
