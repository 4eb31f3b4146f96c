import Experiments
import Metrics
import Simulation

extension Advisor {
    /// Whether the advice rests on an undocumented assumption (`advise --robustness`): the
    /// layout as written and the advised one rerun, on the search's seeds, under each
    /// alternative of each assumption that applies (``Assumption``); the advice **holds** where
    /// the advised layout still does better by its mean (significantly, where the search found
    /// its advantage significant), **flips** where it does significantly worse, and is **within
    /// the noise** otherwise (``Experiments/Robustness/judge(sameBest:change:claimed:keeps:)``).
    public struct AdviceRobustness: Sendable {
        public struct Row: Sendable {
            public let assumption: String
            public let alternative: String
            /// Advised − as written under the alternative, paired.
            public let change: Interval
            public let verdict: String
        }

        public let rows: [Row]

        /// The answer's line.
        public func headline(_ bytes: (Double) -> String) -> String {
            guard !rows.isEmpty else {
                return "robustness: no undocumented assumption with an alternative applies to this scenario"
            }
            let flips = rows.filter { $0.verdict == "flips" }
            let noisy = rows.filter { $0.verdict == "within the noise" }
            func name(_ row: Row) -> String {
                """
                \(row.assumption)=\(row.alternative) (advised − as written \(bytes(row.change.mean)), \
                \(bytes(row.change.low)) to \(bytes(row.change.high)))
                """
            }
            var text =
                flips.isEmpty
                ? """
                robustness: the advice holds under \(rows.count - noisy.count) of \(rows.count) alternatives of \
                the applying assumptions
                """
                : "robustness: the advice flips under " + flips.map(name).joined(separator: "; ")
            if !noisy.isEmpty { text += "; within the noise under " + noisy.map(name).joined(separator: "; ") }
            return text
        }

        /// As data (`--format json`).
        public var json: String {
            JSONText.array(
                rows.map { row in
                    JSONText.object([
                        ("assumption", JSONText.string(row.assumption)),
                        ("alternative", JSONText.string(row.alternative)),
                        ("change", JSONText.number(row.change.mean)),
                        ("change_ci_low", JSONText.number(row.change.low)),
                        ("change_ci_high", JSONText.number(row.change.high)), ("verdict", JSONText.string(row.verdict)),
                    ])
                })
        }
    }

    /// Reruns the advised and the original layout under every applying alternative (a round
    /// of its own: every shard calls it).
    public func robustness(_ result: Result, round: Int = 2_000_000) throws -> AdviceRobustness {
        let layouts = [result.evaluations[result.best], result.evaluations[result.original]]
        let devices = population.isEmpty ? [scenario] : population.map(\.scenario)
        let base = point(try layouts[1].layout.applied(to: scenario, app: app, resources: resources), layouts[1].layout)
        var rows: [AdviceRobustness.Row] = []
        for (k, assumption) in Assumption.all.enumerated() where assumption.applies(to: base, policies: [policy]) {
            for (j, alternative) in assumption.alternatives.enumerated() {
                var points: [ExperimentPlan.Point] = []
                for layout in layouts {
                    for device in devices {
                        points.append(
                            alternative.applied(
                                to: point(
                                    try layout.layout.applied(to: device, app: app, resources: resources), layout.layout
                                )))
                    }
                }
                var objectives: [[Double]] = [[], []]
                for outcome in try perform(points, round: round + 100 * k + j) {
                    let which = outcome.point / devices.count
                    objectives[which].append(objective(outcome.summary, initial: layouts[which].initialInstallBytes))
                }
                let change = Interval(zip(objectives[0], objectives[1]).map { $0 - $1 })
                // Judged as `compare --robustness` judges a verdict: an advantage the search
                // found significant must stay significant to hold.
                let claimed = result.difference.high < 0
                let verdict =
                    result.best == result.original
                    ? "holds"
                    : Robustness.judge(
                        sameBest: change.mean < 0, change: change, claimed: claimed, keeps: change.high < 0)
                rows.append(
                    .init(assumption: assumption.name, alternative: alternative.value, change: change, verdict: verdict)
                )
            }
        }
        return AdviceRobustness(rows: rows)
    }
}
