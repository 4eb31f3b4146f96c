import Metrics
import ODRPolicies

/// Whether a verdict rests on an assumption: the same plan run again, on the same seeds,
/// under each alternative of each ``Assumption`` that applies to it, and judged as the verdict
/// is (``Verdict``): on the same rows (under a focus on one app, the app's, with the device's
/// guard metrics beside them), each headline metric's best deployable policy, and with an
/// ``Objective`` its recommendation within the limits.
///
/// Under an alternative a verdict **holds** when the policy that was best is still best (or
/// tied for best) and, where the verdict claimed a significant advantage over the baseline,
/// keeps one; **flips** when another policy is best and its paired difference to the one that
/// was best, on the same seeds, has a 95 % interval that excludes 0, or when the recommended
/// policy breaks a limit there; and is **within the noise** otherwise (another best by its
/// mean only, or the same best whose advantage is no longer significant). What `--robustness`
/// writes as `robustness.csv` and says in the headline. A metric that no policy moves (the
/// same under every policy, as run and under the alternative) has no row.
public struct Robustness: Sendable {
    /// One metric's (or the objective's) verdict under one alternative.
    public struct Row: Sendable {
        public let assumption: String
        public let key: String
        public let defaultValue: String
        public let alternative: String
        /// The metric's column, or `objective` for the recommendation.
        public let measure: String
        /// The best deployable policy as run, and under the alternative (`none` when no policy
        /// respects every limit).
        public let best: String
        public let bestAlternative: String
        /// The means of those two policies under the alternative, and the best's as run.
        public let bestMean: Double
        public let bestMeanAlternative: Double
        /// Under the alternative, the new best − the old best, replication by replication.
        public let change: Interval?
        /// Whether the best's advantage over the baseline was significant as run, and is under
        /// the alternative (nil where the best is the baseline or changed).
        public let significant: Bool
        public let significantAlternative: Bool?
        /// The limits the recommended policy breaks under the alternative.
        public let broken: [String]
        /// `holds`, `flips` or `within the noise` (see ``Robustness``).
        public let verdict: String

        public var holds: Bool { verdict != "flips" }
    }

    public let rows: [Row]
    /// The assumptions that applied (each with at least one alternative run).
    public let assumptions: [String]

