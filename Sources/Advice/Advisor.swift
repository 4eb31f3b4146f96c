import Experiments
import Metrics
import ODRCore
import ODRPolicies
import Quantities
import Simulation

/// `odr-sim advise`: searches one app's layout (``Layout``) for the lowest objective on the
/// scenario's workload, every candidate simulated on common random numbers.
///
/// The search starts from three layouts (as written, one pack per resource, Apple's 64 MB
/// rule applied greedily over co-access), keeps the best, and improves it by moves: merge the
/// two packs most often requested together (twelve such pairs a round), split a pack of several
/// resources (its file tag sets apart, or its largest resource out; four packs a round),
/// promote one of the four most requested packs to prefetch, or demote a promoted one. Each round's candidates run as
/// one plan through the Experiments layer (on every core, byte-identical at any job count); the best replaces
/// the incumbent only if its mean objective is lower. When no single move improves, pairs of
/// moves are tried (a second move from each of the three best first ones), since two changes
/// may pay only together. The search stops when neither does, or at `maxEvaluations` layouts. A candidate over a
/// platform limit is rejected unrun.
///
/// With a `population` (the devices the app ships to: their used space, their network), every
/// layout runs on each device, the same seeds on each, and its objective is over all of them:
/// advice for the phones out there, not one. With an ``exchange``, the shards of a cluster job share
/// each round's runs and take the same steps.
public struct Advisor {
    /// One device of a population: the scenario as that device runs it (its used space, its
    /// network), as one point of a study makes it.
    public struct Device: Sendable {
        /// How reports name the device: `used=56GB, wifi=8Mbps`.
        public let label: String
        /// The scenario on this device, the app's layout as written.
        public let scenario: Scenario

        public init(label: String, scenario: Scenario) {
            self.label = label
            self.scenario = scenario
        }
    }

    /// The objective, in bytes, of the app's focus (``Metrics/AppRow/summaryRows(of:in:beside:scenarioHash:)``):
    /// the app's re-downloaded bytes, plus a price for each byte of the user's data the device
    /// refused (the device's: a layout that crowds the phone costs its user), each byte the
    /// device over-purged (0 by default: a purge frees space, and what the app needs again is
    /// already in its re-downloads), each second of the app's p95 wait, each byte of initial
    /// install, each failed request of the app and each download of the app (its fixed cost: a
    /// request to the store, a manifest, a place in the system's queue; without it nothing in
    /// the model would favour one pack over two fetched together).
    public struct Weights: Sendable, Hashable {
        /// Bytes one second of 95th-percentile wait is worth.
        public var waitPrice: Double
        /// What one byte of initial-install content costs (the app's download before its first launch).
        public var installPrice: Double
        /// Bytes one failed request is worth.
        public var failurePrice: Double
        /// Bytes one download is worth beyond its size.
        public var downloadPrice: Double
        /// What one byte of the user's data the device refused costs, in bytes.
        public var refusedPrice: Double
        /// What one byte the device over-purged costs, in bytes.
        public var overPurgePrice: Double

        public init(
            waitPrice: Double = 1e6, installPrice: Double = 0.1, failurePrice: Double = 100e6,
            downloadPrice: Double = 1e6, refusedPrice: Double = 1, overPurgePrice: Double = 0
        ) {
            self.waitPrice = waitPrice
            self.installPrice = installPrice
            self.failurePrice = failurePrice
            self.downloadPrice = downloadPrice
            self.refusedPrice = refusedPrice
            self.overPurgePrice = overPurgePrice
        }

        /// The objective's terms as the answer prints them, each saying whose value it reads:
        /// `odyssey's re-downloaded bytes + 1 × the device's refused other data + …`.
        public func described(app: String) -> String {
            func price(_ value: Double) -> String { value == value.rounded() ? String(Int64(value)) : "\(value)" }
            var terms = ["\(app)'s re-downloaded bytes"]
            if refusedPrice != 0 { terms.append("\(price(refusedPrice)) × the device's refused user data (bytes)") }
            if overPurgePrice != 0 { terms.append("\(price(overPurgePrice)) × the device's over-purged bytes") }
            if waitPrice != 0 { terms.append("\(price(waitPrice)) × \(app)'s p95 wait (s)") }
            if installPrice != 0 { terms.append("\(price(installPrice)) × \(app)'s initial install (bytes)") }
            if failurePrice != 0 { terms.append("\(price(failurePrice)) × \(app)'s failed requests") }
            if downloadPrice != 0 { terms.append("\(price(downloadPrice)) × \(app)'s downloads") }
            return terms.joined(separator: " + ")
        }

