import Experiments
import Foundation
import Metrics
import TextInput

/// An advise shared among the shards of a cluster job: each shard runs its share of every
/// round's runs, writes them to a folder all shards see, and reads the others' shares back,
/// so that every shard holds the whole round and takes the same next step.
///
/// A local search is a chain of rounds, each depending on the one before, so unlike a sweep's
/// shards these work in lockstep (bulk-synchronous): all `count` shards must run at once (a
/// Slurm job of that many tasks, `srun --ntasks N`), and each waits at the end of a round for
/// the others. Runs are shared as ``ExperimentPlan/shard(_:of:)`` shares a sweep's (balanced
/// by cost), and results travel with every digit of their doubles, so the search, and what
/// shard 1 writes, is byte for byte the one a single machine makes.
///
/// ```text
/// # odr-sim advise shard 2/4 version=0.1.0 key=5b0e… round=3 runs=11 total=42 rows=9d41…
/// index,point,bound,policy,replication,seed,scenario_hash,v1,v2,…
/// ```
///
/// A file is named by the advise's key (a digest of the scenario, every option that changes
/// a result and odr-sim's version), its round and its shard, and written whole (a temporary
/// name, then a rename); a file of the same name from an identical earlier advise holds the
/// same numbers, as runs are deterministic. `rows=` is a digest (``TextDigest``) of everything
/// after the first line: a file edited or cut short since it was written, one of another
/// version, or one whose numbers are not finite is refused with one line naming it. The
/// exchange never writes over a file that is not one of its own.
public struct AdviceExchange: Sendable {
    public let shard: Int
    public let count: Int
    public let folder: URL
    /// What identifies this advise: a digest of its inputs and options.
    public let key: String
    /// Seconds a shard waits for the others' share of a round before giving up.
    public var timeout: Double
    /// Seconds between looks at the folder while waiting.
    public var poll: Double = 0.05

    static let marker = "# odr-sim advise shard "

    /// The version written into, and required of, every file (odr-sim's).
    public var version: String

    /// The key of an advise: a digest of everything that changes a result (the scenario's
    /// text, every option, the shard count and the version), so that two different advises
    /// sharing a folder never read each other's runs.
    public static func key(of parts: [String]) -> String { TextDigest.of(parts.joined(separator: "\u{0}")) }

    public init(shard: Int, count: Int, folder: URL, key: String, timeout: Double = 3600, version: String = "") {
        precondition(count >= 1 && (1...count).contains(shard), "shard \(shard) of \(count)")
        self.shard = shard
        self.count = count
        self.folder = folder
        self.key = key
        self.timeout = timeout
        self.version = version
    }

    /// One run's answer, as the advisor reads it.
    public struct Outcome: Sendable, Equatable {
        public let point: Int
        public let summary: SummaryRow
        public let bound: Int64?

        public init(point: Int, summary: SummaryRow, bound: Int64?) {
            self.point = point
            self.summary = summary
            self.bound = bound
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case notOurs(String)
        case timedOut(String)
        case malformed(String)
        case writeFailed(String)

        public var description: String {
            switch self {
            case .notOurs(let s), .timedOut(let s), .malformed(let s), .writeFailed(let s): return s
            }
        }
    }

    func fileName(round: Int, shard: Int) -> String {
        "advise-\(key)-round-\(round)-shard-\(shard)-of-\(count).csv"
    }

    /// Every run of `plan` in plan order: this shard's share from `run` (given the run
    /// indices), the others' read from the folder once they are there.
    func share(
        _ plan: ExperimentPlan, round: Int,
        run: ([Int]) throws -> [(index: Int, outcome: Outcome)]
    ) throws -> [Outcome] {
        let mine = plan.shard(shard, of: count)
        let done = try mine.isEmpty ? [] : run(mine)
        try write(done, round: round, total: plan.runs.count)
        var outcomes = [Outcome?](repeating: nil, count: plan.runs.count)
        for (index, outcome) in done { outcomes[index] = outcome }
        for other in 1...count where other != shard {
            for (index, outcome) in try read(round: round, shard: other, total: plan.runs.count) {
                guard outcomes.indices.contains(index), plan.runs[index].point == outcome.point,
                    plan.runs[index].replication == outcome.summary.replication
                else {
                    throw Failure.malformed(
                        """
                        \(path(round: round, shard: other)): run \(index) is not one of the round's \
                        \(plan.runs.count) as this advise plans them
                        """
                    )
                }
                outcomes[index] = outcome
            }
        }
        if let missing = outcomes.firstIndex(where: { $0 == nil }) {
            throw Failure.malformed(
                """
                round \(round): no shard ran run \(missing) of \(plan.runs.count) (were the shards started with \
                different --shard counts?)
                """
            )
        }
        return outcomes.map { $0! }
    }

    func path(round: Int, shard: Int) -> String {
        folder.appendingPathComponent(fileName(round: round, shard: shard)).path
    }

    private func write(_ done: [(index: Int, outcome: Outcome)], round: Int, total: Int) throws {
        let target = path(round: round, shard: shard)
        if let existing = PathBytes.contents(target),
            !String(decoding: existing.prefix(Self.marker.utf8.count), as: UTF8.self).hasPrefix(Self.marker)
        {
            throw Failure.notOurs("\(target) exists and odr-sim did not write it; choose another folder for the shards")
        }
        let text = Self.render(done, shard: shard, count: count, version: version, key: key, round: round, total: total)
        // Written whole under a temporary name of odr-sim's form (`.NAME.tmp-exchange-PID`, which
        // the folder's claim knows), then renamed: a reader never sees half a file.
        let temporary = folder.appendingPathComponent(
            ".\(fileName(round: round, shard: shard)).tmp-exchange-\(getpid())")
        do {
            try PathBytes.makeFolders(folder.path)
            do {
                PathBytes.remove(temporary.path)
                try PathBytes.create(temporary.path, Data(text.utf8))
                try PathBytes.rename(temporary.path, target)
            } catch {
                PathBytes.remove(temporary.path)
                throw error
            }
        } catch {
            throw Failure.writeFailed("\(target): \(error.localizedDescription)")
        }
    }

