import Experiments
import SafeOutput

extension ShardPosition {
    /// `--shard K/N`, or `--missing N` with `option` "--missing", as a command reads it
    /// (``checked(_:runs:what:option:)``): nil when not given; a usage error, in one line,
    /// when it is not K/N or shares more shards than the `runs` there are.
    public static func option(_ text: String?, _ option: String, runs: Int, what: String) throws(CommandFailure)
        -> ShardPosition?
    {
        guard let text else { return nil }
        switch checked(text, runs: runs, what: what, option: option) {
        case .success(let position): return position
        case .failure(let error): throw CommandFailure.usage(error.message)
        }
    }
}