        /// The largest price per byte (`--install-price`, `--refused-price`, `--over-purge-price`).
        public static let maximumPrice: Double = 1_000_000

        /// Why a price is refused: a one-line reason naming its flag.
        public struct Refusal: Error, CustomStringConvertible {
            public let description: String
        }

        /// The prices as the command line writes them: sizes (at most 1 PiB, as a scenario
        /// reads them) for a second of wait, a failed request and a download.
        public init(
            wait: String, install: Double, failure: String, download: String, refused: Double = 1,
            overPurge: Double = 0
        ) throws(Refusal) {
            func size(_ text: String, _ option: String) throws(Refusal) -> Double {
                do { return Double(try SizeSyntax.parse(text)) } catch {
                    throw Refusal(description: "\(option): \(error)")
                }
            }
            // A number per byte is at most a million bytes: every objective (at most 1 PiB of
            // install, ModelLimits.bytes) stays far inside a double's range.
            for (value, option) in [
                (install, "--install-price"), (refused, "--refused-price"), (overPurge, "--over-purge-price"),
            ]
            where !(value >= 0 && value <= Self.maximumPrice) {
                throw Refusal(description: "\(option) must be a number from 0 to \(Int(Self.maximumPrice))")
            }
            self.init(
                waitPrice: try size(wait, "--wait-price"), installPrice: install,
                failurePrice: try size(failure, "--failure-price"),
                downloadPrice: try size(download, "--download-price"), refusedPrice: refused,
                overPurgePrice: overPurge)
        }
    }

    /// One layout tried.
    public struct Evaluation: Sendable {
        public let id: Int
        public let layout: Layout
        /// How it was made from its parent ("merge 3+5", "as written").
        public let move: String
        public let parent: Int?
        /// Why the layout was not run (a platform limit), or nil.
        public let rejected: String?
        /// The objective of each replication (common seeds across layouts).
        public let objectives: [Double]
        public let redownloadBytes: Double
        /// The device's over-purged bytes and the user's data it refused (guard metrics: the
        /// device's, beside the app's).
        public let overPurgeBytes: Double
        public var refusedOtherBytes: Double = 0
        public let waitP95: Double
        public let failedRequests: Double
        public let initialInstallBytes: Int64

        public var mean: Double { objectives.isEmpty ? .infinity : objectives.reduce(0, +) / Double(objectives.count) }
    }

    public struct Result: Sendable {
        /// Every layout tried, in order.
        public let evaluations: [Evaluation]
        /// The original layout's and the advised one's place in ``evaluations``.
        public let original: Int
        public let best: Int
        /// The starting layouts' places (the one as written first).
        public let starts: [Int]
        /// The fewest bytes any purge order could have re-downloaded, as written and advised
        /// (means over the replications: the offline bound of `--bound`).
        public let bounds: [Double]
        /// The paired difference advised − original of the objective, per replication.
        public var difference: Interval {
            Interval(zip(evaluations[best].objectives, evaluations[original].objectives).map { $0 - $1 })
        }

        /// Every layout its seeds cannot tell from the best: paired 95 % interval of
        /// layout − best including 0 (the best included), in order of mean.
        public var subset: [Int] {
            let b = evaluations[best].objectives
            return evaluations.filter { e in
                e.rejected == nil && !e.objectives.isEmpty
                    && (e.id == best || Interval(zip(e.objectives, b).map { $0 - $1 }).low <= 0)
            }.sorted { $0.mean < $1.mean }.map(\.id)
        }

        /// The moves from layout `id` back to where the search started, last move first.
        public func path(to id: Int) -> [String] {
            var moves: [String] = []
            var step: Int? = id
            while let s = step {
                moves.append(evaluations[s].move)
                step = evaluations[s].parent
            }
            return moves
        }
    }

    /// The scenario as written: its device, and the layout the search starts from.
    public let scenario: Scenario
    /// The app's resources as written (generated ones included): the material of a layout.
    public let resources: [Resource]
    public let app: AppIndex
    /// The policy every layout runs under (the system's purge, or where the app evicts the
    /// strategy of apps without one of their own).
    public let policy: PolicyDescriptor
    /// The scenario's policy options, as its runs take them (its apps' strategies are in it).
    public let policyOptions: [String: PolicyOptions]
    public let replications: Int
    public let weights: Weights
    public var jobs = 1
    /// Most kernel events one run may process (``ExperimentRunner/maxEvents``).
    public var maxEvents = ExperimentRunner.defaultMaxEvents
    public var maxEvaluations = 60
    /// Evaluate every layout (``Layout/all(of:)``: every partition of the resources into packs,
    /// each pack promoted or not) instead of searching: for apps of at most
    /// ``Layout/exhaustiveLimit`` resources, where it is the check on the search.
    public var exhaustive = false
    /// The devices every layout runs on; empty: the scenario's own device alone.
    public var population: [Device] = []
    /// Shares every round's runs among the shards of a cluster job; nil runs them all here.
    public var exchange: AdviceExchange?

