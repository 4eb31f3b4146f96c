import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a live run's transfers on one event loop of its own (SwiftNIO's HTTP/1.1 client):
/// each one a connection, a `GET` and the body written to a part file (``PackFetchHandler``),
/// news of it posted to the run's ``TransferInbox``.
final class PackFetcher: @unchecked Sendable {
    /// What one transfer asks the server for, and where its bytes go.
    struct Request: Sendable {
        let host: String
        let port: Int
        let path: String
        /// The byte to start from: what the part file already holds.
        let offset: Int64
        let ifRange: String?
        /// The part file's absolute path (opened for writing, not created: the folder made it).
        let file: String

        var hostHeader: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    let inbox = TransferInbox()
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channels: [Int: EventLoopFuture<Channel>] = [:]
    private var nextID = 0

    /// Starts a transfer; its news comes under the returned ID. A part file that cannot be
    /// opened is a failure at once, posted as news too.
    func start(_ request: Request) -> Int {
        nextID += 1
        let id = nextID
        let file = open(request.file, O_WRONLY)
        guard file >= 0 else {
            let reason = String(cString: strerror(errno))
            inbox.post(.failed(slot: id, reason: "cannot open \(request.file): \(reason)", diskFull: false))
            return id
        }
        let inbox = inbox
        let bootstrap = ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        PackFetchHandler(id: id, request: request, file: file, inbox: inbox))
                }
            }
        let connecting = bootstrap.connect(host: request.host, port: request.port)
        connecting.whenFailure { error in
            inbox.post(.failed(slot: id, reason: "cannot connect to \(request.hostHeader): \(error)", diskFull: false))
        }
        channels[id] = connecting
        return id
    }

    /// Stops transfer `id` (its connection closes; what it wrote stays written). News it
    /// posted before may still arrive: the run ignores news of a transfer it stopped.
    func stop(_ id: Int) {
        guard let channel = channels.removeValue(forKey: id) else { return }
        channel.whenSuccess { $0.close(promise: nil) }
    }

    /// Forgets a transfer that ended by itself.
    func forget(_ id: Int) { channels[id] = nil }

    /// Stops every transfer and the event loop.
    func shutdown() {
        for id in Array(channels.keys) { stop(id) }
        try? group.syncShutdownGracefully()
    }
}
