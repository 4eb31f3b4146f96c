import Foundation
import Metrics

/// What a pack server has served, counted as its writes complete, read from any thread
/// (`GET /stats`, and the server's last line).
public final class ServerStats: @unchecked Sendable {
    private let lock = NSLock()
    private var total: Int64 = 0
    private var requestCount = 0
    private var perPack: [PackKey: (requests: Int, bytes: Int64)] = [:]

    struct PackKey: Hashable, Comparable {
        let app: String
        let pack: String
        static func < (a: PackKey, b: PackKey) -> Bool { (a.app, a.pack) < (b.app, b.pack) }
    }

    public init() {}

    /// Body bytes of packs written to clients so far.
    public var bytesServed: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    /// Requests for packs answered so far (ranges and whole packs alike).
    public var requests: Int {
        lock.lock()
        defer { lock.unlock() }
        return requestCount
    }

    func request(app: String, pack: String) {
        lock.lock()
        defer { lock.unlock() }
        requestCount += 1
        perPack[PackKey(app: app, pack: pack), default: (0, 0)].requests += 1
    }

    func served(_ bytes: Int, app: String, pack: String) {
        lock.lock()
        defer { lock.unlock() }
        total += Int64(bytes)
        perPack[PackKey(app: app, pack: pack), default: (0, 0)].bytes += Int64(bytes)
    }

    /// Bytes of `pack` of `app` served so far.
    public func bytesServed(app: String, pack: String) -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        return perPack[PackKey(app: app, pack: pack)]?.bytes ?? 0
    }

    /// `GET /stats`: `{"bytes_served": N, "requests": N, "packs": [{"app", "pack", "requests",
    /// "bytes_served"}, …]}`, packs sorted by app and pack, written as every JSON of odr-sim is
    /// (``Metrics/JSONText``).
    public var json: String {
        lock.lock()
        defer { lock.unlock() }
        let packs = perPack.keys.sorted().map { key in
            JSONText.object([
                ("app", JSONText.string(key.app)), ("pack", JSONText.string(key.pack)),
                ("requests", String(perPack[key]!.requests)), ("bytes_served", String(perPack[key]!.bytes)),
            ])
        }
        return JSONText.object([
            ("bytes_served", String(total)), ("requests", String(requestCount)), ("packs", JSONText.array(packs)),
        ])
    }
}