    public init(
        scenario: Scenario, resources: [Resource], app: AppIndex, policy: PolicyDescriptor,
        policyOptions: [String: PolicyOptions] = [:],
        replications: Int, weights: Weights = Weights()
    ) {
        self.scenario = scenario
        self.resources = resources
        self.app = app
        self.policy = policy
        self.policyOptions = policyOptions
        self.replications = replications
        self.weights = weights
    }

    /// One run's point: `scenario` with the layout's strategy for the app where it sets one.
    func point(_ scenario: Scenario, _ layout: Layout) -> ExperimentPlan.Point {
        var scenario = scenario
        if let strategy = layout.strategy { scenario.apps[app].eviction.strategy = strategy }
        return ExperimentPlan.Point(scenario, policyOptions: policyOptions)
    }

    public func run(progress: ((Int) -> Void)? = nil) throws -> Result {
        let seeds = (0..<replications).map { scenario.seed &+ UInt64($0) }
        let coAccess = CoAccess(scenario: scenario, app: app, resources: resources, seeds: seeds)
        var evaluations: [Evaluation] = []
        var seen: Set<Layout> = []
        var round = 0

        func evaluate(_ batch: [(layout: Layout, move: String, parent: Int?)]) throws -> [Int] {
            let fresh = batch.filter { seen.insert($0.layout).inserted }.prefix(
                exhaustive ? batch.count : max(0, maxEvaluations - evaluations.count))
            var ids: [Int] = []
            var runnable: [(index: Int, point: ExperimentPlan.Point)] = []
            var made: [(layout: Layout, move: String, parent: Int?, rejected: String?, initial: Int64)] = []
            for candidate in fresh {
                do {
                    let laid = try candidate.layout.applied(to: scenario, app: app, resources: resources)
                    let initial = laid.apps[app].catalog.packs.filter { $0.category == .initialInstall }.reduce(0) {
                        $0 + $1.size
                    }
                    // One run per device of the population, in its order, for every layout alike.
                    for member in population {
                        let device = try candidate.layout.applied(to: member.scenario, app: app, resources: resources)
                        runnable.append((made.count, point(device, candidate.layout)))
                    }
                    if population.isEmpty { runnable.append((made.count, point(laid, candidate.layout))) }
                    made.append((candidate.layout, candidate.move, candidate.parent, nil, initial))
                } catch {
                    made.append((candidate.layout, candidate.move, candidate.parent, error.description, 0))
                }
            }
            var rows: [[SummaryRow]] = Array(repeating: [], count: made.count)
            if !runnable.isEmpty {
                let outcomes = try perform(runnable.map(\.point), round: round)
                round += 1
                for outcome in outcomes { rows[runnable[outcome.point].index].append(outcome.summary) }
            }
            for (i, candidate) in made.enumerated() {
                let runRows = rows[i]
                func mean(_ metric: Metric) -> Double {
                    runRows.isEmpty
                        ? .nan
                        : runRows.reduce(0) { $0 + (($1[metric]).isNaN ? 0 : $1[metric]) } / Double(runRows.count)
                }
                let objectives = runRows.map { objective($0, initial: candidate.initial) }
                let id = evaluations.count
                evaluations.append(
                    Evaluation(
                        id: id, layout: candidate.layout, move: candidate.move, parent: candidate.parent,
                        rejected: candidate.rejected,
                        objectives: objectives, redownloadBytes: mean(.redownloadBytes),
                        overPurgeBytes: mean(.overPurgeBytes),
                        waitP95: mean(.waitP95), failedRequests: mean(.failedRequests),
                        initialInstallBytes: candidate.initial))
                evaluations[id].refusedOtherBytes = mean(.refusedOtherBytes)
                ids.append(id)
            }
            progress?(evaluations.count)
            return ids
        }

        let written = Layout.asWritten(resources)
        if exhaustive {
            // Every layout of a small app, the one as written first: the best is the best there is.
            let all =
                [(written, "as written", nil)]
                + Layout.all(of: resources.count).map { ($0, $0.describe(resources), Optional<Int>.none) }
            let ids = try evaluate(all)
            let best =
                ids.filter { evaluations[$0].rejected == nil }.min { evaluations[$0].mean < evaluations[$1].mean }
                ?? ids[0]
            return Result(
                evaluations: evaluations, original: ids[0], best: best, starts: [ids[0]],
                bounds: try bounds([evaluations[ids[0]].layout, evaluations[best].layout], round: round))
        }
        let starts = try evaluate([
            (written, "as written", nil),
            (Layout.onePerResource(resources), "one pack per resource", nil),
            (Layout.greedy(resources, coAccess: coAccess), "64 MB rule over co-access", nil),
        ])
        let original = starts[0]
        var best =
            starts.filter { evaluations[$0].rejected == nil }.min { evaluations[$0].mean < evaluations[$1].mean }
            ?? original
        func lowest(_ ids: [Int]) -> Int? {
            ids.filter { evaluations[$0].rejected == nil }.min { evaluations[$0].mean < evaluations[$1].mean }
        }
        while evaluations.count < maxEvaluations {
            let moves = neighbours(of: evaluations[best].layout, coAccess: coAccess).map {
                ($0.layout, $0.move, Optional(best))
            }
            let ids = try evaluate(moves)
            if let challenger = lowest(ids), evaluations[challenger].mean < evaluations[best].mean {
                best = challenger
                continue
            }
            // No single move improves: pairs of moves, a second from each of the three best
            // first ones (a merge that pays only with another strategy, a promotion only with a
            // larger budget), before giving up.
            let firsts = ids.filter { evaluations[$0].rejected == nil }.sorted {
                evaluations[$0].mean < evaluations[$1].mean
            }.prefix(3)
            let pairs = firsts.flatMap { first in
                neighbours(of: evaluations[first].layout, coAccess: coAccess).map {
                    ($0.layout, $0.move, Optional(first))
                }
            }
            guard let pair = lowest(try evaluate(pairs)), evaluations[pair].mean < evaluations[best].mean else { break }
            best = pair
        }
        return Result(
            evaluations: evaluations, original: original, best: best, starts: starts,
            bounds: try bounds([evaluations[original].layout, evaluations[best].layout], round: round))
    }

