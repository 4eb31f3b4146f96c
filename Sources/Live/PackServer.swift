import NIOCore
import NIOHTTP1
import NIOPosix

/// `odr-sim serve`: an HTTP/1.1 server of a scenario's packs on one event loop (SwiftNIO):
/// each pack version at ``PackPath/url(app:pack:version:)`` as ``PackContent``, with byte
/// ranges and `ETag`s (``PackRequestHandler``), paced to one shared rate if asked, and
/// ``ServerStats`` at `GET /stats`.
///
/// SwiftNIO rather than a framework (Hummingbird, Vapor): a byte-range file server needs no
/// routing, middleware or async bodies, and NIO alone is the smaller build. It binds to
/// 127.0.0.1 unless told another address: the packs are for a rehearsal on this machine.
///
/// ```swift
/// let server = try PackServer(packs: ServedPacks(scenario), port: 0)
/// print(server.port)   // the port the system chose
/// server.stop()
/// ```
public final class PackServer: @unchecked Sendable {
    public let host: String
    /// The port it listens on (the one the system chose, for port 0).
    public let port: Int
    public let stats = ServerStats()
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    /// Starts serving `packs` on `host`:`port` (0: any free port), pacing every body to
    /// `rate` bytes a second in all if given.
    /// - Throws: the system's error when the address cannot be bound (in use, not this
    ///   machine's), as a ``LiveError``.
    public init(packs: ServedPacks, host: String = "127.0.0.1", port: Int, rate: Double? = nil) throws(LiveError) {
        self.host = host
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let stats = stats
        let pacer = TransferPacer(rate: rate)
        let digests = DigestCache()
        // Every pack's first version named before the first request, so that no response
        // waits for its digest (a later version's is computed when first asked for).
        for (app, pack) in packs.all {
            if let content = packs.content(app: app, pack: pack, version: 1) { _ = digests.digest(of: content) }
        }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        PackRequestHandler(packs: packs, stats: stats, pacer: pacer, digests: digests))
                }
            }
        do {
            channel = try bootstrap.bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw LiveError("cannot listen on \(host):\(port): \(error)")
        }
        self.group = group
        self.port = channel.localAddress?.port ?? port
    }

    /// The server's base URL, `http://HOST:PORT`.
    public var url: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    /// Stops listening, closes every connection and ends the event loop.
    public func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}
