import Experiments
import Metrics
import ODRCore
import Quantities
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
        /// Where the finalists were compared by Kim and Nelson's KN (`advise --indifference`):
        /// its outcome, the finalists named by their index in ``ids``; nil for a fixed count.
        public var selection: SelectBest? = nil

        /// Advised − as written on the fresh seeds, paired.
        public var advantage: Interval { Interval(zip(objectives[advised], objectives[original]).map { $0 - $1 }) }
        /// The finalist with the lowest fresh-seed mean.
        public var freshBest: Int {
            objectives.indices.min { Interval(objectives[$0]).mean < Interval(objectives[$1]).mean }!
        }
        /// Finalists the fresh seeds cannot tell from ``freshBest`` (itself included): those
        /// whose paired interval against it reaches 0, each at 1 − 0.05/(k − 1) for k finalists
        /// (Bonferroni over the k − 1 comparisons with the best, in the manner of Hsu's multiple
        /// comparisons with the best, 1996), so the subset holds the truly best finalist with
        /// probability at least 0.95 on normal-enough differences.
        public var subset: [Int] {
            let level = 1 - 0.05 / Double(max(1, objectives.count - 1))
            return objectives.indices.filter { k in
                k == freshBest
                    || Interval(zip(objectives[k], objectives[freshBest]).map { $0 - $1 }, level: level).low <= 0
            }
        }
    }

    /// The finalists of `result`: the advised layout, the one as written, then the next best
    /// the search saw, `count` in all.
    func finalists(_ result: Result, count: Int) -> [Int] {
        var ids = [result.best]
        if result.original != result.best { ids.append(result.original) }
        let others = result.evaluations.filter { $0.rejected == nil && !ids.contains($0.id) && !$0.objectives.isEmpty }
            .sorted { $0.mean < $1.mean }
        return ids + others.prefix(max(0, count - ids.count)).map(\.id)
    }

    /// Finalists `ks` (indices into `ids`) run on fresh seeds from `offset` seeds after the
    /// scenario's, on each device of the population: each one's objectives, one per run.
    private func freshObjectives(
        _ result: Result, ids: [Int], _ ks: [Int], offset: Int, replications fresh: Int, round: Int
    ) throws -> [[Double]] {
        var points: [ExperimentPlan.Point] = []
        var owner: [Int] = []
        let devices = population.isEmpty ? [scenario] : population.map(\.scenario)
        for (slot, k) in ks.enumerated() {
            let layout = result.evaluations[ids[k]].layout
            for var device in devices {
                device.seed = device.seed &+ UInt64(offset)
                points.append(point(try layout.applied(to: device, app: app, resources: resources), layout))
                owner.append(slot)
            }
        }
        var objectives = Array(repeating: [Double](), count: ks.count)
        for outcome in try perform(points, round: round, replications: fresh) {
            let slot = owner[outcome.point]
            objectives[slot].append(
                objective(outcome.summary, initial: result.evaluations[ids[ks[slot]]].initialInstallBytes))
        }
        return objectives
    }

    /// Runs the finalists of `result` on fresh seeds (a round of its own: every shard calls it).
    public func confirm(_ result: Result, replications fresh: Int, finalists: Int = 5, round: Int = 1_000_000) throws
        -> Confirmation
    {
        let ids = self.finalists(result, count: finalists)
        let objectives = try freshObjectives(
            result, ids: ids, Array(ids.indices), offset: replications, replications: fresh, round: round)
        return Confirmation(
            ids: ids, objectives: objectives, firstSeed: scenario.seed &+ UInt64(replications), replications: fresh,
            advised: 0,
            original: ids.firstIndex(of: result.original) ?? 0)
    }

    /// `advise --indifference DELTA`: the finalists compared on fresh seeds by Kim and Nelson's
    /// KN (``SelectBest``, on common random numbers), each observation the mean of a batch of
    /// ``Experiments/SelectBest/batch`` seeds: 10 batches of each, then one of each survivor at
    /// a time, eliminating as it goes, up to `maximum` seeds. With probability at least
    /// `confidence` the one left is the best finalist or within `indifference` (objective
    /// bytes) of it. The confirmation's advantage and subset are read from the same seeds.
    public func select(
        _ result: Result, indifference: Double, confidence: Double = 0.95, maximum: Int, finalists count: Int = 5
    ) throws -> Confirmation {
        let ids = self.finalists(result, count: count)
        var objectives = Array(repeating: [Double](), count: ids.count)
        let first = scenario.seed &+ UInt64(replications)
        // As compare's KN (``Experiments/SelectBest``): each observation the mean of a batch of
        // fresh seeds, near normal where one seed's objective is skewed (issue 51).
        let size = SelectBest.batch
        func observe(_ b: Int, _ names: [String]) throws -> [String: Double] {
            let ks = names.compactMap { Int($0) }
            let values = try freshObjectives(
                result, ids: ids, ks, offset: replications + (b - 1) * size, replications: size,
                round: 2_000_000 + b)
            var observed: [String: Double] = [:]
            // Per seed, a finalist's mean over the population's devices (device by device, each
            // with the batch's seeds); the observation, their mean.
            for (slot, k) in ks.enumerated() {
                let devices = max(1, values[slot].count / size)
                let seeds = (0..<size).map { r in
                    (0..<devices).reduce(0.0) { $0 + values[slot][$1 * size + r] } / Double(devices)
                }
                objectives[k] += seeds
                observed[String(k)] = seeds.reduce(0, +) / Double(size)
            }
            return observed
        }
        guard ids.count >= 2 else {
            _ = try (1...2).map { try observe($0, ["0"]) }
            return Confirmation(
                ids: ids, objectives: objectives, firstSeed: first, replications: 2 * size, advised: 0, original: 0)
        }
        let selection = try SelectBest.run(
            policies: ids.indices.map(String.init), lowerIsBetter: true, indifference: indifference,
            confidence: confidence, initial: SelectBest.firstBatches,
            maximum: max(maximum / size, SelectBest.firstBatches), observe: observe
        ).inReplications(batch: size)
        var confirmation = Confirmation(
            ids: ids, objectives: objectives, firstSeed: first, replications: selection.replications, advised: 0,
            original: ids.firstIndex(of: result.original) ?? 0)
        confirmation.selection = selection
        return confirmation
    }
}

