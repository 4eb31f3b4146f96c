import ODRPolicies
import TestSupport
import Testing

@testable import ODRCore

/// ``ODRDevice/appendPacks(sizes:names:to:)``: a device given a numbered catalog's packs a
/// piece at a time, each piece before its packs' first request, runs exactly as one given
/// them all at once (what a trace replay that reads its trace while it replays relies on).
@Suite("Packs appended to an installed app")
struct AppendedPacksTests {
    /// A random trace: requests over `objects` packs, numbered in order of first request.
    static func trace(objects: Int, requests: Int, using random: inout some RandomNumberGenerator) -> (
        sizes: [Int64], requests: [Int32]
    ) {
        let sizes = (0..<objects).map { _ in Int64.random(in: 1...900, using: &random) }
        var seen = 0
        var stream: [Int32] = []
        for _ in 0..<requests {
            // A new object now and then; otherwise a skewed pick among those seen.
            if seen < objects && (seen == 0 || Int.random(in: 0..<5, using: &random) == 0) {
                stream.append(Int32(seen))
                seen += 1
            } else {
                let r = Double.random(in: 0..<1, using: &random)
                stream.append(Int32(Double(seen) * r * r))
            }
        }
        return (Array(sizes[..<seen]), stream)
    }

    /// Where two lists first differ (in an entry or in length), with both entries; nil if equal.
    static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> String? {
        guard let k = a.indices.first(where: { $0 >= b.count || a[$0] != b[$0] }) ?? (a.count < b.count ? a.count : nil)
        else { return nil }
        return "entry \(k): \(k < a.count ? "\(a[k])" : "none") against \(k < b.count ? "\(b[k])" : "none")"
    }

    struct Run {
        var outcomes: [AccessOutcome] = []
        var ledger = Ledger()
        var events: [ODREvent] = []
        var names: [UInt64?] = []
    }

    /// Replays `requests` on a fresh device; with `pieces`, the catalog starts empty and each
    /// piece's new packs are appended just before the request that first needs them.
    static func run(
        _ descriptor: PolicyDescriptor, sizes: [Int64], requests: [Int32], capacity: Int64, events: Bool,
        pieces: Bool, using random: inout some RandomNumberGenerator
    ) throws -> Run {
        let device = ODRDevice(capacity: capacity, policy: descriptor.make(PolicyContext()))
        device.recordsEvents = events
        let names = sizes.indices.map { UInt64($0) * 7 + 3 }
        let given = pieces ? 0 : sizes.count
        let app = device.addApp(
            name: "trace", catalog: try Catalog(numberedTags: Array(sizes[..<given]), names: Array(names[..<given])))
        device.install(app, at: 0)
        var known = given
        var run = Run()
        for (t, pack) in requests.enumerated() {
            if Int(pack) >= known {
                // A piece reaching at least this pack, sometimes further (packs not yet requested).
                let end = min(sizes.count, Int(pack) + 1 + Int.random(in: 0...3, using: &random))
                try device.appendPacks(sizes: Array(sizes[known..<end]), names: Array(names[known..<end]), to: app)
                known = end
            }
            run.outcomes.append(device.access(app, tag: TagID(rawValue: pack), at: Double(t + 1)))
        }
        if known < sizes.count {
            try device.appendPacks(sizes: Array(sizes[known...]), names: Array(names[known...]), to: app)
        }
        #expect(device.checkInvariants().isEmpty)
        run.ledger = device.ledger
        run.events = device.events
        run.names = sizes.indices.map { device.catalog(of: app).objectID(ofPack: $0) }
        #expect(device.catalog(of: app).packs.map(\.size) == sizes)
        #expect(device.packCount == sizes.count)
        return run
    }

    @Test(
        "Packs given a piece at a time: the same outcomes, ledger and events as given at once",
        arguments: ["lru", "fifo", "s3-fifo", "arc", "gdsf", "lfu", "sieve", "largest-first", "apple"])
    func piecesRunAsWhole(policy: String) throws {
        let descriptor = try #require(PolicyRegistry.descriptor(named: policy))
        var random = SplitMix64(seed: 55)
        for round in 0..<6 {
            let (sizes, requests) = Self.trace(objects: 300, requests: 3_000, using: &random)
            let capacity = sizes.reduce(0, +) / Int64([4, 10, 25][round % 3])
            let events = round % 2 == 1
            let whole = try Self.run(
                descriptor, sizes: sizes, requests: requests, capacity: capacity, events: events, pieces: false,
                using: &random)
            let pieces = try Self.run(
                descriptor, sizes: sizes, requests: requests, capacity: capacity, events: events, pieces: true,
                using: &random)
            // The comparison could fail: the runs purged, and hit as well as missed.
            #expect(whole.ledger.purges > 0)
            #expect(whole.outcomes.contains(.hit) && whole.outcomes.contains(.miss))
            #expect(events == !whole.events.isEmpty)
            // The first difference, not the whole runs: they are thousands of entries long.
            #expect(Self.firstDifference(pieces.outcomes, whole.outcomes) == nil, "\(policy), round \(round)")
            #expect(Self.firstDifference(pieces.events, whole.events) == nil, "\(policy), round \(round)")
            #expect(pieces.ledger == whole.ledger, "\(policy), round \(round)")
            #expect(pieces.names == whole.names)
        }
    }

    @Test("A piece that fails the catalog's checks throws what the whole catalog would, and changes nothing")
    func failingPiece() throws {
        let device = ODRDevice(capacity: 10_000, policy: LRUPolicy())
        let catalog = try Catalog(numberedTags: [100, 200], names: [1, 2], profile: .ios17)
        let app = device.addApp(name: "trace", catalog: catalog)
        device.install(app, at: 0)
        let big = PlatformProfile.ios17.maxPackSize! + 1
        for (sizes, names) in [([Int64(5), -3], [UInt64(3), 4]), ([7, big], [5, 6])] {
            var expected: CatalogError?
            do { _ = try Catalog(numberedTags: [100, 200] + sizes, names: [1, 2] + names, profile: .ios17) } catch {
                expected = error
            }
            #expect(throws: try #require(expected)) {
                try device.appendPacks(sizes: sizes, names: names, to: app)
            }
            #expect(device.packCount == 2)
            #expect(device.catalog(of: app).packs.map(\.size) == [100, 200])
            #expect(device.catalog(of: app).tags.count == 2)
        }
        // Past the profile's pack count: 1,000 packs on iOS.
        let many = Array(repeating: Int64(1), count: 999)
        #expect(throws: CatalogError.tooManyPacks(count: 1_001, limit: 1_000, profile: "ios17")) {
            try device.appendPacks(sizes: many, names: many.indices.map { UInt64($0 + 10) }, to: app)
        }
        #expect(device.packCount == 2)
        // Within every limit, the packs arrive, requestable like the first ones.
        try device.appendPacks(sizes: [300], names: [9], to: app)
        #expect(device.access(app, tag: TagID(rawValue: 2), at: 1) == .miss)
        #expect(device.access(app, tag: TagID(rawValue: 2), at: 2) == .hit)
        #expect(device.catalog(of: app).tagID(named: "9") == TagID(rawValue: 2))
        // The app's packs include the new one: uninstalling it frees its bytes too.
        #expect(device.odrBytes == 300)
        #expect(device.uninstall(app, at: 3))
        #expect(device.odrBytes == 0)
        #expect(device.checkInvariants().isEmpty)
    }
}
