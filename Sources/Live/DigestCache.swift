import Foundation

/// The digests of the pack versions a server has served, each computed once (generating a
/// pack's content costs its length).
final class DigestCache: @unchecked Sendable {
    private let lock = NSLock()
    private var digests: [PackContent: UInt64] = [:]

    func digest(of content: PackContent) -> UInt64 {
        lock.lock()
        if let known = digests[content] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let digest = content.digest
        lock.lock()
        digests[content] = digest
        lock.unlock()
        return digest
    }
}
