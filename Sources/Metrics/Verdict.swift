/// The headline of a comparison: for each main metric, the best deployable policy, its
/// change against the baseline with the 95 % interval of the paired difference, and whether
/// that interval excludes 0. Offline policies (which read the future, as `belady`) are
/// bounds, never "best": each line names the bound beside the winner.
public struct Verdict: Sendable {
    /// One metric's verdict.
    public struct Line: Sendable {
        public let metric: Metric
        /// The deployable policy with the lowest mean (highest for a metric where more is
        /// better), or nil when none but the baseline was run.
        public let best: String?
        /// Its paired difference to the baseline (policy − baseline), or nil for the baseline.
        public let change: Interval?
        public let baselineMean: Double
        public let bestMean: Double
        /// The best offline policy's mean, the bound on what any purge order could reach.
        public let bound: (policy: String, mean: Double)?
        /// The other deployable policies whose mean equals the best's, by name.
        public let tied: [String]
        /// Whether every deployable policy gave the baseline's value in every replication
        /// (nothing the purge order changes), with more than one deployable policy run.
        public let identical: Bool

        /// With more than one deployable policy against the baseline: how many, and the best's
        /// Holm-adjusted p-value (``Holm``); nil with one, whose interval alone decides.
        public var comparisons = 1
        public var adjustedP: Double? = nil
        /// The baseline's replications (what "every replication" counts).
        public var replications = 0
        /// What the best costs: the guard metrics (``Verdict/guardMetrics``) on which it is
        /// significantly worse than the baseline (paired interval wholly on the worse side),
        /// with both means.
        public var costs: [(metric: Metric, bestMean: Double, baselineMean: Double)] = []

        /// Whether the change is more than noise: its interval excludes 0 (never with one
        /// replication), and, among several policies, its Holm-adjusted p-value is below 0.05.
        public var significant: Bool {
            guard change?.excludesZero ?? false else { return false }
            return adjustedP.map { $0 < 0.05 } ?? true
        }
    }

    public let baseline: String
    public let lines: [Line]

    /// The metrics a headline speaks of.
    public static let headlineMetrics: [Metric] = [.redownloadBytes, .overPurgeBytes, .failedRequests, .waitP95]

    /// The metrics a best on another metric must not be significantly worse on, or the verdict
    /// names the cost: failures, the 95th-percentile wait, and where runs have them, the time
    /// launches were blocked.
    public static let guardMetrics: [Metric] = [.failedRequests, .waitP95, .launchBlockedSeconds]

    /// The metrics a comparison's headline speaks of: ``headlineMetrics``, and the seconds
    /// launches waited where the runs have the platform metrics (an app update's essential
    /// packs, Background Assets and Play).
    public static func metrics(of comparison: Comparison) -> [Metric] {
        headlineMetrics + (comparison.metrics.contains(.launchBlockedSeconds) ? [.launchBlockedSeconds] : [])
    }

    /// `offline` names the policies that read the future (bounds, not candidates). A metric
    /// the comparison does not hold (a platform metric of an ODR run) has no line.
    public init(_ comparison: Comparison, offline: Set<String>, metrics: [Metric] = Verdict.headlineMetrics) {
        let metrics = metrics.filter(comparison.metrics.contains)
        baseline = comparison.reference
        let deployable = comparison.policies.filter { !offline.contains($0.policy) }
        let bounds = comparison.policies.filter { offline.contains($0.policy) }
        let base = comparison.statistics(of: comparison.reference)
        lines = metrics.map { metric in
            let c = metric.position
            func better(_ a: Comparison.PolicyStatistics, _ b: Comparison.PolicyStatistics) -> Bool {
                let (x, y) = (a.metrics[c].mean, b.metrics[c].mean)
                if x != y { return metric.lowerIsBetter ? x < y : x > y }
                return a.policy < b.policy
            }
            let winner = deployable.min(by: better)
            let bound = bounds.min(by: better).map { ($0.policy, $0.metrics[c].mean) }
            let tied = deployable.filter {
                $0.policy != winner?.policy && $0.metrics[c].mean == winner?.metrics[c].mean
            }.map(\.policy).sorted()
            let identical =
                deployable.count > 1
                && deployable.allSatisfy { statistics in
                    statistics.policy == comparison.reference
                        || statistics.differences.map { $0[c].isAllZero } ?? false
                }
            var line = Line(
                metric: metric, best: winner?.policy, change: winner?.differences?[c],
                baselineMean: base?.metrics[c].mean ?? .nan, bestMean: winner?.metrics[c].mean ?? .nan, bound: bound,
                tied: tied, identical: identical)
            line.replications = base?.replications ?? 0
            // What the winner costs on the guard metrics, where it is significantly worse.
            if let winner, winner.policy != comparison.reference, let d = winner.differences {
                for other in Self.guardMetrics where other != metric && other.position < d.count {
                    let x = d[other.position]
                    guard x.excludesZero, (x.mean > 0) == other.lowerIsBetter else { continue }
                    line.costs.append(
                        (other, winner.metrics[other.position].mean, base?.metrics[other.position].mean ?? .nan))
                }
            }
            // The best was picked among several: its test is adjusted for all of them (Holm).
            let tested = deployable.compactMap { s in
                s.differences.flatMap { Holm.pValue(of: $0[c]) }.map { (s.policy, $0) }
            }
            if tested.count > 1, let winner, let at = tested.firstIndex(where: { $0.0 == winner.policy }) {
                line.comparisons = tested.count
                line.adjustedP = Holm.adjusted(tested.map(\.1))[at]
            }
            return line
        }
    }