    /// Runs the one point of `runner`'s plan under every applying alternative, with its
    /// settings (jobs, event limit, warm-up), and compares each headline metric's best with
    /// `verdict` (the verdict as run, of `app`'s focus when one is given), and with `objective`
    /// its recommendation as run (`rows`: the rows it was made from).
    public static func check(
        like runner: ExperimentRunner, verdict: Verdict, baseline: String, app: String? = nil,
        objective: (Objective, rows: [SummaryRow])? = nil
    ) throws -> Robustness {
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
                rerun.keepsChartData = false
                rerun.warmup = runner.warmup
                let summaries = try rerun.run().summaryRows(app: app)
                func row(_ measure: String, _ judged: Judged) -> Row {
                    Row(
                        assumption: assumption.name, key: assumption.key, defaultValue: assumption.defaultValue,
                        alternative: alternative.value, measure: measure, best: judged.best,
                        bestAlternative: judged.bestAlternative, bestMean: judged.bestMean,
                        bestMeanAlternative: judged.bestMeanAlternative, change: judged.change,
                        significant: judged.significant, significantAlternative: judged.significantAlternative,
                        broken: judged.broken, verdict: judged.verdict)
                }
                // The verdict's metrics, blocked launches among them where the runs have them.
                let platform = verdict.lines.contains { $0.metric.isPlatformMetric }
                let other = Verdict(
                    Comparison(rows: summaries, reference: baseline, platformMetrics: platform), offline: offline,
                    metrics: verdict.lines.map(\.metric))
                for (line, otherLine) in zip(verdict.lines, other.lines) {
                    guard let judged = Judged(line, otherLine, summaries, platform: platform) else { continue }
                    rows.append(row(line.metric.column, judged))
                }
                if let (objective, asRun) = objective {
                    rows.append(
                        row(
                            "objective",
                            Judged(
                                objective, asRun: asRun, alternative: summaries, baseline: baseline, offline: offline)
                        ))
                }
            }
        }
        return Robustness(rows: rows, assumptions: applied)
    }

    /// One measure judged under one alternative: the row's figures before it has a place.
    struct Judged {
        var best: String, bestAlternative: String
        var bestMean: Double, bestMeanAlternative: Double
        var change: Interval?
        var significant: Bool, significantAlternative: Bool?
        var broken: [String] = []
        var verdict: String

        /// A headline metric's line as run and under the alternative; nil where there is no best
        /// or no policy moves the metric.
        init?(_ line: Verdict.Line, _ otherLine: Verdict.Line, _ summaries: [SummaryRow], platform: Bool) {
            guard let best = line.best, let bestAlternative = otherLine.best, !(line.identical && otherLine.identical)
            else { return nil }
            let same = best == bestAlternative || otherLine.tied.contains(best) || line.tied.contains(bestAlternative)
            // The new best against the old one, paired on the same seeds.
            change =
                same
                ? nil
                : Comparison(rows: summaries, reference: best, platformMetrics: platform).statistics(
                    of: bestAlternative)?.differences?[line.metric.position]
            (self.best, self.bestAlternative) = (best, bestAlternative)
            (bestMean, bestMeanAlternative) = (line.bestMean, otherLine.bestMean)
            significant = line.significant
            // The same best keeps its claim only if its own advantage is still significant there.
            significantAlternative = same && best == bestAlternative ? otherLine.significant : nil
            verdict = Robustness.judge(
                sameBest: same, change: change, claimed: significant, keeps: significantAlternative ?? true)
        }

        /// The objective's recommendation as run (from `asRun`) and under the alternative.
        init(
            _ objective: Objective, asRun: [SummaryRow], alternative: [SummaryRow], baseline: String,
            offline: Set<String>
        ) {
            let before = objective.recommend(asRun, baseline: baseline, offline: offline)
            let after = objective.recommend(alternative, baseline: baseline, offline: offline)
            func lower(_ c: Recommendation.Candidate?) -> Bool {
                c.map { $0.policy != baseline && $0.versusBaseline.excludesZero && $0.versusBaseline.mean < 0 } ?? false
            }
            let best = before.best?.policy ?? "none"
            (self.best, bestAlternative) = (best, after.best?.policy ?? "none")
            let kept = after.candidates.first { $0.policy == best }
            bestMean = before.best?.objective.mean ?? .nan
            bestMeanAlternative = after.best?.objective.mean ?? .nan
            significant = lower(before.best)
            broken = kept?.broken.map(\.limit.text) ?? []
            let same = best == (after.best?.policy ?? "none")
            significantAlternative = same ? lower(kept) : nil
            change = nil
            if !same, let kept, let new = after.best {
                let pairs = zip(
                    Robustness.runs(of: new.policy, alternative), Robustness.runs(of: kept.policy, alternative))
                change = Interval(pairs.map { objective.value($0) - objective.value($1) })
            }
            verdict =
                broken.isEmpty
                ? Robustness.judge(
                    sameBest: same, change: change, claimed: significant, keeps: significantAlternative ?? true)
                : "flips"
        }
    }

    /// `policy`'s rows of `rows`, by replication.
    static func runs(of policy: String, _ rows: [SummaryRow]) -> [SummaryRow] {
        rows.filter { $0.policy == policy }.sorted { $0.replication < $1.replication }
    }

    /// The report's table rows: assumption, alternative, metric, best as run, best under it, verdict.
    public var tableRows: [[String]] {
        rows.map { [$0.assumption, $0.alternative, $0.measure, $0.best, $0.bestAlternative, $0.verdict] }
    }

    /// A row's verdict: `holds` when the best is the same (or tied) and, if it `claimed` a
    /// significant advantage, `keeps` one; `flips` when the new best's paired difference to the
    /// old one excludes 0; else `within the noise`.
    public static func judge(sameBest: Bool, change: Interval?, claimed: Bool = false, keeps: Bool = true) -> String {
        if sameBest { return !claimed || keeps ? "holds" : "within the noise" }
        return (change?.excludesZero ?? false) ? "flips" : "within the noise"
    }

    /// `robustness.csv`: one row per assumption, alternative and headline metric (and the
    /// objective's recommendation, `objective`).
    public var csv: String {
        CSV.row([
            "assumption", "key", "default", "alternative", "metric", "best", "best_mean", "best_under_alternative",
            "best_under_alternative_mean", "change_mean", "change_ci_low", "change_ci_high", "verdict",
            "best_significant", "best_significant_under_alternative", "limits_broken",
        ])
            + rows.map { row in
                CSV.row([
                    row.assumption, row.key, row.defaultValue, row.alternative, row.measure, row.best,
                    CSV.decimal(row.bestMean), row.bestAlternative, CSV.decimal(row.bestMeanAlternative),
                    row.change.map { CSV.decimal($0.mean) } ?? "", row.change.map { CSV.decimal($0.low) } ?? "",
                    row.change.map { CSV.decimal($0.high) } ?? "", row.verdict, String(row.significant),
                    row.significantAlternative.map(String.init) ?? "", row.broken.joined(separator: "; "),
                ])
            }.joined()
    }

    /// The headline's line, values written by `describe` (the objective's in bytes): "holds
    /// under all 3 applying assumptions (5 alternatives)", or the alternatives it flips under and
    /// those under which it is within the noise, each with its numbers, and how many it holds under.
    public func headline(describe: (Double, Metric) -> String) -> String {
        if assumptions.isEmpty {
            return "robustness: no undocumented assumption with an alternative applies to this scenario"
        }
        func name(_ row: Row) -> String { "\(row.assumption)=\(row.alternative)" }
        func value(_ row: Row, _ v: Double) -> String {
            describe(v, Metric(rawValue: row.measure) ?? .redownloadBytes)
        }
        func changed(_ row: Row) -> String {
            guard let c = row.change else { return "" }
            return ", change \(value(row, c.mean)) (95 % interval \(value(row, c.low)) to \(value(row, c.high)))"
        }
        let alternatives = Set(rows.map(name)).count
        let flips = rows.filter { $0.verdict == "flips" }
        let noisy = rows.filter { $0.verdict == "within the noise" }
        guard !flips.isEmpty || !noisy.isEmpty else {
            return """
                robustness: the verdict holds under all \(assumptions.count) applying assumptions (\(alternatives) \
                alternatives, same seeds)
                """
        }
        // Why each row does not hold, with its numbers.
        func why(_ row: Row) -> String {
            let what = "\(row.measure): "
            if !row.broken.isEmpty { return what + "\(row.best) breaks \(row.broken.joined(separator: ", "))" }
            if row.verdict == "flips" {
                return what + "\(row.best) → \(row.bestAlternative)\(changed(row)), significant"
            }
            if row.best == row.bestAlternative {
                return what + "\(row.best) still best, \(value(row, row.bestMeanAlternative)), "
                    + "its advantage over the baseline no longer significant"
            }
            return what + "\(row.bestAlternative) best by its mean only\(changed(row))"
        }
        // Each alternative once, with its measures: `system-removes-for-other-data=true (a; b)`.
        func grouped(_ rows: [Row]) -> String {
            var order: [String] = []
            var measures: [String: [String]] = [:]
            for row in rows {
                if measures[name(row)] == nil { order.append(name(row)) }
                measures[name(row), default: []].append(why(row))
            }
            return order.map { "\($0) (\(measures[$0]!.joined(separator: "; ")))" }.joined(separator: "; ")
        }
        var parts: [String] = []
        if !flips.isEmpty { parts.append("the verdict flips under " + grouped(flips)) }
        if !noisy.isEmpty { parts.append("it is within the noise under " + grouped(noisy)) }
        let holding = alternatives - Set((flips + noisy).map(name)).count
        return "robustness: " + parts.joined(separator: "; ")
            + "; it holds under \(holding) of \(alternatives) alternatives (same seeds)"
    }
}
