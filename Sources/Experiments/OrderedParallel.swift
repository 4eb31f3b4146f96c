import Dispatch
import Foundation

/// Work over `0..<count` on several threads whose result does not depend on how many: the
/// range is cut into contiguous chunks, and the chunks' results are joined in order.
///
/// A study's serial end (its files, its comparisons) uses it so that it, too, scales with
/// `--jobs`, and stays byte-identical at any `--jobs`.
public enum OrderedParallel {
    /// `body` over chunks of `0..<count` (of `grain` at least, 4 per thread at most) on up to
    /// `jobs` threads; the chunks' arrays joined in order. The first chunk's error, in chunk
    /// order, is thrown.
    public static func map<T>(
        _ count: Int, jobs: Int, grain: Int = 2_048, _ body: @Sendable (Range<Int>) throws -> [T]
    ) throws -> [T] {
        // Four chunks a thread balance uneven chunks; `jobs` may be any positive number.
        let chunks = jobs <= 1 ? 1 : max(1, min(jobs > count ? count : jobs * 4, count / max(1, grain)))
        guard chunks > 1 else { return try body(0..<count) }
        let parts = Parts<T>(chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let range = (count * c / chunks)..<(count * (c + 1) / chunks)
            parts.set(c, Result { try body(range) })
        }
        var joined: [T] = []
        for part in parts.values { joined += try part!.get() }
        return joined
    }

    /// Each of `tasks` on up to `jobs` threads, their results in the tasks' order.
    public static func each<T>(_ tasks: [@Sendable () throws -> T], jobs: Int) throws -> [T] {
        try map(tasks.count, jobs: jobs, grain: 1) { range in try range.map { try tasks[$0]() } }
    }

    /// Per chunk, its result, set from the chunk's thread.
    private final class Parts<T>: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var values: [Result<[T], any Error>?]

        init(_ count: Int) { values = Array(repeating: nil, count: count) }

        func set(_ chunk: Int, _ result: Result<[T], any Error>) {
            lock.lock()
            values[chunk] = result
            lock.unlock()
        }
    }
}