extension Advisor.Confirmation {
    /// Finalist `k`'s name: the advised layout, the one as written, or its move, with its
    /// layout number where two finalists were made by moves of the same words (issue 51).
    public func name(of k: Int, in result: Advisor.Result) -> String {
        if k == advised { return "the advised layout" }
        if k == original { return "the layout as written" }
        let move = result.evaluations[ids[k]].move
        let twins = ids.filter { result.evaluations[$0].move == move }.count
        return twins > 1 ? "\(move) (layout \(ids[k]))" : move
    }

    /// One line for the terminal and the advised file's header; `bytes` writes an objective.
    public func sentence(_ result: Advisor.Result, bytes: (Double) -> String) -> String {
        let d = advantage
        let verdict =
            ids[advised] == ids[original]
            ? "the layout as written is kept"
            : d.excludesZero && d.mean < 0 ? "significant" : "not significant: the search's advantage is not confirmed"
        let names = subset.map { self.name(of: $0, in: result) }
        // Under KN an eliminated finalist stops early: the advantage pairs the seeds both ran.
        let paired = selection == nil ? replications : min(objectives[advised].count, objectives[original].count)
        let text =
            """
            on \(paired) fresh seeds (\(firstSeed) on, which the search never saw): advised − as written \
            \(bytes(d.mean)) \
            (95 % interval \(bytes(d.low)) to \(bytes(d.high))), \(verdict); within the noise of the best there:
            """
            + " \(names.joined(separator: ", "))"
        guard let selection else { return text }
        func name(_ k: String) -> String { Int(k).map { self.name(of: $0, in: result) } ?? k }
        let gone =
            selection.eliminated.isEmpty
            ? "none eliminated"
            : "eliminated: "
                + selection.eliminated.map { "\(name($0.policy)) at replication \($0.replication)" }.joined(
                    separator: ", ")
        let same =
            selection.identical.isEmpty
            ? ""
            : "; identical on every one of the first \(selection.firstStage) seeds, so not separable: "
                + selection.identical.map { "\(name($0.policy)) to \(name($0.sameAs))" }.joined(separator: ", ")
        let how =
            "(Kim and Nelson's KN over \(ids.count) finalists on means of \(selection.batch) seeds, "
            + "\(selection.replications) seeds at most; \(gone)\(same))"
        let chance = String(format: "%.2f", selection.confidence)
        if let best = selection.best {
            return text
                + """
                ; KN: \(name(best)) is the best within \(bytes(selection.indifference)) with probability ≥ \
                \(chance) under KN's normal model \(how)
                """
        }
        return text
            + "; KN: not decided at --max-replications: \(selection.survivors.map(name).joined(separator: ", ")) "
            + "remain within \(bytes(selection.indifference)) of each other \(how)"
    }

