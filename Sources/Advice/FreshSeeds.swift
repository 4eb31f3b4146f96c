import ODRCore
import Experiments
import Metrics
import Simulation

extension Advisor {
    /// The search's answer checked on seeds it never saw. A search that keeps the lowest of many
    /// averages picks, among layouts about as good, the one its seeds happened to favour: its
    /// advantage shrinks on new seeds (the winner's curse). So the finalists (the advised
    /// layout, the layout as written, and the next best the search saw, up to `finalists` in
    /// all) run again on `replications` fresh seeds (after the search's own), and the report
    /// states the advantage measured there, and every finalist the fresh seeds cannot tell from
    /// the best (the subset within the noise of it: paired 95 % interval including 0).
    public struct Confirmation: Sendable {
        /// Finalists' ids in ``Result/evaluations``, their fresh-seed objectives (per replication).
        public let ids: [Int]
        public let objectives: [[Double]]
        /// The first fresh seed, and how many.
        public let firstSeed: UInt64
        public let replications: Int
        /// Which of ``ids`` is the advised layout's and the original's.
        public let advised: Int
        public let original: Int

        /// Advised − as written on the fresh seeds, paired.
        public var advantage: Interval { Interval(zip(objectives[advised], objectives[original]).map { $0 - $1 }) }
        /// The finalist with the lowest fresh-seed mean.
        public var freshBest: Int { objectives.indices.min { Interval(objectives[$0]).mean < Interval(objectives[$1]).mean }! }
        /// Finalists the fresh seeds cannot tell from ``freshBest`` (itself included): those
        /// whose paired interval against it reaches 0, each at 1 − 0.05/(k − 1) for k finalists
        /// (Bonferroni over the k − 1 comparisons with the best, in the manner of Hsu's multiple
        /// comparisons with the best, 1996), so the subset holds the truly best finalist with
        /// probability at least 0.95 on normal-enough differences.
        public var subset: [Int] {
            let level = 1 - 0.05 / Double(max(1, objectives.count - 1))
            return objectives.indices.filter { k in
                k == freshBest || Interval(zip(objectives[k], objectives[freshBest]).map { $0 - $1 }, level: level).low <= 0
            }
        }
    }

    /// Runs the finalists of `result` on fresh seeds (a round of its own: every shard calls it).
    public func confirm(_ result: Result, replications fresh: Int, finalists: Int = 5, round: Int = 1_000_000) throws -> Confirmation {
        var ids = [result.best]
        if result.original != result.best { ids.append(result.original) }
        let others = result.evaluations.filter { $0.rejected == nil && !ids.contains($0.id) && !$0.objectives.isEmpty }.sorted { $0.mean < $1.mean }
        ids += others.prefix(max(0, finalists - ids.count)).map(\.id)
        let first = scenario.seed &+ UInt64(replications)
        var points: [ExperimentPlan.Point] = []
        var owner: [Int] = []
        for (k, id) in ids.enumerated() {
            let layout = result.evaluations[id].layout
            for var device in population.isEmpty ? [scenario] : population.map(\.scenario) {
                device.seed = device.seed &+ UInt64(replications)
                points.append(point(try layout.applied(to: device, app: app, resources: resources), layout))
                owner.append(k)
            }
        }
        var objectives = Array(repeating: [Double](), count: ids.count)
        for outcome in try perform(points, round: round, replications: fresh) {
            let k = owner[outcome.point]
            objectives[k].append(objective(outcome.summary, initial: result.evaluations[ids[k]].initialInstallBytes))
        }
        return Confirmation(ids: ids, objectives: objectives, firstSeed: first, replications: fresh, advised: 0,
                            original: ids.firstIndex(of: result.original) ?? 0)
    }
}

extension Advisor.Confirmation {
    /// One line for the terminal and the advised file's header; `bytes` writes an objective.
    public func sentence(_ result: Advisor.Result, bytes: (Double) -> String) -> String {
        let d = advantage
        let verdict = ids[advised] == ids[original] ? "the layout as written is kept" : d.high < 0 ? "significant" : "not significant: the search's advantage is not confirmed"
        let names = subset.map { k in k == advised ? "the advised layout" : k == original ? "the layout as written" : result.evaluations[ids[k]].move }
        return "on \(replications) fresh seeds (\(firstSeed) on, which the search never saw): advised − as written \(bytes(d.mean)) "
            + "(95 % interval \(bytes(d.low)) to \(bytes(d.high))), \(verdict); within the noise of the best there: \(names.joined(separator: ", "))"
    }