    /// The app's id, as its rows (``Metrics/AppRow``) name it.
    var appID: String { scenario.apps[app].id }

    /// One run's objective, in bytes (``Weights``), for a layout whose initial install is `initial` bytes.
    func objective(_ row: SummaryRow, initial: Int64) -> Double {
        let wait = row[.waitP95].isNaN ? 0 : row[.waitP95]
        return row[.redownloadBytes] + weights.refusedPrice * row[.refusedOtherBytes]
            + weights.overPurgePrice * row[.overPurgeBytes] + weights.waitPrice * wait
            + weights.installPrice * Double(initial) + weights.failurePrice * row[.failedRequests]
            + weights.downloadPrice * row[.downloads]
    }

    /// The fewest bytes of the app's any purge order could have re-downloaded (``RedownloadBound``),
    /// mean over the replications, for each layout on the scenario's own device.
    func bounds(_ layouts: [Layout], round: Int) throws -> [Double] {
        let points = try layouts.map { layout in
            point(try layout.applied(to: scenario, app: app, resources: resources), layout)
        }
        var sums = Array(repeating: 0.0, count: layouts.count)
        for outcome in try perform(points, round: round, bound: true) {
            sums[outcome.point] += Double(outcome.bound ?? 0)
        }
        return sums.map { $0 / Double(replications) }
    }

    /// Runs every point under the policy, each replication on its common seed: here on
    /// `jobs` cores, or this shard's share with the others' read from the ``exchange``.
    /// Outcomes in plan order (point, then replication).
    func perform(_ points: [ExperimentPlan.Point], round: Int, bound: Bool = false, replications: Int? = nil) throws
        -> [AdviceExchange.Outcome]
    {
        let plan = ExperimentPlan(points: points, policies: [policy], replications: replications ?? self.replications)
        var runner = ExperimentRunner(plan: plan, sampleInterval: 0, recordsEvents: false, jobs: jobs)
        runner.computesRedownloadBound = bound
        runner.keepsChartData = false
        runner.boundApp = appID
        runner.maxEvents = maxEvents
        func run(_ indices: [Int]) throws -> [(index: Int, outcome: AdviceExchange.Outcome)] {
            zip(indices, try runner.run(indices: indices)).map { index, result in
                // The app's focus: its own metrics, the device's where only the device has one.
                // Its values alone travel through an exchange, so a shard's rows and another's are alike.
                var focus = AppRow.summaryRows(
                    of: appID, in: result.apps, beside: [result.summary], scenarioHash: result.summary.scenarioHash)[0]
                focus.device = nil
                return (
                    index, AdviceExchange.Outcome(point: result.point, summary: focus, bound: result.redownloadBound)
                )
            }
        }
        guard let exchange else { return try run(Array(plan.runs.indices)).map(\.outcome) }
        return try exchange.share(plan, round: round, run: run)
    }

