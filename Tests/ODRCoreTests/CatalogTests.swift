import ODRPolicies
import Testing

@testable import ODRCore

/// ODR-SPEC §1: resources are grouped into asset packs by their exact tag set.
@Suite("Pack formation")
struct CatalogTests {
    /// Level1-only (40 + 10 MB), shared (120 MB) and Level2-only (45 MB) resources.
    /// The shared resource lists its tags in the other order: same tag set, same pack.
    static func levels() throws -> Catalog {
        try Catalog(resources: [
            Resource(name: "map1", size: 40 * MB, tags: ["Level1"]),
            Resource(name: "forest", size: 120 * MB, tags: ["Level1", "Level2"]),
            Resource(name: "map2", size: 45 * MB, tags: ["Level2"]),
            Resource(name: "music1", size: 10 * MB, tags: ["Level1"]),
            Resource(name: "birds", size: 0, tags: ["Level2", "Level1"]),
        ])
    }

    @Test("Level1-only, Level2-only and shared resources give three packs")
    func threePacks() throws {
        let catalog = try Self.levels()
        // Packs in order of first appearance: {Level1}, {Level1, Level2}, {Level2}.
        #expect(catalog.packs.map(\.name) == ["Level1", "Level1+Level2", "Level2"])
        // Level1 pack: map1 40 MB + music1 10 MB = 50 MB.
        // Shared pack: forest 120 MB + birds 0 B = 120 MB (birds lists the tags the other way round).
        // Level2 pack: map2 45 MB.
        #expect(catalog.packs.map(\.size) == [50 * MB, 120 * MB, 45 * MB])
        #expect(catalog.packs.map(\.resources) == [["map1", "music1"], ["forest", "birds"], ["map2"]])
        #expect(catalog.packs[1].tags == [0, 1])
    }

