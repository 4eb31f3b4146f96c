import Metrics
import ODRPolicies

/// Whether a verdict rests on an assumption: the same plan run again, on the same seeds,
/// under each alternative of each ``Assumption`` that applies to it, and each headline
/// metric's best deployable policy compared with the verdict as run (``Verdict``).
///
/// Under an alternative a verdict **holds** when the policy that was best is still best (or
/// tied for best); **flips** when another policy is best and its paired difference to the
/// one that was best, on the same seeds, has a 95 % interval that excludes 0; and is **within
/// the noise** when another is best by its mean only. What `--robustness` writes as
/// `robustness.csv` and says in the headline. A metric that no policy moves (the same under
/// every policy, as run and under the alternative) has no row.
public struct Robustness: Sendable {
    /// One metric's verdict under one alternative.
    public struct Row: Sendable {
        public let assumption: String
        public let key: String
        public let defaultValue: String
        public let alternative: String
        public let metric: Metric
        /// The best deployable policy as run, and under the alternative.
        public let best: String
        public let bestAlternative: String
        /// The means of those two policies under the alternative, and the best's as run.
        public let bestMean: Double
        public let bestMeanAlternative: Double
        /// Under the alternative, the new best − the old best, replication by replication.
        public let change: Interval?
        /// `holds`, `flips` or `within the noise` (see ``Robustness``).
        public let verdict: String

        public var holds: Bool { verdict != "flips" }
    }

    public let rows: [Row]
    /// The assumptions that applied (each with at least one alternative run).
    public let assumptions: [String]

    /// Runs the one point of `runner`'s plan under every applying alternative, with its
    /// settings (jobs, event limit, warm-up), and compares each headline metric's best with
    /// `verdict` (the verdict as run).
    public static func check(like runner: ExperimentRunner, verdict: Verdict, baseline: String) throws -> Robustness {
        let plan = runner.plan
        precondition(plan.points.count == 1, "robustness of one scenario")
        let offline = Set(plan.policies.filter(\.needsFuture).map(\.name))
        var rows: [Row] = []
        var applied: [String] = []
        for assumption in Assumption.all
        where assumption.applies(to: plan.points[0], policies: plan.policies) && !assumption.alternatives.isEmpty {
            applied.append(assumption.name)
            for alternative in assumption.alternatives {
                let changed = ExperimentPlan(
                    points: [alternative.applied(to: plan.points[0])], policies: plan.policies,
                    replications: plan.replications)
                var rerun = ExperimentRunner(plan: changed, sampleInterval: 0, recordsEvents: false, jobs: runner.jobs)
                rerun.maxEvents = runner.maxEvents
                rerun.warmup = runner.warmup
                let summaries = try rerun.run().map(\.summary)
                // The verdict's metrics, blocked launches among them where the runs have them.
                let platform = verdict.lines.contains { $0.metric.isPlatformMetric }
                let other = Verdict(
                    Comparison(rows: summaries, reference: baseline, platformMetrics: platform), offline: offline,
                    metrics: verdict.lines.map(\.metric))
                for (line, otherLine) in zip(verdict.lines, other.lines) {
                    guard let best = line.best, let bestAlternative = otherLine.best,
                        !(line.identical && otherLine.identical)
                    else { continue }
                    let same =
                        best == bestAlternative || otherLine.tied.contains(best) || line.tied.contains(bestAlternative)
                    // The new best against the old one, paired on the same seeds.
                    let change =
                        same
                        ? nil
                        : Comparison(rows: summaries, reference: best, platformMetrics: platform).statistics(
                            of: bestAlternative)?.differences?[line.metric.position]
                    let verdict = judge(sameBest: same, change: change)
                    rows.append(
                        Row(
                            assumption: assumption.name, key: assumption.key, defaultValue: assumption.defaultValue,
                            alternative: alternative.value, metric: line.metric, best: best,
                            bestAlternative: bestAlternative,
                            bestMean: line.bestMean, bestMeanAlternative: otherLine.bestMean, change: change,
                            verdict: verdict))
                }
            }
        }
        return Robustness(rows: rows, assumptions: applied)
    }

    /// The report's table rows: assumption, alternative, metric, best as run, best under it, verdict.
    public var tableRows: [[String]] {
        rows.map { [$0.assumption, $0.alternative, $0.metric.column, $0.best, $0.bestAlternative, $0.verdict] }
    }

    /// A row's verdict: `holds` when the best is the same (or tied), `flips` when the new
    /// best's paired difference to the old one excludes 0, else `within the noise`.
    public static func judge(sameBest: Bool, change: Interval?) -> String {
        if sameBest { return "holds" }
        return (change?.excludesZero ?? false) ? "flips" : "within the noise"
    }

    /// `robustness.csv`: one row per assumption, alternative and headline metric.
    public var csv: String {
        CSV.row([
            "assumption", "key", "default", "alternative", "metric", "best", "best_mean", "best_under_alternative",
            "best_under_alternative_mean", "change_mean", "change_ci_low", "change_ci_high", "verdict",
        ])
            + rows.map { row in
                CSV.row([
                    row.assumption, row.key, row.defaultValue, row.alternative, row.metric.column, row.best,
                    CSV.decimal(row.bestMean), row.bestAlternative, CSV.decimal(row.bestMeanAlternative),
                    row.change.map { CSV.decimal($0.mean) } ?? "", row.change.map { CSV.decimal($0.low) } ?? "",
                    row.change.map { CSV.decimal($0.high) } ?? "", row.verdict,
                ])
            }.joined()
    }

    /// The headline's line: "holds under all 3 applying assumptions (5 alternatives)", the
    /// alternatives it flips under, and those under which another policy is best by its mean only.
    public var headline: String {
        if assumptions.isEmpty {
            return "robustness: no undocumented assumption with an alternative applies to this scenario"
        }
        func name(_ row: Row) -> String { "\(row.assumption)=\(row.alternative)" }
        let alternatives = Set(rows.map(name)).count
        let flips = rows.filter { $0.verdict == "flips" }
        let noisy = rows.filter { $0.verdict == "within the noise" }
        var text =
            flips.isEmpty
            ? """
            robustness: the verdict holds under all \(assumptions.count) applying assumptions (\(alternatives) \
            alternatives, same seeds)
            """
            : "robustness: the verdict flips under "
                + flips.map { "\(name($0)) (\($0.metric.column): \($0.best) → \($0.bestAlternative), significant)" }
                .joined(separator: "; ")
                    + """
                    ; it holds under the other \(alternatives - Set(flips.map(name)).count) of \(alternatives) \
                    alternatives
                    """
        if !noisy.isEmpty {
            text +=
                "; another policy is best by its mean only (within the noise) under "
                + noisy.map { "\(name($0)) (\($0.metric.column): \($0.bestAlternative))" }.joined(separator: "; ")
        }
        return text
    }
}