    /// The confirmation as data (`--format json`).
    public func json(_ result: Advisor.Result) -> String {
        let d = advantage
        return JSONText.object([
            ("replications", String(replications)), ("first_seed", String(firstSeed)),
            ("advantage", JSONText.number(d.mean)), ("advantage_ci_low", JSONText.number(d.low)),
            ("advantage_ci_high", JSONText.number(d.high)),
            ("subset", JSONText.array(subset.map { JSONText.string(result.evaluations[ids[$0]].move) })),
            ("objective_means", JSONText.array(objectives.map { JSONText.number(Interval($0).mean) })),
            // Each finalist auditable: its layout number, its unique name and its objective on
            // every fresh seed it ran (from first_seed on).
            (
                "finalists",
                JSONText.array(
                    ids.indices.map { k in
                        JSONText.object([
                            ("layout", String(ids[k])), ("name", JSONText.string(name(of: k, in: result))),
                            ("objectives", JSONText.array(objectives[k].map(JSONText.number))),
                        ])
                    })
            ),
            (
                "selection",
                selection.map { s in
                    let move = { (k: String) in JSONText.string(Int(k).map { result.evaluations[ids[$0]].move } ?? k) }
                    return JSONText.object([
                        ("procedure", JSONText.string("KN")), ("indifference", JSONText.number(s.indifference)),
                        ("confidence", JSONText.number(s.confidence)),
                        ("best", s.best.map(move) ?? "null"), ("survivors", JSONText.array(s.survivors.map(move))),
                        (
                            "eliminated",
                            JSONText.array(
                                s.eliminated.map {
                                    JSONText.object([
                                        ("layout", move($0.policy)), ("replication", String($0.replication)),
                                    ])
                                })
                        ),
                    ])
                } ?? "null"
            ),
        ])
    }
}

extension Advisor.Result {
    /// `advise --exhaustive`'s line: how many layouts, the best, the subset within the noise
    /// of it, and whether the sequential search's pick (`searched`) is in that subset.
    public func exhaustiveSentence(searched: Layout, resources: [Resource], bytes: (Double) -> String) -> String {
        let subset = self.subset
        let rejected = evaluations.filter { $0.rejected != nil }.count
        // Like with like (issue 51): the enumeration varies packs and promotions only, so a pick
        // that also moved the app's budget or strategy is compared on its packs alone, and says so.
        var packs = searched
        (packs.budget, packs.strategy) = (nil, nil)
        let moved = [searched.budget.map { "budget \(bytes(Double($0)))" }, searched.strategy.map { "strategy \($0)" }]
            .compactMap { $0 }
        let pick = evaluations.first { $0.layout == packs }
        let verdict: String
        if let pick, subset.contains(pick.id) {
            verdict =
                "the sequential search's pick (\(searched.describe(resources)), \(bytes(pick.mean))) is among them"
        } else {
            verdict =
                "the sequential search's pick "
                + "(\(searched.describe(resources))\(pick.map { ", \(bytes($0.mean))" } ?? "")) is not: the "
                + "search missed the best"
        }
        let shown = subset.prefix(3).map { evaluations[$0].layout.describe(resources) }.joined(separator: "; ")
        return
            """
            exhaustive: \(evaluations.count) layouts (\(rejected) over the platform's limits); the best \
            \(evaluations[best].layout.describe(resources)) \
            at \(bytes(evaluations[best].mean)); \(subset.count) within the noise of it on these seeds
            """
                + " (\(shown)\(subset.count > 3 ? "; …" : "")); "
                + verdict
                + (moved.isEmpty
                    ? ""
                    : " (compared on its packs alone: the search also set \(moved.joined(separator: " and ")), which "
                        + "--exhaustive does not vary)")
    }
}

