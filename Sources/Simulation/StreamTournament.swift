/// The merger's agenda: a fixed set of streams, each with the time of its next event; the
/// earliest wins, and among equal times the first `ranked` streams in index order (the
/// network phases, then the scripted events), then the one scheduled first.
///
/// A tournament (loser) tree: each inner node keeps the loser of the match played there, so
/// giving the winner a new time replays only the matches on its path to the root, one
/// comparison per level. (A binary heap does two per level; the merger replaces the winner's
/// time for almost every event of a run.) A finished stream stays in the tree with an
/// infinite time and loses every match.
///
/// Storage is allocated once, of plain values, and written through pointers: no
/// copy-on-write checks in the loop.
final class StreamTournament {
    /// (time, sequence) as one unsigned integer whose order is theirs: the time's bits mapped
    /// to an order-preserving integer above, the sequence below. A match is then a single
    /// branch-free comparison.
    private typealias Key = UInt128

    private static func key(_ time: Double, _ sequence: UInt64) -> Key {
        // Non-negative doubles order as their bit patterns; negative ones in reverse. Adding
        // +0 turns -0 into +0, equal times must make equal keys.
        let bits = (time + 0).bitPattern
        let ordered = bits >> 63 == 0 ? bits | 1 << 63 : ~bits
        return Key(ordered) << 64 | Key(sequence)
    }

    /// A finished stream's key: after every event.
    private static var finished: Key { .max }

    let count: Int
    /// Each stream's key.
    private let keys: UnsafeMutablePointer<Key>
    /// `losers[0]` is the winner; `losers[n]` (1 ≤ n < count) the loser of inner node n,
    /// whose children are nodes 2n and 2n+1; stream s is the leaf `count + s`.
    private let losers: UnsafeMutablePointer<Int32>
    private var nextSequence: UInt64
    /// Streams below this index keep their index as their sequence, so they win ties.
    private let ranked: Int

    /// Streams `0..<times.count` with their first times (nil: finished), scheduled in index
    /// order; the first `ranked` win every tie, in index order.
    init(times: [Double?], ranked: Int = 1) {
        count = times.count
        self.ranked = ranked
        keys = .allocate(capacity: max(count, 1))
        losers = .allocate(capacity: max(count, 1))
        for (s, time) in times.enumerated() {
            (keys + s).initialize(to: time.map { Self.key($0, UInt64(s)) } ?? Self.finished)
        }
        nextSequence = UInt64(count)
        guard count > 0 else { return }
        // Play every match bottom-up; `winners[n]` is the winner below node n.
        var winners = [Int32](repeating: 0, count: 2 * count)
        for s in 0..<count { winners[count + s] = Int32(s) }
        var node = count - 1
        while node >= 1 {
            let (a, b) = (winners[2 * node], winners[2 * node + 1])
            let aWins = keys[Int(a)] < keys[Int(b)]
            winners[node] = aWins ? a : b
            losers[node] = aWins ? b : a
            node -= 1
        }
        losers[0] = count == 1 ? 0 : winners[1]
    }

    deinit {
        keys.deallocate()
        losers.deallocate()
    }

    /// The winning stream, if any stream has an event left.
    var winner: Int? {
        guard count > 0 else { return nil }
        let winner = Int(losers[0])
        return keys[winner] == Self.finished ? nil : winner
    }

    /// Gives the winning stream a new time (and a new place in scheduling order). A ranked
    /// stream keeps its index as its sequence, so it wins every tie against the others:
    /// network phases and scripted events run before generated ones at equal times, all of
    /// them, as the scenario lists them.
    func replaceTop(at time: Double) {
        let winner = Int(losers[0])
        keys[winner] = Self.key(time, winner < ranked ? UInt64(winner) : nextSequence)
        nextSequence &+= 1
        replay(from: winner)
    }

    /// The winning stream has no more events.
    func finishTop() {
        let winner = Int(losers[0])
        keys[winner] = Self.finished
        replay(from: winner)
    }

    private func replay(from stream: Int) {
        var current = Int32(stream)
        var key = keys[stream]
        var node = (count + stream) >> 1
        while node >= 1 {
            let other = losers[node]
            let otherKey = keys[Int(other)]
            // Performance: masks rather than a branch; which side wins is a coin toss to
            // the branch predictor, and a mispredicted branch per level cost more than the
            // comparisons.
            let otherWins: Int32 = otherKey < key ? 1 : 0
            let mask = 0 &- otherWins
            let wide = Key(0) &- Key(UInt32(otherWins))
            losers[node] = current & mask | other & ~mask
            current = other & mask | current & ~mask
            key = otherKey & wide | key & ~wide
            node >>= 1
        }
        losers[0] = current
    }
}
