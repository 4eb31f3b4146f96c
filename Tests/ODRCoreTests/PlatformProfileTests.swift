import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §1, size limits: a catalog breaking a limit of its profile is an error with a clear message.
@Suite("Platform profile limits")
struct PlatformProfileTests {
    /// `count` on-demand tags `t0`, `t1`, … of `size` bytes each, one pack per tag.
    static func tags(_ count: Int, of size: Int64, prefix: String = "t", category: TagCategory = .onDemand)
        -> (resources: [([String], Int64)], settings: [String: TagSettings])
    {
        let names = (0..<count).map { "\(prefix)\($0)" }
        return (
            names.map { ([$0], size) },
            Dictionary(uniqueKeysWithValues: names.map { ($0, TagSettings(category: category)) })
        )
    }

    @Test("A pack over 512 MB is rejected on ios17; the message names the pack, its size and the limit")
    func packTooLarge() throws {
        let resources: [([String], Int64)] = [(["small"], 10 * MB), (["huge"], 600 * MB)]
        // The 600 MB pack "huge" breaks the 512 MB per-pack limit (checked before the per-tag limit).
        let error = #expect(
            throws: CatalogError.packTooLarge(pack: "huge", size: 600 * MB, limit: 512 * MB, profile: "ios17")
        ) {
            try makeCatalog(resources, profile: .ios17)
        }
        let message = try #require(error?.description)
        #expect(
            message.contains("'huge'") && message.contains("600 MB") && message.contains("512 MB")
                && message.contains("ios17"))
        // iOS 18 allows 8 GB per pack, so the same catalog passes there, but not on tvOS 18 (512 MB).
        #expect(throws: Never.self) { try makeCatalog(resources, profile: .ios18) }
        #expect(throws: CatalogError.self) { try makeCatalog(resources, profile: .tvos18) }
        // Exactly 512 MB is within the limit.
        #expect(throws: Never.self) { try makeCatalog([(["edge"], 512 * MB)], profile: .ios17) }
    }

    @Test("A tag over 512 MB is rejected even when each of its packs is small enough")
    func tagTooLarge() throws {
        // Tag T: pack "T" 300 MB + pack "T+U" 300 MB = 600 MB > 512 MB. Tag U: 300 MB, fine.
        let resources: [([String], Int64)] = [(["T"], 300 * MB), (["T", "U"], 300 * MB)]
        let error = #expect(
            throws: CatalogError.tagTooLarge(tag: "T", size: 600 * MB, limit: 512 * MB, profile: "ios17")
        ) {
            try makeCatalog(resources, profile: .ios17)
        }
        let message = try #require(error?.description)
        #expect(message.contains("'T'") && message.contains("600 MB") && message.contains("512 MB"))
        #expect(throws: Never.self) { try makeCatalog(resources, profile: .ios18) }
    }

    @Test("1001 asset packs break the 1000-pack limit; 1000 do not")
    func tooManyPacks() throws {
        // 1001 tags, one 1 KB resource each: 1001 exact tag sets, 1001 packs.
        let many = Self.tags(1001, of: 1000)
        let error = #expect(throws: CatalogError.tooManyPacks(count: 1001, limit: 1000, profile: "ios17")) {
            try makeCatalog(many.resources, profile: .ios17)
        }
        let message = try #require(error?.description)
        #expect(message.contains("1001") && message.contains("1000") && message.contains("ios17"))
        // iOS 18 keeps the 1000-pack limit.
        #expect(throws: CatalogError.tooManyPacks(count: 1001, limit: 1000, profile: "ios18")) {
            try makeCatalog(many.resources, profile: .ios18)
        }
        let exactly = Self.tags(1000, of: 1000)
        #expect(try makeCatalog(exactly.resources, profile: .ios17).packs.count == 1000)
    }

    @Test("Overlapping tag combinations multiply packs past the limit")
    func overlappingTagsMultiplyPacks() throws {
        // Resources on every pair of 46 tags: 46·45/2 = 1035 exact tag sets → 1035 packs.
        var resources: [([String], Int64)] = []
        for a in 0..<46 { for b in (a + 1)..<46 { resources.append((["t\(a)", "t\(b)"], 1000)) } }
        #expect(throws: CatalogError.tooManyPacks(count: 1035, limit: 1000, profile: "ios17")) {
            try makeCatalog(resources, profile: .ios17)
        }
    }

    @Test("Initial-install tags over 2 GB are rejected on ios17, accepted on ios18")
    func initialInstallTooLarge() throws {
        // 5 initial-install tags × 500 MB = 2.5 GB > 2 GB.
        let initial = Self.tags(5, of: 500 * MB, category: .initialInstall)
        let error = #expect(
            throws: CatalogError.initialInstallTooLarge(size: 2_500 * MB, limit: 2 * GB, profile: "ios17")
        ) {
            try makeCatalog(initial.resources, settings: initial.settings, profile: .ios17)
        }
        let message = try #require(error?.description)
        #expect(message.contains("initial-install") && message.contains("2.5 GB") && message.contains("2 GB"))
        #expect(throws: Never.self) { try makeCatalog(initial.resources, settings: initial.settings, profile: .ios18) }
    }

    @Test("Initial-install plus prefetch tags over 4 GB are rejected on ios17")
    func initialAndPrefetchTooLarge() throws {
        // 4 initial-install tags × 500 MB = 2 GB (exactly the initial limit, allowed)
        // + 5 prefetch tags × 500 MB = 2.5 GB → 4.5 GB > 4 GB.
        let initial = Self.tags(4, of: 500 * MB, prefix: "i", category: .initialInstall)
        let prefetch = Self.tags(5, of: 500 * MB, prefix: "p", category: .prefetch(order: 1))
        let resources = initial.resources + prefetch.resources
        let settings = initial.settings.merging(prefetch.settings) { a, _ in a }
        let error = #expect(
            throws: CatalogError.initialAndPrefetchTooLarge(size: 4_500 * MB, limit: 4 * GB, profile: "ios17")
        ) {
            try makeCatalog(resources, settings: settings, profile: .ios17)
        }
        let message = try #require(error?.description)
        #expect(message.contains("prefetch") && message.contains("4.5 GB") && message.contains("4 GB"))
        // tvOS 18 has the same 4 GB limit; iOS 18 none.
        #expect(throws: CatalogError.initialAndPrefetchTooLarge(size: 4_500 * MB, limit: 4 * GB, profile: "tvos18")) {
            try makeCatalog(resources, settings: settings, profile: .tvos18)
        }
        #expect(throws: Never.self) { try makeCatalog(resources, settings: settings, profile: .ios18) }
    }

    @Test("More than 20 GB hosted is rejected on ios17, accepted up to 70 GB on ios18")
    func hostedTooLarge() throws {
        // 41 tags × 500 MB = 20.5 GB > 20 GB.
        let hosted = Self.tags(41, of: 500 * MB)
        let error = #expect(throws: CatalogError.hostedTooLarge(size: 20_500 * MB, limit: 20 * GB, profile: "ios17")) {
            try makeCatalog(hosted.resources, profile: .ios17)
        }
        let message = try #require(error?.description)
        #expect(message.contains("20.5 GB") && message.contains("20 GB") && message.contains("ios17"))
        #expect(throws: Never.self) { try makeCatalog(hosted.resources, profile: .ios18) }
    }

    @Test("A custom profile applies its own numbers")
    func customProfile() throws {
        var profile = PlatformProfile.ios17
        profile.name = "strict"
        profile.maxPackSize = 64 * MB
        // 65 MB > 64 MB; the message names the pack and the custom profile.
        let error = #expect(
            throws: CatalogError.packTooLarge(pack: "L", size: 65 * MB, limit: 64 * MB, profile: "strict")
        ) {
            try makeCatalog([(["L"], 65 * MB)], profile: profile)
        }
        #expect(error?.description.contains("64 MB") == true)
        #expect(error?.description.contains("65 MB") == true)
        #expect(PlatformProfile.named("ios18") == .ios18)
        #expect(PlatformProfile.named("android") == nil)
    }

    @Test("ios17 allows 2 GB in use by one app at a time; the request beyond fails with inUseLimit")
    func inUseLimit() throws {
        // Five 500 MB tags; the device enforces ios17's 2 GB in-use limit.
        let catalog = try makeCatalog(Self.tags(5, of: 500 * MB).resources, profile: .ios17)
        let device = ODRDevice(capacity: 10 * GB, policy: ApplePolicy(), settings: DeviceSettings(profile: .ios17))
        let app = device.installedApp("game", catalog)
        // t0…t3 in use: 4 × 500 MB = 2 GB, exactly the limit.
        var held: [RequestID] = []
        for t in 0..<4 { held.append(try #require(device.use(app, ["t\(t)"], at: 1))) }
        #expect(device.inUseBytes(of: app) == 2 * GB)
        // t4 would bring 2.5 GB in use: refused before any download starts.
        let refused = device.beginAccessing(app, tags: [device.tag("t4", of: app)], at: 2)
        #expect(refused == .failed(.inUseLimit))
        #expect(device.ledger.failures(.inUseLimit) == 1)
        #expect(device.ledger.downloadsStarted == 4)
        #expect(device.state(of: device.pack("t4", of: app)) == .notDownloaded)
        // Asking again for t0, already held, adds nothing in use: granted.
        let again = device.beginAccessing(app, tags: [device.tag("t0", of: app)], at: 3)
        #expect(device.isGranted(try #require(again.request)))
        // After ending t1, 1.5 GB in use + 500 MB = 2 GB: t4 may come.
        device.endAccessing(held[1], at: 4)
        #expect(device.use(app, ["t4"], at: 5) != nil)
        #expect(device.inUseBytes(of: app) == 2 * GB)
    }

    @Test("Requests that begin together count toward the limit while they download (issue 18)")
    func concurrentRequestsCountWhileInFlight() throws {
        // 1.0 + 1.0 + 0.5 GB requested at the same instant, nothing on the device yet. Before,
        // only granted requests counted, so all three were accepted: 2.5 GB in use at the end.
        // Now the first two commit 2.0 GB (the limit, exactly); the third would bring 2.5 GB.
        // ios17 caps a tag at 512 MB, so a 1 GB request names two 500 MB tags.
        let catalog = try makeCatalog(Self.tags(5, of: 500 * MB).resources, profile: .ios17)
        let device = ODRDevice(capacity: 10 * GB, policy: ApplePolicy(), settings: DeviceSettings(profile: .ios17))
        let app = device.installedApp("game", catalog)
        func tags(_ names: String...) -> [TagID] { names.map { device.tag($0, of: app) } }
        let a = device.beginAccessing(app, tags: tags("t0", "t1"), at: 1)
        let b = device.beginAccessing(app, tags: tags("t2", "t3"), at: 1)
        let c = device.beginAccessing(app, tags: tags("t4"), at: 1)
        #expect(a.request != nil && b.request != nil)
        #expect(c == .failed(.inUseLimit))
        #expect(device.ledger.downloadsStarted == 4)
        // Cancelling b frees its 1 GB of commitment: c may come now (1.0 + 0.5 GB).
        device.cancel(try #require(b.request), at: 2)
        #expect(device.beginAccessing(app, tags: tags("t4"), at: 3).request != nil)
        // A second request for packs already awaited adds nothing: accepted at 1.5 GB.
        #expect(device.beginAccessing(app, tags: tags("t0"), at: 4).request != nil)
        #expect(device.ledger.failures(.inUseLimit) == 1)
    }

    @Test("Conditional begin respects the in-use limit too (regression)")
    func conditionalInUseLimit() throws {
        let catalog = try makeCatalog(Self.tags(5, of: 500 * MB).resources, profile: .ios17)
        let device = ODRDevice(capacity: 10 * GB, policy: ApplePolicy(), settings: DeviceSettings(profile: .ios17))
        let app = device.installedApp("game", catalog)
        // t4 is on the device, released; t0…t3 are in use: 2 GB.
        device.useAndRelease(app, ["t4"], at: 1)
        for t in 0..<4 { _ = device.use(app, ["t\(t)"], at: 2) }
        // Granting t4 would put 2.5 GB in use: no, counted as an in-use-limit failure.
        #expect(device.conditionallyBeginAccessing(app, tags: [device.tag("t4", of: app)], at: 3) == nil)
        #expect(device.ledger.failures(.inUseLimit) == 1)
        #expect(device.inUseBytes(of: app) == 2 * GB)
        #expect(device.retainCount(of: device.pack("t4", of: app)) == 0)
        // A conditional request for a held tag adds nothing: granted.
        #expect(device.conditionallyBeginAccessing(app, tags: [device.tag("t0", of: app)], at: 4) != nil)
    }

    @Test("No in-use limit on ios18")
    func noInUseLimitOnIOS18() throws {
        let catalog = try makeCatalog(Self.tags(5, of: 500 * MB).resources, profile: .ios18)
        let device = ODRDevice(capacity: 10 * GB, policy: ApplePolicy(), settings: DeviceSettings(profile: .ios18))
        let app = device.installedApp("game", catalog)
        for t in 0..<5 { _ = device.use(app, ["t\(t)"], at: 1) }
        // 5 × 500 MB = 2.5 GB in use.
        #expect(device.inUseBytes(of: app) == 2_500 * MB)
        #expect(device.ledger.failedRequests == 0)
    }
}