    @Test(
        """
        a regrouped catalog keeps every tag's number and settings; its new tags come after, and a lost tag is an \
        error
        """
    )
    func regrouped() throws {
        // Written: a (tag A, prefetch), b (tag B, preservation 0.5), c (tag C): tags A=0, B=1, C=2.
        let written = try Catalog(
            resources: [
                Resource(name: "a", size: 10 * MB, tags: ["A"]),
                Resource(name: "b", size: 20 * MB, tags: ["B"]),
                Resource(name: "c", size: 30 * MB, tags: ["C"]),
            ], tagSettings: ["A": TagSettings(category: .prefetch(order: 2)), "B": TagSettings(preservation: 0.5)])
        // a and c merged (both carry A and C): first appearance would number C before B (a's
        // tags are listed first); regrouping keeps B = 1 and C = 2, and the new tag P = 3.
        let merged = try written.regrouped(
            [
                Resource(name: "a", size: 10 * MB, tags: ["A", "C"]),
                Resource(name: "b", size: 20 * MB, tags: ["B", "P"]),
                Resource(name: "c", size: 30 * MB, tags: ["C", "A"]),
            ], newTags: [(name: "P", category: .prefetch(order: 0))])
        #expect(merged.tags.map(\.name) == ["A", "B", "C", "P"])
        #expect(merged.tags.map(\.category) == [.prefetch(order: 2), .onDemand, .onDemand, .prefetch(order: 0)])
        #expect(merged.tags.map(\.preservation) == [0, 0.5, 0, 0])
        // Packs by first resource: {A, C} = a + c = 40 MB, {B, P} = 20 MB.
        #expect(merged.packs.map(\.name) == ["A+C", "B+P"] && merged.packs.map(\.size) == [40 * MB, 20 * MB])
        // The grouping as written gives the same catalog back.
        let same = try written.regrouped(
            [
                Resource(name: "a", size: 10 * MB, tags: ["A"]), Resource(name: "b", size: 20 * MB, tags: ["B"]),
                Resource(name: "c", size: 30 * MB, tags: ["C"]),
            ], newTags: [])
        #expect(
            same.tags.map(\.name) == written.tags.map(\.name) && same.packs.map(\.name) == written.packs.map(\.name))
        // A tag of the catalog that no resource carries any more is content lost, not a layout.
        #expect(throws: CatalogError.unknownTag("C")) {
            try written.regrouped(
                [
                    Resource(name: "a", size: 10 * MB, tags: ["A"]), Resource(name: "b", size: 20 * MB, tags: ["B"]),
                    Resource(name: "c", size: 30 * MB, tags: ["A"]),
                ], newTags: [])
        }
    }

    @Test("A tag's size is the total of every pack holding its resources")
    func tagSizes() throws {
        let catalog = try Self.levels()
        let level1 = try #require(catalog.tagID(named: "Level1"))
        let level2 = try #require(catalog.tagID(named: "Level2"))
        // Level1 maps to its own pack and the shared one: 50 + 120 = 170 MB.
        #expect(catalog.tag(level1).packs == [0, 1])
        #expect(catalog.tag(level1).size == 170 * MB)
        // Level2: shared 120 + its own 45 = 165 MB.
        #expect(catalog.tag(level2).packs == [1, 2])
        #expect(catalog.tag(level2).size == 165 * MB)
        #expect(catalog.tagID(named: "Level3") == nil)
    }

    @Test("Requesting both tags at once downloads the shared pack once")
    func sharedPackDownloadedOnceTogether() throws {
        let device = ODRDevice(capacity: 10 * GB, policy: ApplePolicy())
        let game = device.installedApp("game", try Self.levels())
        let outcome = device.beginAccessing(
            game, tags: [device.tag("Level1", of: game), device.tag("Level2", of: game)], at: 0)
        // Three packs missing, three downloads: 50 + 120 + 45 = 215 MB, reserved at start.
        #expect(device.downloads().map(\.pack) == [0, 1, 2].map { device.pack($0, of: game) })
        #expect(device.reservedBytes == 215 * MB)
        device.deliverAll(at: 1)
        let id = try #require(outcome.request)
        #expect(device.isGranted(id))
        #expect(device.ledger.downloadsStarted == 3)
        #expect(device.ledger.downloadedBytes == 215 * MB)
        #expect(device.retainCount(of: device.pack("Level1+Level2", of: game)) == 1)
    }

    @Test("A second tag joins the shared pack's running download instead of starting another")
    func sharedPackDownloadedOnceSeparately() throws {
        let device = ODRDevice(capacity: 10 * GB, policy: ApplePolicy())
        let game = device.installedApp("game", try Self.levels())
        let shared = device.pack("Level1+Level2", of: game)
        // Level1: its pack (50 MB) and the shared pack (120 MB) start.
        let first = device.beginAccessing(game, tags: [device.tag("Level1", of: game)], at: 0)
        #expect(device.ledger.downloadsStarted == 2)
        device.receive(20 * MB, for: shared, at: 1)
        // Level2 while the shared pack is 20 MB in: only the Level2 pack (45 MB) starts.
        let second = device.beginAccessing(game, tags: [device.tag("Level2", of: game)], at: 2)
        #expect(device.ledger.downloadsStarted == 3)
        #expect(device.startedPacks == [device.pack("Level1", of: game), shared, device.pack("Level2", of: game)])
        device.deliverAll(at: 3)
        #expect(device.isGranted(try #require(first.request)))
        #expect(device.isGranted(try #require(second.request)))
        // 50 + 120 + 45 MB, each byte once; the shared pack is held by both requests.
        #expect(device.ledger.downloadedBytes == 215 * MB)
        #expect(device.retainCount(of: shared) == 2)
    }

    @Test("A pack's category is the earliest of its tags' categories")
    func packCategory() throws {
        let catalog = try makeCatalog(
            [
                (["I", "D"], 1 * MB), (["P2", "D"], 2 * MB), (["P1", "P2"], 3 * MB), (["D"], 4 * MB), (["P2"], 5 * MB),
            ],
            settings: [
                "I": .init(category: .initialInstall), "P1": .init(category: .prefetch(order: 1)),
                "P2": .init(category: .prefetch(order: 2)),
            ])
        // initial-install < prefetch (lower order first) < on-demand.
        // Tag order of appearance: I, D, P2, P1; pack names list tags in that order.
        #expect(catalog.packs.map(\.name) == ["I+D", "D+P2", "P2+P1", "D", "P2"])
        #expect(
            catalog.packs.map(\.category) == [
                .initialInstall, .prefetch(order: 2), .prefetch(order: 1), .onDemand, .prefetch(order: 2),
            ])
        #expect(catalog.initialInstallPacks == [0])
    }

    @Test("Prefetch packs come in tag order, each pack once, initial-install packs excluded")
    func prefetchOrder() throws {
        // Tag order of appearance: P2 (0), P1 (1), P3 (2), I (3).
        let catalog = try makeCatalog(
            [(["P2"], 1 * MB), (["P1"], 1 * MB), (["P3"], 1 * MB), (["P1", "P3"], 1 * MB), (["I", "P3"], 1 * MB)],
            settings: [
                "P1": .init(category: .prefetch(order: 1)), "P2": .init(category: .prefetch(order: 2)),
                "P3": .init(category: .prefetch(order: 3)), "I": .init(category: .initialInstall),
            ])
        // Packs: 0 "P2", 1 "P1", 2 "P3", 3 "P1+P3", 4 "P3+I" (initial install).
        // P1 → packs 1, 3; P2 → pack 0; P3 → 2 (3 already listed, 4 comes with the app).
        #expect(catalog.prefetchPacks == [1, 3, 0, 2])
        #expect(catalog.initialInstallPacks == [4])
    }

    @Test("Malformed catalogs are rejected with a message naming the item")
    func malformed() {
        let twice = #expect(throws: CatalogError.duplicateResource("a")) {
            try Catalog(resources: [
                Resource(name: "a", size: 1, tags: ["T"]), Resource(name: "a", size: 2, tags: ["U"]),
            ])
        }
        #expect(twice?.description.contains("'a'") == true)
        #expect(throws: CatalogError.noTags(resource: "b")) {
            try Catalog(resources: [Resource(name: "b", size: 1, tags: [])])
        }
        #expect(throws: CatalogError.negativeSize(resource: "c", size: -5)) {
            try Catalog(resources: [Resource(name: "c", size: -5, tags: ["T"])])
        }
        #expect(throws: CatalogError.unknownTag("Nope")) {
            try Catalog(resources: [Resource(name: "d", size: 1, tags: ["T"])], tagSettings: ["Nope": .init()])
        }
        #expect(throws: CatalogError.invalidPreservation(tag: "T", value: 1.5)) {
            try Catalog(
                resources: [Resource(name: "e", size: 1, tags: ["T"])], tagSettings: ["T": .init(preservation: 1.5)])
        }
    }

    @Test("Byte counts in messages use decimal units")
    func byteFormatting() {
        #expect(ByteFormatting.describe(512 * MB) == "512 MB")
        #expect(ByteFormatting.describe(1_500_000_000) == "1.5 GB")
        #expect(ByteFormatting.describe(2 * GB) == "2 GB")
        #expect(ByteFormatting.describe(20_500_000_000) == "20.5 GB")
        #expect(ByteFormatting.describe(1_250_000) == "1.25 MB")
        #expect(ByteFormatting.describe(700) == "700 B")
        #expect(ByteFormatting.describe(-1_500_000) == "-1.5 MB")
    }
}