    /// Strategies an app's code may run, tried where the app evicts.
    public var strategies = [
        LRUPolicy.descriptor, FIFOPolicy.descriptor, GDSFPolicy.descriptor, SievePolicy.descriptor,
        LargestFirstPolicy.descriptor, BestFitPolicy.descriptor,
    ]

    /// Where the app evicts: the app's budget halved and doubled (from its content's size
    /// when it has none), and each other strategy; the layout's packs unchanged.
    func settingMoves(of layout: Layout) -> [(layout: Layout, move: String)] {
        guard scenario.platform(of: app).evictor == .app else { return [] }
        var moves: [(layout: Layout, move: String)] = []
        let content = resources.reduce(Int64(0)) { $0 + $1.size }
        let current = layout.budget ?? scenario.apps[app].eviction.budget ?? content
        for factor in [0.5, 2.0] {
            let bytes = Int64((Double(current) * factor).rounded())
            guard bytes > 0, bytes <= ModelLimits.bytes else { continue }
            var moved = layout
            moved.budget = bytes
            moves.append((moved, "budget \(ByteFormatting.scenarioSize(bytes))"))
        }
        let running = layout.strategy ?? scenario.apps[app].eviction.strategy ?? policy.name
        for strategy in strategies.map(\.name) where strategy != running {
            var moved = layout
            moved.strategy = strategy
            moves.append((moved, "strategy \(strategy)"))
        }
        return moves
    }

    /// The moves tried from `layout`, most promising first.
    func neighbours(of layout: Layout, coAccess: CoAccess) -> [(layout: Layout, move: String)] {
        var moves: [(layout: Layout, move: String)] = []
        let groups = layout.groups
        // Merges: the pairs most often requested together.
        var pairs: [(a: Int, b: Int, weight: Int)] = []
        for a in groups.indices {
            for b in groups.indices where b > a {
                let weight = coAccess.between(groups[a], groups[b])
                if weight > 0 { pairs.append((a, b, weight)) }
            }
        }
        pairs.sort { $0.weight != $1.weight ? $0.weight > $1.weight : ($0.a, $0.b) < ($1.a, $1.b) }
        for pair in pairs.prefix(12) {
            moves.append((layout.merging(pair.a, pair.b), "merge \(name(groups[pair.a])) + \(name(groups[pair.b]))"))
        }
        // Splits: the largest packs of several resources, by file tag set, or the largest out.
        let several = groups.indices.filter { groups[$0].count > 1 }
            .sorted { layout.size(of: $0, resources) > layout.size(of: $1, resources) }
        for g in several.prefix(4) {
            let byTags = Layout.asWritten(groups[g].map { resources[$0] }).groups.map { $0.map { groups[g][$0] } }
            if byTags.count > 1 {
                moves.append(
                    (layout.splitting(g, part: byTags.last!), "split \(name(byTags.last!)) from \(name(groups[g]))"))
            }
            let largest = groups[g].max { resources[$0].size < resources[$1].size }!
            moves.append(
                (layout.splitting(g, part: [largest]), "split \(resources[largest].name) from \(name(groups[g]))"))
        }
        // Promotions: the most requested on-demand packs to prefetch; a promoted one back.
        let requested = groups.indices.filter { !layout.promoted[$0] }
            .sorted {
                groups[$0].map { coAccess.frequency[$0] }.max()! > groups[$1].map { coAccess.frequency[$0] }.max()!
            }
        for g in requested.prefix(4) where groups[g].allSatisfy({ coAccess.frequency[$0] > 0 }) {
            moves.append((layout.promoting(g), "promote \(name(groups[g])) to prefetch"))
        }
        for g in groups.indices where layout.promoted[g] {
            moves.append((layout.promoting(g, false), "demote \(name(groups[g]))"))
        }
        // Every move keeps the layout's budget and strategy; then the setting moves.
        moves = moves.map { moved, text in
            var kept = moved
            kept.budget = layout.budget
            kept.strategy = layout.strategy
            return (kept, text)
        }
        return moves + settingMoves(of: layout)
    }

    /// A group as the moves name it: its resources, `map-1+forest`.
    func name(_ group: [Int]) -> String {
        let names = group.map { resources[$0].name }
        return names.count <= 3
            ? names.joined(separator: "+") : names.prefix(2).joined(separator: "+") + "+\(names.count - 2) more"
    }
}