extension Advisor {
    /// Why `--exhaustive` cannot run here, or nil: too many resources, or shards (whose rounds
    /// the search and the enumeration would both number from 0).
    public func exhaustiveRefusal(sharded: Bool) -> String? {
        if sharded { return "--exhaustive runs on one machine, not with --shard" }
        guard resources.count > Layout.exhaustiveLimit else { return nil }
        return """
            --exhaustive: the app has \(resources.count) resources; it enumerates at most \
            \(Layout.exhaustiveLimit)
            """
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
        public static func parse(_ text: String) -> FreshPrecision? {
            if text.hasSuffix("%") {
                guard let percent = Double(text.dropLast()), percent > 0, percent < 100 else { return nil }
                return .relative(percent / 100)
            }
            guard let bytes = try? SizeSyntax.parse(text), bytes > 0 else { return nil }
            return .bytes(Double(bytes))
        }

        /// Why the fresh seeds' options are refused: a one-line reason naming the flag.
        public struct Refusal: Error, CustomStringConvertible {
            public let description: String
        }

        /// `--precision` (with `--confirm`'s `confirm` seeds above 0) and `--indifference` (a
        /// size, KN's δ), which replace each other.
        public static func options(precision: String?, indifference: String?, confirm: Int) throws(Refusal) -> (
            precision: FreshPrecision?, indifference: Double?
        ) {
            var chosen: FreshPrecision?
            if let precision {
                guard confirm > 0 else { throw Refusal(description: "--precision needs --confirm above 0") }
                if precision.hasSuffix("%"), let percent = Double(precision.dropLast()), !(percent > 0 && percent < 100)
                {
                    throw Refusal(
                        description: "--precision: '\(precision)' is not a percentage above 0 % and below 100 %")
                }
                guard let p = parse(precision) else {
                    throw Refusal(
                        description: """
                            --precision: '\(precision)' is neither a percentage such as 5% nor a size from 1 B to \
                            \(ModelLimits.bytesText) such as 50MB
                            """)
                }
                chosen = p
            }
            guard let indifference else { return (chosen, nil) }
            guard let bytes = try? SizeSyntax.parse(indifference), bytes > 0, precision == nil else {
                throw Refusal(
                    description: precision == nil
                        ? "--indifference: '\(indifference)' is not a size from 1 B to \(ModelLimits.bytesText) "
                            + "such as 50MB"
                        : "--indifference replaces --precision: give one of them")
            }
            return (chosen, Double(bytes))
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
    public func confirm(_ result: Result, replications: Int, precision: FreshPrecision?, maximum: Int) throws -> (
        Confirmation, reached: Bool?
    ) {
        var fresh = replications
        var confirmation = try confirm(result, replications: fresh)
        guard let precision else { return (confirmation, nil) }
        // As `--precision` of compare (``Experiments/Precision``): never judged on fewer than 10
        // seeds, and an advantage the same on every seed (no spread) waits until a one-in-ten
        // difference is ruled out (30, the rule of three).
        func reached(_ c: Confirmation) -> Bool {
            let needs = c.advantage.standardDeviation == 0 ? 30 : Precision.minimumReplications
            return c.advantage.count >= needs && c.advantage.halfWidth <= precision.target(c)
        }
        var round = 1_000_001
        while !reached(confirmation) && fresh < maximum {
            fresh = min(maximum, max(Precision.minimumReplications, 2 * fresh))
            confirmation = try confirm(result, replications: fresh, round: round)
            round += 1
        }
        return (confirmation, reached(confirmation))
    }
}
