import Quantities
import Simulation

/// Which share of a plan's runs one task of a cluster job runs: shard `k` of `n` (`K/N` on the
/// command line), for `sweep` and `advise` alike.
///
/// Parsing bounds `n` by ``ModelLimits/studyRuns`` before anything is allocated, and
/// ``checked(runs:option:)`` bounds it by the runs there are to share, so that no value of
/// `--shard` can allocate per-shard state beyond the work (`1/9223372036854775807`), or start
/// shards that would wait for partners that can never have work (`1/1000000`).
public struct ShardPosition: Sendable, Equatable, CustomStringConvertible {
    /// This shard, 1 … ``count``.
    public let index: Int
    /// How many shards share the runs.
    public let count: Int

    /// `K/N` with 1 ≤ K ≤ N ≤ ``ModelLimits/studyRuns``, digits only; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({
                !$0.isEmpty && $0.utf8.count <= 9 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber)
            }),
            let k = Int(parts[0]), let n = Int(parts[1]), (1...ModelLimits.studyRuns).contains(n), (1...n).contains(k)
        else { return nil }
        index = k
        count = n
    }

    public var description: String { "\(index)/\(count)" }

    /// What `--shard` must look like, for its error.
    public static let syntax = "K/N with 1 ≤ K ≤ N ≤ \(ModelLimits.studyRuns), such as 2/4"

    /// This position if `runs` can be split into ``count`` shards, else the one-line reason.
    public func checked(runs: Int, option: String = "--shard", what: String = "runs") -> Result<
        ShardPosition, ShardCountError
    > {
        // `--missing N` is shard 1 of N: it shows N as it was written.
        let shown = option == "--missing" ? "\(count)" : "\(self)"
        return count <= runs
            ? .success(self)
            : .failure(
                ShardCountError(
                    message: "\(option) \(shown): there are \(runs) \(what) to share, so at most \(runs) shards"))
    }

    /// `--shard K/N`, or `--missing N` (shard 1 of N) with `option` "--missing", read and
    /// checked against the `runs` it shares: the position, or the one line why not, naming the
    /// option as written.
    public static func checked(_ text: String, runs: Int, what: String, option: String = "--shard") -> Result<
        ShardPosition, ShardCountError
    > {
        let missing = option == "--missing"
        guard let position = ShardPosition(missing ? "1/" + text : text) else {
            let rule =
                missing ? "a whole number of shards from 1 to \(ModelLimits.studyRuns)" : syntax
            return .failure(ShardCountError(message: "\(option) must be \(rule), not '\(text)'"))
        }
        return position.checked(runs: runs, option: option, what: what)
    }
}

/// A shard count larger than the work it shares.
public struct ShardCountError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
