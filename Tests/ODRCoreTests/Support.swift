import Testing

@testable import ODRCore

/// The spec's decimal units: 1 MB = 10^6 bytes, 1 GB = 10^9 bytes.
// The unit's own symbol, as the spec writes sizes (1 MB).
// swift-format-ignore: AlwaysUseLowerCamelCase
let MB: Int64 = 1_000_000
// The unit's own symbol, as the spec writes sizes (1 GB).
// swift-format-ignore: AlwaysUseLowerCamelCase
let GB: Int64 = 1_000_000_000

/// A catalog where each resource is named after its tags; `(tags, size)` pairs in order.
/// `["A"]` alone gives the pack "A"; `["A", "B"]` gives the shared pack "A+B".
func makeCatalog(
    _ resources: [([String], Int64)],
    settings: [String: TagSettings] = [:],
    profile: PlatformProfile = .unlimited
) throws -> Catalog {
    var seen: [String: Int] = [:]
    let list = resources.map { tags, size in
        let base = tags.joined(separator: "+")
        let n = seen[base, default: 0]
        seen[base] = n + 1
        return Resource(name: n == 0 ? base : "\(base)#\(n)", size: size, tags: tags)
    }
    return try Catalog(resources: list, tagSettings: settings, profile: profile)
}

extension Catalog {
    /// The index of the pack called `name` (tag names joined by `+`).
    func packIndex(named name: String) -> Int? {
        packs.firstIndex { $0.name == name }
    }
}

extension ODRDevice {
    /// The tag called `name` in `app`'s catalog (the test fails on a typo).
    func tag(_ name: String, of app: AppID) -> TagID {
        guard let id = catalog(of: app).tagID(named: name) else {
            Issue.record("no tag \(name)")
            return TagID(rawValue: -1)
        }
        return id
    }

    /// The device-wide ID of the pack called `name` (its tags joined by `+`) of `app`.
    func pack(_ name: String, of app: AppID) -> PackID {
        guard let index = catalog(of: app).packIndex(named: name) else {
            Issue.record("no pack \(name)")
            return PackID(rawValue: -1)
        }
        return pack(index, of: app)
    }

    /// An installed app (no initial-install packs, so installing completes at once).
    func installedApp(
        _ name: String, _ catalog: Catalog, at time: Double = 0,
        running: Bool = false, allowsCellular: Bool = true, lowDisk: LowDiskResponse = .ignore
    ) -> AppID {
        let app = addApp(name: name, catalog: catalog, allowsCellular: allowsCellular, lowDiskResponse: lowDisk)
        install(app, at: time)
        if running { launch(app, at: time) }
        return app
    }

    /// Plays an ideal network: delivers every runnable download in full, one after another,
    /// until no runnable download is left (prefetch chains included).
    func deliverAll(at time: Double) {
        while let d = downloads().first(where: \.isRunnable) {
            receive(d.remaining, for: d.pack, at: time)
        }
    }

    /// Begins a request on `tags` and delivers everything it needs; returns the granted request.
    func use(_ app: AppID, _ tags: [String], optional: Bool = false, at time: Double) -> RequestID? {
        let outcome = beginAccessing(app, tags: tags.map { tag($0, of: app) }, optional: optional, at: time)
        deliverAll(at: time)
        guard let id = outcome.request, isGranted(id) else {
            Issue.record("request for \(tags) was not granted: \(outcome)")
            return nil
        }
        return id
    }

    /// Downloads `tags` and ends access right away: the packs stay on the device, released.
    func useAndRelease(_ app: AppID, _ tags: [String], at time: Double) {
        if let id = use(app, tags, at: time) { endAccessing(id, at: time) }
    }

    /// The kinds of the events recorded so far.
    var eventKinds: [ODREvent.Kind] { events.map(\.kind) }

    /// Packs purged, per the events recorded so far.
    var purgedPacks: [PackID] {
        events.compactMap { if case .packPurged(let p, _, _, _) = $0.kind { p } else { nil } }
    }

    /// Packs whose download started, per the events recorded so far.
    var startedPacks: [PackID] {
        events.compactMap { if case .downloadStarted(let p, _, _, _, _) = $0.kind { p } else { nil } }
    }
}