    /// The confirmation as data (`--format json`).
    public func json(_ result: Advisor.Result) -> String {
        let d = advantage
        return JSONText.object([
            ("replications", String(replications)), ("first_seed", String(firstSeed)),
            ("advantage", JSONText.number(d.mean)), ("advantage_ci_low", JSONText.number(d.low)), ("advantage_ci_high", JSONText.number(d.high)),
            ("subset", JSONText.array(subset.map { JSONText.string(result.evaluations[ids[$0]].move) })),
            ("objective_means", JSONText.array(objectives.map { JSONText.number(Interval($0).mean) })),
        ])
    }
}

extension Advisor.Result {
    /// `advise --exhaustive`'s line: how many layouts, the best, the subset within the noise
    /// of it, and whether the sequential search's pick (`searched`) is in that subset.
    public func exhaustiveSentence(searched: Layout, resources: [Resource], bytes: (Double) -> String) -> String {
        let subset = self.subset
        let rejected = evaluations.filter { $0.rejected != nil }.count
        let pick = evaluations.first { $0.layout == searched }
        let verdict: String
        if let pick, subset.contains(pick.id) {
            verdict = "the sequential search's pick (\(searched.describe(resources)), \(bytes(pick.mean))) is among them"
        } else {
            verdict = "the sequential search's pick (\(searched.describe(resources))\(pick.map { ", \(bytes($0.mean))" } ?? "")) is not: the search missed the best"
        }
        let shown = subset.prefix(3).map { evaluations[$0].layout.describe(resources) }.joined(separator: "; ")
        return "exhaustive: \(evaluations.count) layouts (\(rejected) over the platform's limits); the best \(evaluations[best].layout.describe(resources)) "
            + "at \(bytes(evaluations[best].mean)); \(subset.count) within the noise of it on these seeds (\(shown)\(subset.count > 3 ? "; …" : "")); " + verdict
    }
}

extension Advisor {
    /// Why `--exhaustive` cannot run here, or nil: too many resources, or shards (whose rounds
    /// the search and the enumeration would both number from 0).
    public func exhaustiveRefusal(sharded: Bool) -> String? {
        if sharded { return "--exhaustive runs on one machine, not with --shard" }
        guard resources.count > Layout.exhaustiveLimit else { return nil }
        return "--exhaustive: the app has \(resources.count) resources; it enumerates at most \(Layout.exhaustiveLimit)"
    }

    /// The sequential search's pick, for the enumeration to be checked against.
    public func searchedPick() throws -> Layout {
        var searching = self
        searching.exhaustive = false
        let result = try searching.run()
        return result.evaluations[result.best].layout
    }
}

extension Advisor {
    /// `advise --precision`: how narrow the advantage measured on fresh seeds must be.
    public enum FreshPrecision: Sendable, Equatable {
        /// A share of the objective as written (0.05 for 5 %).
        case relative(Double)
        /// Bytes of objective.
        case bytes(Double)

        /// `5%` or a size (`50MB`); nil with a reason.
        public static func parse(_ text: String, size: (String) throws -> Int64) -> FreshPrecision? {
            if text.hasSuffix("%") {
                guard let percent = Double(text.dropLast()), percent > 0, percent < 100 else { return nil }
                return .relative(percent / 100)
            }
            guard let bytes = try? size(text), bytes > 0 else { return nil }
            return .bytes(Double(bytes))
        }

        /// The half-width allowed, for a confirmation.
        func target(_ c: Confirmation) -> Double {
            switch self {
            case .relative(let share): share * abs(Interval(c.objectives[c.original]).mean)
            case .bytes(let bytes): bytes
            }
        }
    }

    /// ``confirm(_:replications:finalists:round:)`` with the fresh seeds doubled, on the same
    /// seeds extended, until the advantage's 95 % half-width is within `precision`, or
    /// `maximum` seeds: returns the confirmation and whether the precision was reached.
    public func confirm(_ result: Result, replications: Int, precision: FreshPrecision?, maximum: Int) throws -> (Confirmation, reached: Bool?) {
        var fresh = replications
        var confirmation = try confirm(result, replications: fresh)
        guard let precision else { return (confirmation, nil) }
        var round = 1_000_001
        while confirmation.advantage.halfWidth > precision.target(confirmation) && fresh < maximum {
            fresh = min(maximum, 2 * fresh)
            confirmation = try confirm(result, replications: fresh, round: round)
            round += 1
        }
        return (confirmation, !(confirmation.advantage.halfWidth > precision.target(confirmation)))
    }
}
