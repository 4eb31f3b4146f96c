import Foundation
import ODRPolicies
import Testing

@testable import ODRCore

/// A pack's and a request's lives, as PackLife.swift's and RequestLife.swift's tables give
/// them: every life against every event, and one writer each (issue 28).
@Suite("Pack and request lives")
struct LifeTableTests {
    @Test("every pack life and event moves where the table says, and nowhere else")
    func packTable() {
        typealias E = PackLife.Event
        let events: [E] = [
            .startDownload, .finishDownload, .abandon(keptBytes: true), .abandon(keptBytes: false),
            .storeAtOnce, .purge, .uninstall,
        ]
        // The table, row by row (nil: the event cannot happen).
        let expected: [PackLife: [E: PackLife]] = [
            .notDownloaded: [
                .startDownload: .downloading(.notDownloaded), .storeAtOnce: .resident, .uninstall: .notDownloaded,
            ],
            .partial: [
                .startDownload: .downloading(.partial), .storeAtOnce: .resident, .purge: .purged,
                .uninstall: .notDownloaded,
            ],
            .resident: [.purge: .purged, .uninstall: .notDownloaded],
            .purged: [.startDownload: .downloading(.purged), .storeAtOnce: .resident, .uninstall: .notDownloaded],
            .downloading(.notDownloaded): [
                .finishDownload: .resident, .abandon(keptBytes: true): .partial,
                .abandon(keptBytes: false): .notDownloaded,
            ],
            .downloading(.partial): [
                .finishDownload: .resident, .abandon(keptBytes: true): .partial,
                .abandon(keptBytes: false): .partial,
            ],
            .downloading(.purged): [
                .finishDownload: .resident, .abandon(keptBytes: true): .partial,
                .abandon(keptBytes: false): .purged,
            ],
        ]
        for life in expected.keys {
            for event in events {
                #expect(life.after(event) == expected[life]?[event], "\(life) on \(event)")
            }
        }
    }

    @Test("every request life and event moves where the table says, and nowhere else")
    func requestTable() {
        typealias E = RequestLife.Event
        let events: [E] = [.begin, .pause, .resume, .grant, .end, .cancel]
        let expected: [RequestLife: [E: RequestLife]] = [
            .free: [.begin: .waiting(paused: false)],
            .waiting(paused: false): [.pause: .waiting(paused: true), .grant: .granted, .cancel: .free],
            .waiting(paused: true): [.resume: .waiting(paused: false), .grant: .granted, .cancel: .free],
            .granted: [.end: .free],
        ]
        for life in expected.keys {
            for event in events {
                #expect(life.after(event) == expected[life]?[event], "\(life) on \(event)")
            }
        }
    }

    @Test("the device's calls refuse what the request table refuses")
    func requestCalls() throws {
        let catalog = try Catalog(singleResourceTags: [(name: "a", size: 100), (name: "b", size: 100)])
        let device = ODRDevice(capacity: 1_000, policy: LRUPolicy())
        let app = device.addApp(name: "game", catalog: catalog)
        #expect(device.install(app, at: 0))
        guard case .waiting(let id) = device.beginAccessing(app, tag: TagID(rawValue: 0), at: 1) else {
            Issue.record("a miss waits")
            return
        }
        #expect(!device.resume(id, at: 1))  // waiting, not paused: resume does nothing
        #expect(device.pause(id, at: 1))
        #expect(!device.pause(id, at: 1))
        #expect(device.resume(id, at: 2))
        device.receive(100, for: device.pack(0, of: app), at: 3)
        #expect(device.isGranted(id))
        #expect(!device.pause(id, at: 3))  // granted: pause does nothing
        #expect(!device.cancel(id, at: 3))  // granted: cancel does nothing
        #expect(device.endAccessing(id, at: 4))
        #expect(!device.endAccessing(id, at: 4))  // free: ending again does nothing
        #expect(!device.isLive(id))
    }