    /// The text of shard `shard`/`count`'s file for round `round`: its first line (with the
    /// digest of the rest), the header and one line per run.
    public static func render(
        _ done: [(index: Int, outcome: Outcome)], shard: Int, count: Int, version: String, key: String,
        round: Int, total: Int
    ) -> String {
        var text = "index,point,bound,policy,replication,seed,scenario_hash,values\n"
        for (index, outcome) in done {
            let row = outcome.summary
            // Doubles as Swift writes them (the shortest text that reads back to the same
            // value), so the shards' objectives are bit for bit a single machine's.
            // Typed, so that the literal and the map are not inferred together (0.7 s of the
            // module's type-checking when they were).
            let fields: [String] =
                [
                    String(index), String(outcome.point), outcome.bound.map(String.init) ?? "", row.policy,
                    String(row.replication), String(row.seed), row.scenarioHash,
                ] + row.values.map { "\($0)" }
            text += fields.joined(separator: ",") + "\n"
        }
        return Self.marker
            + """
            \(shard)/\(count) version=\(version) key=\(key) round=\(round) runs=\(done.count) total=\(total) \
            rows=\(TextDigest.of(text))\n
            """
            + text
    }

    private func read(round: Int, shard other: Int, total: Int) throws -> [(index: Int, outcome: Outcome)] {
        let source = path(round: round, shard: other)
        let started = Date()
        while !PathBytes.exists(source) {
            guard Date().timeIntervalSince(started) < timeout else {
                throw Failure.timedOut(
                    """
                    advise --shard \(shard)/\(count): waited \(Int(timeout)) s for shard \(other)'s round \(round) \
                    (\(source)); all \(count) shards must run at once
                    """
                )
            }
            Thread.sleep(forTimeInterval: poll)
        }
        let text: String
        do {
            text = try InputText.read(source)
        } catch {
            throw Failure.malformed("\(source):\(error.line):\(error.column): \(error.message)")
        }
        return try Self.parse(
            text, name: source, shard: other, count: count, version: version, key: key, round: round, total: total)
    }

    /// The runs of an exchange file's `text`, checked to be shard `shard`/`count`'s round
    /// `round` of this advise, whole and unedited; `name` is what errors name.
    public static func parse(
        _ text: String, name source: String, shard other: Int, count: Int, version: String, key: String,
        round: Int, total: Int
    ) throws -> [(index: Int, outcome: Outcome)] {
        guard let newline = text.firstIndex(of: "\n") else {
            throw Failure.malformed("\(source): not an advise exchange file (no first line)")
        }
        let first = text[..<newline]
        let body = String(text[text.index(after: newline)...])
        var fields: [String: String] = [:]
        for word in first.dropFirst(Self.marker.count).split(separator: " ").dropFirst() {
            let pair = word.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard first.hasPrefix(Self.marker) else {
            throw Failure.malformed(
                "\(source): not an advise exchange file (its first line should start with '\(Self.marker)')")
        }
        guard fields["version"] == version else {
            throw Failure.malformed(
                "\(source): written by odr-sim \(fields["version"] ?? "of an earlier release"), this is \(version); "
                    + "every shard must run the same odr-sim"
            )
        }
        guard first.hasPrefix(Self.marker + "\(other)/\(count) "), fields["key"] == key,
            fields["round"] == String(round),
            fields["total"] == String(total), let runCount = fields["runs"].flatMap(Int.init),
            (0...total).contains(runCount)
        else {
            throw Failure.malformed(
                "\(source): not shard \(other)/\(count)'s round \(round) of this advise (key \(key), \(total) runs)")
        }
        guard let digest = fields["rows"], TextDigest.of(body) == digest else {
            throw Failure.malformed(
                """
                \(source): its rows do not match the digest in its first line: the file was edited or cut short \
                since odr-sim wrote it
                """
            )
        }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.count == runCount + 1 else {
            throw Failure.malformed("\(source): \(max(0, lines.count - 1)) runs, but its first line says \(runCount)")
        }
        return try lines.dropFirst().enumerated().map { offset, line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 7 + Metric.allCases.count, let index = Int(f[0]), (0..<total).contains(index),
                let point = Int(f[1]), point >= 0,
                let replication = Int(f[4]), let seed = UInt64(f[5]), f[2].isEmpty || Int64(f[2]) != nil
            else {
                throw Failure.malformed("\(source):\(offset + 3): not a run's line")
            }
            let values = try f[7...].map { text -> Double in
                // NaN stands for a metric with no value (a wait with no request); anything else
                // not a finite number is not one a run makes.
                guard let value = Double(text), value.isFinite || (value.isNaN && text == "nan") else {
                    throw Failure.malformed("\(source):\(offset + 3): '\(text)' is not a run's number")
                }
                return value
            }
            let summary = SummaryRow(
                policy: f[3], replication: replication, seed: seed, values: values, scenarioHash: f[6])
            return (index, Outcome(point: point, summary: summary, bound: f[2].isEmpty ? nil : Int64(f[2])))
        }
    }
}
