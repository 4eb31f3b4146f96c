import Metrics
import Quantities

/// A target precision for a comparison's main metrics (`--precision`): replications are
/// added until every main metric's 95 % half-width is within it for every policy, or the
/// most allowed are run (sequential replication to a fixed precision; Law, *Simulation
/// Modeling and Analysis*, 5th ed., §9.4.1, the relative-precision procedure).
///
/// ```
/// --precision 5%                      every main metric within ±5 % of its mean
/// --precision redownload_bytes=20MB   that metric within ±20 MB (others not targeted)
/// ```
///
/// Replication `r` always runs on seed + r − 1, so a longer series extends a shorter one on
/// the same common random numbers, and the result is the same at any `--jobs`.
public struct Precision: Sendable, Equatable {
    /// A relative half-width (0.05 for 5 %) for every main metric without a target of its own.
    public var relative: Double?
    /// Absolute half-widths, in the metric's unit (bytes, seconds, counts).
    public var absolute: [Metric: Double] = [:]

    /// The metrics a precision speaks of: a comparison's headline metrics.
    public static let metrics = Verdict.headlineMetrics

    /// A policy's metric whose interval is still too wide.
    public struct Miss: Sendable, Equatable {
        public let policy: String
        public let metric: Metric
        public let halfWidth: Double
        public let target: Double
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `5%`, or `METRIC=VALUE` (a size, duration or count as the metric's unit reads it).
    public static func parse(_ texts: [String])
        throws(ParseError) -> Precision
    {
        var precision = Precision()
        for text in texts {
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                let value = String(text[text.index(after: equals)...])
                guard let metric = Metric(rawValue: name), metrics.contains(metric) else {
                    throw ParseError(
                        description: "'\(name)' is not a main metric "
                            + "(\(metrics.map(\.column).joined(separator: ", ")))"
                    )
                }
                let target: Double?
                switch metric.unit {
                case .bytes: target = (try? SizeSyntax.parse(value)).map(Double.init)
                case .seconds: target = try? DurationSyntax.parse(value)
                default: target = Double(value)
                }
                guard let target, target > 0, target.isFinite else {
                    throw ParseError(
                        description: "'\(value)' is not a positive \(Self.kind(of: metric)) for \(name)"
                    )
                }
                precision.absolute[metric] = target
            } else {
                guard text.hasSuffix("%"), let percent = Double(text.dropLast()), percent > 0, percent < 100 else {
                    throw ParseError(
                        description:
                            """
                            '\(text)' is neither a percentage such as 5% nor METRIC=VALUE such as \
                            redownload_bytes=20MB
                            """
                    )
                }
                precision.relative = percent / 100
            }
        }
        return precision
    }

    /// The target half-width of `metric` at `mean`, or nil where the precision sets none.
    func target(_ metric: Metric, mean: Double) -> Double? {
        absolute[metric] ?? relative.map { $0 * abs(mean) }
    }

    /// Every policy × main metric of `comparison` whose 95 % half-width is above its target
    /// (a metric the same in every replication, half-width 0, always meets it).
    public func misses(_ comparison: Comparison) -> [Miss] {
        var misses: [Miss] = []
        for policy in comparison.policies {
            for metric in Self.metrics where metric.position < policy.metrics.count {
                let interval = policy.metrics[metric.position]
                guard let target = target(metric, mean: interval.mean),
                    interval.halfWidth > target || interval.count < 2
                else { continue }
                misses.append(
                    Miss(policy: policy.policy, metric: metric, halfWidth: interval.halfWidth, target: target))
            }
        }
        return misses
    }

    /// What `--precision` reached: the replications it took, or what still misses it (how
    /// many intervals, and the widest against its target). `format` writes a metric's value.
    public static func sentence(_ missed: [Miss], replications: Int, format: (Metric, Double) -> String) -> String {
        guard let worst = missed.max(by: { $0.halfWidth / $0.target < $1.halfWidth / $1.target }) else {
            return
                "--precision: every main metric of every policy within its target after \(replications) replications."
        }
        // Every exception named: each metric still too wide, and for which policies.
        var order: [Metric] = []
        for miss in missed where !order.contains(miss.metric) { order.append(miss.metric) }
        let named = order.map { metric in
            let policies = missed.filter { $0.metric == metric }.map(\.policy)
            let which =
                policies.count == 1 ? policies[0] : "\(policies.count) policies (\(policies.joined(separator: ", ")))"
            return "\(metric.column) of \(which)"
        }
        return "--precision: not reached after \(replications) replications (--max-replications): still too wide, "
            + named.joined(separator: "; ")
                + """
                ; the widest \(worst.policy)'s \(worst.metric.column) ±\(format(worst.metric, worst.halfWidth)) \
                against ±\(format(worst.metric, worst.target)).
                """
    }

    /// The next number of replications after `current`: twice as many (a batch as large as
    /// all before it), at least 2, at most `maximum`.
    public static func next(after current: Int, maximum: Int) -> Int { min(maximum, max(2, 2 * current)) }

    /// What a metric's absolute target is, in words.
    static func kind(of metric: Metric) -> String {
        metric.unit == .bytes ? "size" : metric.unit == .seconds ? "duration" : "number"
    }
}

extension Precision {
    /// A study's misses: each point's runs compared alone (`sweep --precision` reaches its
    /// target when every point does). `results` are the runs of `plan`, in its order.
    public func misses(
        _ results: [ExperimentRunner.RunResult], plan: ExperimentPlan, reference: String, platformMetrics: Bool,
        app: String?
    ) -> [Miss] {
        plan.points.indices.flatMap { point in
            let runs = zip(plan.runs, results).filter { $0.0.point == point }.map(\.1)
            return misses(
                Comparison(rows: runs.summaryRows(app: app), reference: reference, platformMetrics: platformMetrics))
        }
    }
}

extension Precision {
    /// Runs again with twice the replications (the same seeds first) until every main
    /// metric's interval is narrow enough for every policy at every point, or `maximum`:
    /// `rerun(n)` makes and runs the plan of `n` replications. Returns what still misses.
    public func replicate(
        _ runner: inout ExperimentRunner, _ results: inout [ExperimentRunner.RunResult], maximum: Int,
        reference: String, platformMetrics: Bool, app: String?,
        rerun: (Int) throws -> (ExperimentRunner, [ExperimentRunner.RunResult])
    ) rethrows -> [Miss] {
        func missed() -> [Miss] {
            misses(results, plan: runner.plan, reference: reference, platformMetrics: platformMetrics, app: app)
        }
        while !missed().isEmpty && runner.replications < maximum {
            (runner, results) = try rerun(Self.next(after: runner.replications, maximum: maximum))
        }
        return missed()
    }
}