    /// Every Swift file of ODRCore, with its text.
    static func coreSources() throws -> [(name: String, text: String)] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ODRCore")
        // Its folders by concern (Catalog/, Device/, Space/, …) included; names are file names.
        let paths = (FileManager.default.subpaths(atPath: directory.path) ?? []).filter { $0.hasSuffix(".swift") }
            .sorted()
        return try paths.map {
            (
                ($0 as NSString).lastPathComponent,
                try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
            )
        }
    }

    @Test(
        """
        a pack's phase, download slot, pins and retain are written in PackLife.swift only; a request's life in \
        RequestLife.swift only
        """
    )
    func oneWriter() throws {
        let sources = try Self.coreSources()
        #expect(sources.count > 20)
        // An assignment (=, +=, -=) to a pack record's field, or to a request record's life.
        let owner = #"(packs\[[^\]]+\]|packDetails\[[^\]]+\]|record|detail)"#
        let pack = try NSRegularExpression(pattern: owner + #"\.(phase|download|downloading|pins|retain)\s*[-+]?=[^=]"#)
        let request = try NSRegularExpression(pattern: #"requests\[[^\]]+\]\.life\s*=[^=]"#)
        var packWriters: Set<String> = []
        var requestWriters: Set<String> = []
        for (name, text) in sources {
            let range = NSRange(text.startIndex..., in: text)
            if pack.firstMatch(in: text, range: range) != nil { packWriters.insert(name) }
            if request.firstMatch(in: text, range: range) != nil { requestWriters.insert(name) }
        }
        #expect(packWriters == ["PackLife.swift"])
        #expect(requestWriters == ["RequestLife.swift"])
    }

    @Test("an app's share of the ledger is booked in one place: Ledger.swift's book functions (issue 49)")
    func oneBooker() throws {
        // A write to an app's ledger (+=, = max, …) beside the device's.
        let write = try NSRegularExpression(
            pattern: #"appLedgers\[[^\]]+\](\[keyPath: [^\]]+\]|\.\w+)[^\n=]*\s[-+]?=[^=]"#)
        var bookers: Set<String> = []
        for (name, text) in try Self.coreSources()
        where write.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
            bookers.insert(name)
        }
        #expect(bookers == ["Ledger.swift"])
        // The pattern finds the pairs it replaced.
        let pair = "if state.tracksApps { state.appLedgers[Int(app.rawValue)].hits += 1 }"
        #expect(write.firstMatch(in: pair, range: NSRange(pair.startIndex..., in: pair)) != nil)
    }

    @Test(
        """
        no raw pointer in the core but the two record tables: no .pointee and no address (issues 37, 49, 55; \
        RecordReference does it)
        """
    )
    func noPointersInTheDevice() throws {
        // Every file of the core but the two that own the raw memory.
        let owners: Set = ["RecordTable.swift", "PagedRecordTable.swift"]
        let device = try Self.coreSources().filter { !owners.contains($0.name) }
        #expect(device.count >= 40)
        for (name, text) in device {
            #expect(!text.contains(".pointee"), "\(name) reads or writes through .pointee")
            #expect(!text.contains("UnsafeMutablePointer"), "\(name) handles a raw pointer")
        }
    }

    @Test(
        """
        who makes room is decided in one file: the platform's evictor is read by RoomMaker.swift only, in the core \
        and every runtime module (issue 37)
        """
    )
    func oneRoomMaker() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var readers: Set<String> = []
        for module in ["ODRCore", "ODRPolicies", "Simulation", "Workload", "Experiments", "Metrics"] {
            let folder = sources.appendingPathComponent(module)
            for path in (FileManager.default.subpaths(atPath: folder.path) ?? []) where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                // Reading `.evictor`, `appEvictsWhenFull` or `systemRemovesForOtherData`; the
                // profile's own file declares and sets them.
                let reads = text.split(separator: "\n").contains { line in
                    !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                        && (line.contains(".evictor") || line.contains(".appEvictsWhenFull")
                            || line.contains(".systemRemovesForOtherData"))
                }
                if reads { readers.insert((path as NSString).lastPathComponent) }
            }
        }
        // Assumptions.swift (Experiments) reads the profile to say which undocumented choices
        // apply to a scenario and sets their alternatives on a copy; it makes no room.
        #expect(
            readers.subtracting(["PlatformProfile.swift", "Assumptions.swift"]) == ["RoomMaker.swift"],
            "\(readers.sorted())")
    }
}
