import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One transfer: a `GET` of a pack version from `offset` on (a `Range` request past 0, with
/// the version's `If-Range` tag when one is known), its body written to the end of the
/// pack's part file as it arrives, and each step posted to the live run's ``TransferInbox``.
///
/// A resumed transfer must get `206` starting at its offset: a server that sends the whole
/// pack again instead (no ranges, or another version under the same name) fails it, so no
/// byte already on disk is fetched twice and no file joins two versions.
final class PackFetchHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let id: Int
    private let request: PackFetcher.Request
    private let file: Int32
    private let inbox: TransferInbox
    private var position: Int64
    private var over = false
    private var fileClosed = false

    init(id: Int, request: PackFetcher.Request, file: Int32, inbox: TransferInbox) {
        self.id = id
        self.request = request
        self.file = file
        self.inbox = inbox
        position = request.offset
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: request.hostHeader)
        headers.add(name: "User-Agent", value: "odr-sim-live")
        headers.add(name: "Connection", value: "close")
        if request.offset > 0 {
            headers.add(name: "Range", value: "bytes=\(request.offset)-")
            if let tag = request.ifRange { headers.add(name: "If-Range", value: tag) }
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: request.path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !over else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            let resumed = request.offset > 0
            let expected: HTTPResponseStatus = resumed ? .partialContent : .ok
            let range = head.headers.first(name: "Content-Range")
            if head.status != expected || (resumed && range?.hasPrefix("bytes \(request.offset)-") != true) {
                return fail("the server answered \(head.status.code) \(head.status.reasonPhrase)", context: context)
            }
            inbox.post(.answered(slot: id, etag: head.headers.first(name: "ETag")))
        case .body(let buffer):
            let count = buffer.readableBytes
            let failure: Int32? = buffer.withUnsafeReadableBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let n = pwrite(file, bytes.baseAddress! + done, bytes.count - done, off_t(position) + off_t(done))
                    if n < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    done += n
                }
                return nil
            }
            if let failure {
                let reason = String(cString: strerror(failure))
                over = true
                inbox.post(.failed(slot: id, reason: "writing \(request.file): \(reason)", diskFull: failure == ENOSPC))
                context.close(promise: nil)
                return
            }
            position += Int64(count)
            inbox.post(.wrote(slot: id, bytes: Int64(count)))
        case .end:
            over = true
            inbox.post(.ended(slot: id))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        fail("\(error)", context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !over {
            over = true
            inbox.post(.failed(slot: id, reason: "the server closed the connection", diskFull: false))
        }
        context.fireChannelInactive()
    }

    /// The part file is closed when the connection's pipeline goes, however it went.
    func handlerRemoved(context: ChannelHandlerContext) {
        guard !fileClosed else { return }
        fileClosed = true
        close(file)
    }

    private func fail(_ reason: String, context: ChannelHandlerContext) {
        guard !over else { return }
        over = true
        inbox.post(.failed(slot: id, reason: reason, diskFull: false))
        context.close(promise: nil)
    }
}
