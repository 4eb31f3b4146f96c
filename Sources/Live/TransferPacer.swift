import NIOCore

/// Paces a server's writes to one shared rate, as a device's one link shares its bandwidth:
/// each chunk of body takes its bytes' time on the line, chunks of every connection one
/// after another, so that two transfers at once each get about half.
///
/// Touched only on the server's one event loop (hence unchecked sendability).
final class TransferPacer: @unchecked Sendable {
    /// Bytes a second; nil: as fast as the connection takes them.
    let rate: Double?
    /// When the line is free again.
    private var busyUntil = NIODeadline.uptimeNanoseconds(0)

    init(rate: Double?) {
        precondition(rate.map { $0 > 0 } ?? true, "a pacing rate is positive")
        self.rate = rate
    }

    /// When a chunk of `bytes` may be written (now, or later when the line is busy); the
    /// line is then busy for the chunk's time.
    func slot(for bytes: Int, now: NIODeadline = .now()) -> NIODeadline {
        guard let rate else { return now }
        let start = max(now, busyUntil)
        busyUntil = start + .nanoseconds(Int64((Double(bytes) / rate * 1e9).rounded(.up)))
        return start
    }
}
