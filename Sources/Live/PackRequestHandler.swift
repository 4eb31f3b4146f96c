import NIOCore
import NIOHTTP1

/// Answers one connection's requests to a pack server: `GET` or `HEAD` of a pack version
/// (``PackPath``), whole or one byte range, and `GET /stats`.
///
/// - A pack: `200` with the whole content, or `206` with the one range a `Range: bytes=…`
///   asks (`A-B`, `A-`, or the last `N` as `-N`); several ranges, or a range it cannot read,
///   get the whole pack (RFC 9110 lets a server ignore `Range`); a range starting past the end
///   `416`. `ETag` is the content's digest (``PackDigest/etag(_:)``); an `If-Range` naming
///   another tag gets the whole pack. `Accept-Ranges: bytes`.
/// - `/stats`: ``ServerStats/json``.
/// - Anything else `404`; a method other than `GET` and `HEAD` `405`.
///
/// The body is written in chunks of ``chunkSize``, each when the ``TransferPacer`` lets it
/// and the previous one was written, so a slow reader slows the writes (no pack is held in
/// memory) and a closed connection stops them.
final class PackRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Bytes per written chunk: also the most a killed client can have been sent and not
    /// have written (its own buffer aside).
    static let chunkSize = 64 << 10

    private let packs: ServedPacks
    private let stats: ServerStats
    private let pacer: TransferPacer
    private let digests: DigestCache
    private var head: HTTPRequestHead?
    /// The body being written: its content, the next byte and the end (exclusive).
    private var body: (content: PackContent, next: Int64, end: Int64, keepAlive: Bool)?
    private var open = true

    init(packs: ServedPacks, stats: ServerStats, pacer: TransferPacer, digests: DigestCache) {
        self.packs = packs
        self.stats = stats
        self.pacer = pacer
        self.digests = digests
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        open = false
        body = nil
        context.fireChannelInactive()
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        guard head.method == .GET || head.method == .HEAD else {
            return reply(.methodNotAllowed, text: "GET or HEAD\n", keepAlive: keepAlive, context: context)
        }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        if path == "/stats" {
            return reply(.ok, text: stats.json + "\n", type: "application/json", keepAlive: keepAlive, context: context)
        }
        guard let named = PackPath.parse(path),
            let content = packs.content(app: named.app, pack: named.pack, version: named.version)
        else { return reply(.notFound, text: "no such pack\n", keepAlive: keepAlive, context: context) }
        stats.request(app: named.app, pack: named.pack)
        let etag = PackDigest.etag(digests.digest(of: content))
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Accept-Ranges", value: "bytes")
        headers.add(name: "Content-Type", value: "application/octet-stream")
        var status = HTTPResponseStatus.ok
        var start: Int64 = 0
        var end = content.size
        let ifRange = head.headers.first(name: "If-Range")
        if let range = head.headers.first(name: "Range"), ifRange == nil || ifRange == etag {
            switch Self.range(range, size: content.size) {
            case .whole: break
            case .unsatisfiable:
                headers.add(name: "Content-Range", value: "bytes */\(content.size)")
                return reply(.rangeNotSatisfiable, text: "", headers: headers, keepAlive: keepAlive, context: context)
            case .part(let from, let to):
                status = .partialContent
                (start, end) = (from, to)
                headers.add(name: "Content-Range", value: "bytes \(from)-\(to - 1)/\(content.size)")
            }
        }
        headers.add(name: "Content-Length", value: String(end - start))
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        if head.method == .HEAD || start == end {
            finish(keepAlive: keepAlive, context: context)
            return
        }
        body = (content, start, end, keepAlive)
        sendNext(context: context)
    }

    /// A `Range` header's meaning for a pack of `size` bytes.
    enum RangeAsked: Equatable {
        case whole
        case unsatisfiable
        /// Bytes `from` up to `to`, exclusive.
        case part(Int64, Int64)
    }

    static func range(_ header: String, size: Int64) -> RangeAsked {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst(6)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int64(last), suffix > 0 else { return .whole }
            return size == 0 ? .unsatisfiable : .part(max(0, size - suffix), size)
        }
        guard let from = Int64(first), from >= 0 else { return .whole }
        guard from < size else { return .unsatisfiable }
        if last.isEmpty { return .part(from, size) }
        guard let to = Int64(last), to >= from else { return .whole }
        return .part(from, min(to, size - 1) + 1)
    }

    private func sendNext(context: ChannelHandlerContext) {
        guard open, let body else { return }
        let count = Int(min(Int64(Self.chunkSize), body.end - body.next))
        let at = pacer.slot(for: count)
        // Always through the event loop, never a direct call: a write to a socket with room
        // completes at once, so calling on would nest one frame per chunk (a stack overflow
        // some thousands of chunks into an unpaced pack).
        if at > .now() {
            context.eventLoop.assumeIsolated().scheduleTask(deadline: at) { self.writeChunk(count, context: context) }
        } else {
            context.eventLoop.assumeIsolated().execute { self.writeChunk(count, context: context) }
        }
    }

    private func writeChunk(_ count: Int, context: ChannelHandlerContext) {
        guard open, let body else { return }
        var buffer = context.channel.allocator.buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            body.content.fill(UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]), from: body.next)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))))
        written.assumeIsolated().whenSuccess {
            self.stats.served(count, app: body.content.app, pack: body.content.pack)
            guard self.open, var current = self.body else { return }
            current.next += Int64(count)
            self.body = current
            if current.next == current.end {
                self.body = nil
                self.finish(keepAlive: current.keepAlive, context: context)
            } else {
                self.sendNext(context: context)
            }
        }
    }

    private func reply(
        _ status: HTTPResponseStatus, text: String, type: String = "text/plain; charset=utf-8",
        headers: HTTPHeaders = HTTPHeaders(), keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var headers = headers
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !text.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
            buffer.writeString(text)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        finish(keepAlive: keepAlive, context: context)
    }

    private func finish(keepAlive: Bool, context: ChannelHandlerContext) {
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
    }
}
