import Foundation

/// The mailbox between the transfers' event loop and a live run's loop: news is posted from
/// any thread, and the loop takes all of it at once, waiting until a deadline when there is
/// none.
final class TransferInbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var news: [TransferNews] = []

    func post(_ item: TransferNews) {
        condition.lock()
        news.append(item)
        condition.signal()
        condition.unlock()
    }

    /// Everything posted so far, waiting until the monotonic instant `deadline` if nothing
    /// is (an empty list then).
    func take(waitingUntil deadline: Double) -> [TransferNews] {
        condition.lock()
        defer { condition.unlock() }
        while news.isEmpty {
            let left = deadline - LiveClock.monotonic()
            guard left > 0 else { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(left, 3600)))
        }
        let taken = news
        news.removeAll()
        return taken
    }
}
