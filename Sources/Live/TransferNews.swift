/// What the transfers report to a live run's loop, from the event loop that runs them.
enum TransferNews: Sendable {
    /// `bytes` more of the pack were written to its file (at the end of what was there).
    case wrote(slot: Int, bytes: Int64)
    /// The server answered: the pack version's tag (its digest, from odr-sim's server).
    case answered(slot: Int, etag: String?)
    /// The response ended with every byte asked for.
    case ended(slot: Int)
    /// The transfer stopped short: why, and whether the disk was full (ENOSPC).
    case failed(slot: Int, reason: String, diskFull: Bool)
}