    /// The headline as text lines, values written by `describe` (bytes, seconds, counts).
    public func text(describe: (Metric, Double) -> String) -> [String] {
        lines.map { line in
            let name = line.metric.title.prefix(1).lowercased() + line.metric.title.dropFirst()
            var text: String
            if let best = line.best, best != baseline, let change = line.change, change.mean != 0 {
                // The same change in every replication is no interval of certainty: only an
                // outcome rarer than 3/n is ruled out (the rule of three; issue 51).
                let interval =
                    change.standardDeviation == 0 && change.count > 1
                    ? "(change \(signed(change.mean, line.metric, describe)) in every one of \(change.count) "
                        + "replications, \(Self.ruleOfThree(change.count)); "
                    : "(change \(signed(change.mean, line.metric, describe)), 95 % interval "
                        + "\(signed(change.low, line.metric, describe)) to "
                        + "\(signed(change.high, line.metric, describe)); "
                if change.count < 2 {
                    // One replication: a difference, but no spread to judge it by.
                    let verb =
                        (change.mean < 0) == line.metric.lowerIsBetter ? "does better than" : "does no better than"
                    text =
                        """
                        \(name): \(best) \(verb) \(baseline) in the one replication, \
                        \(describe(line.metric, line.bestMean)) against \
                        \(describe(line.metric, line.baselineMean)) \
                        (change \(signed(change.mean, line.metric, describe)); one replication gives no interval: \
                        run 2 or more to judge significance)
                        """
                } else if line.significant {
                    let verb = (change.mean < 0) == line.metric.lowerIsBetter ? "improves on" : "does no better than"
                    text =
                        """
                        \(name): \(best) \(verb) \(baseline), \(describe(line.metric, line.bestMean)) against \
                        \(describe(line.metric, line.baselineMean))
                        """
                        + " " + interval + "significant" + Self.holm(line) + ")"
                } else if change.excludesZero {
                    // Alone it would be; picked as the best of several, it is not (Holm).
                    text =
                        """
                        \(name): \(best) and \(baseline) within the noise, \(describe(line.metric, line.bestMean)) \
                        against \(describe(line.metric, line.baselineMean))
                        """
                        + " " + interval + "not significant" + Self.holm(line) + ")"
                } else {
                    // The best mean, but the interval spans 0: no claim that it is better.
                    text =
                        """
                        \(name): \(best) and \(baseline) within the noise, \(describe(line.metric, line.bestMean)) \
                        against \(describe(line.metric, line.baselineMean))
                        """
                        + " " + interval + "not significant)"
                }
            } else if line.identical {
                text =
                    """
                    \(name): the same under every policy in every replication, \
                    \(describe(line.metric, line.baselineMean))
                    """
                    + (line.replications > 1
                        ? " (\(line.replications) replications: \(Self.ruleOfThree(line.replications)))" : "")
            } else if line.best != nil,
                case let others = line.tied.filter({ $0 != baseline }) + [line.best!].filter({ $0 != baseline }),
                !others.isEmpty
            {
                text =
                    """
                    \(name): \(baseline) is best, tied by \(Self.list(others.sorted())), \
                    \(describe(line.metric, line.baselineMean))
                    """
            } else {
                text = "\(name): \(baseline) is best, \(describe(line.metric, line.baselineMean))"
            }
            if let bound = line.bound {
                text += "; bound (\(bound.policy), offline): \(describe(line.metric, bound.mean))"
            }
            // Only where the line names a best other than the baseline.
            if let best = line.best, best != baseline, !line.identical, (line.change?.mean ?? 0) != 0,
                !line.costs.isEmpty
            {
                text +=
                    "; but \(best) is significantly worse on "
                    + line.costs.map {
                        """
                        \($0.metric.title.lowercased()), \(describe($0.metric, $0.bestMean)) against \(baseline)'s \
                        \(describe($0.metric, $0.baselineMean))
                        """
                    }.joined(separator: " and ")
            }
            return text
        }
    }

    /// What `n` replications that all agree still leave open: `a different outcome in fewer
    /// than 1 run in 3 cannot be ruled out` for 10 (95 %, the rule of three: 3/n).
    public static func ruleOfThree(_ n: Int) -> String {
        n / 3 < 2
            ? "too few to rule out a different outcome in any share of runs"
            : "a different outcome in fewer than 1 run in \(n / 3) cannot be ruled out"
    }

    /// `, Holm-adjusted over 4 policies, p = 0.012`: said wherever several were compared.
    static func holm(_ line: Line) -> String {
        guard let p = line.adjustedP else { return "" }
        let shown = p < 0.001 ? "p < 0.001" : "p = " + String(format: "%.3f", p)
        return " after Holm's adjustment for \(line.comparisons) policies, \(shown)"
    }

    /// Names as a sentence lists them: `a`, `a and b`, `a, b and c`, `a, b, c and 5 others`.
    static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: return ""
        case 1: return names[0]
        case 2...4: return names.dropLast().joined(separator: ", ") + " and " + names.last!
        default: return names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) others"
        }
    }

    /// A study's headline: per main metric, the deployable policy that does better than the
    /// baseline at the most points, at how many, and at how many of them its paired
    /// difference is a significant improvement; and at how many points nothing beats the
    /// baseline (it is best, or tied).
    public static func study(
        _ comparisons: [Comparison], offline: Set<String>,
        metrics: [Metric] = Verdict.headlineMetrics
    ) -> [String] {
        guard let reference = comparisons.first?.reference else { return [] }
        let verdicts = comparisons.map { Verdict($0, offline: offline, metrics: metrics) }
        return metrics.indices.map { m in
            var wins: [String: (points: Int, significant: Int)] = [:]
            var order: [String] = []
            var holds = 0
            for verdict in verdicts {
                let line = verdict.lines[m]
                guard let best = line.best, best != reference, line.bestMean != line.baselineMean else {
                    holds += 1
                    continue
                }
                if wins[best] == nil { order.append(best) }
                wins[best, default: (0, 0)].points += 1
                if line.significant { wins[best, default: (0, 0)].significant += 1 }
            }
            let name = metrics[m].title.prefix(1).lowercased() + metrics[m].title.dropFirst()
            let ranked = order.sorted { (wins[$0]!.points, $1) > (wins[$1]!.points, $0) }
            guard let top = ranked.first else {
                return "\(name): nothing does better than \(reference) at any of the \(comparisons.count) points"
            }
            var text =
                """
                \(name): \(top) is best at \(wins[top]!.points) of \(comparisons.count) points (significantly better \
                than \(reference) at \(wins[top]!.significant))
                """
            let others = ranked.dropFirst().prefix(2).map { "\($0) at \(wins[$0]!.points)" }
            if !others.isEmpty { text += "; " + others.joined(separator: ", ") }
            if holds > 0 { text += "; \(reference) best or tied at \(holds)" }
            return text
        }
    }

    private func signed(_ value: Double, _ metric: Metric, _ describe: (Metric, Double) -> String) -> String {
        value < 0 ? "−" + describe(metric, -value) : "+" + describe(metric, value)
    }
}

extension Verdict {
    /// The verdict as data (`--format json`'s `verdict_lines`): per metric its best, the
    /// baseline, both means, the paired change and its 95 % interval, whether it is
    /// significant (after Holm's adjustment where several were compared), the adjusted
    /// p-value, the bound, and the costs on the guard metrics.
    public var json: String {
        JSONText.array(
            lines.map { line in
                JSONText.object([
                    ("metric", JSONText.string(line.metric.column)),
                    ("best", line.best.map(JSONText.string) ?? "null"),
                    ("baseline", JSONText.string(baseline)),
                    ("best_mean", JSONText.number(line.bestMean)),
                    ("baseline_mean", JSONText.number(line.baselineMean)),
                    ("change", line.change.map { JSONText.number($0.mean) } ?? "null"),
                    ("change_ci_low", line.change.map { JSONText.number($0.low) } ?? "null"),
                    ("change_ci_high", line.change.map { JSONText.number($0.high) } ?? "null"),
                    ("significant", line.significant ? "true" : "false"),
                    ("identical", line.identical ? "true" : "false"),
                    ("policies_compared", String(line.comparisons)),
                    ("holm_p", line.adjustedP.map(JSONText.number) ?? "null"),
                    (
                        "bound",
                        line.bound.map {
                            JSONText.object([
                                ("policy", JSONText.string($0.policy)), ("mean", JSONText.number($0.mean)),
                            ])
                        } ?? "null"
                    ),
                    (
                        "costs",
                        JSONText.array(
                            line.costs.map { cost in
                                JSONText.object([
                                    ("metric", JSONText.string(cost.metric.column)),
                                    ("best_mean", JSONText.number(cost.bestMean)),
                                    ("baseline_mean", JSONText.number(cost.baselineMean)),
                                ])
                            })
                    ),
                ])
            })
    }
}
