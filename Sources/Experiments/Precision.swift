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

    /// A policy's metric whose interval is still too wide, or too few replications to judge it.
    public struct Miss: Sendable, Equatable {
        public let policy: String
        public let metric: Metric
        public let halfWidth: Double
        public let target: Double
        /// The replications it needs before its interval is judged at all: ``minimumReplications``,
        /// or where every replication gave the same value, ``identicalReplications(_:)``.
        public var needs = 0
        /// Whether every replication so far gave the same value (no spread to judge by).
        public var identical = false
    }

    /// The fewest replications `--precision` judges an interval on: a Student-t interval of
    /// fewer skewed runs undercovers (the calibration suite measures 0.85 after early stops
    /// at n ≤ 16; issue 51), so no stop comes before 10.
    public static let minimumReplications = 10

    /// With every replication the same, a half-width of 0 says nothing: `n` identical runs
    /// rule out (at 95 %, the rule of three) only an outcome more frequent than 3/n. For a
    /// relative precision γ the stop waits until that is γ (3/γ replications: 60 at 5 %); for
    /// an absolute target, until a one-in-ten outcome is ruled out (30).
    public func identicalReplications(_ metric: Metric) -> Int {
        let share = absolute[metric] == nil ? relative ?? 0.1 : 0.1
        return max(Self.minimumReplications, Int((3 / share).rounded(.up)))
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
                if text.hasSuffix("%"), let percent = Double(text.dropLast()), !(percent > 0 && percent < 100) {
                    throw ParseError(description: "'\(text)' is not a percentage above 0 % and below 100 %")
                }
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

    /// The target half-width of `metric` at `mean`, or nil where the precision sets none. A
    /// relative γ is Law's corrected γ/(1 + γ) of the mean (*Simulation Modeling and Analysis*,
    /// 5th ed., §9.4.1): the half-width against the sample mean, so that the interval is within
    /// γ of the true mean.
    func target(_ metric: Metric, mean: Double) -> Double? {
        absolute[metric] ?? relative.map { $0 / (1 + $0) * abs(mean) }
    }

    /// Every policy × main metric of `comparison` not yet within its target: fewer than
    /// ``minimumReplications``, a half-width above the target, or every replication the same
    /// before ``identicalReplications(_:)`` (zero spread is never a stop of its own).
    public func misses(_ comparison: Comparison) -> [Miss] {
        var misses: [Miss] = []
        for policy in comparison.policies {
            for metric in Self.metrics where metric.position < policy.metrics.count {
                let interval = policy.metrics[metric.position]
                guard let target = target(metric, mean: interval.mean) else { continue }
                // With no spread the half-width says nothing (a point, or for a count the rule of
                // three's own 3/n, which a mean of 0 could never meet): the count of runs decides.
                let identical = interval.standardDeviation == 0
                let needs = identical ? identicalReplications(metric) : Self.minimumReplications
                guard (!identical && interval.halfWidth > target) || interval.count < needs else { continue }
                var miss = Miss(policy: policy.policy, metric: metric, halfWidth: interval.halfWidth, target: target)
                (miss.needs, miss.identical) = (needs, identical)
                misses.append(miss)
            }
        }
        return misses
    }

    /// What `--precision` reached: the replications it took, or what still misses it (how
    /// many intervals, and the widest against its target). `format` writes a metric's value.
    public static func sentence(_ missed: [Miss], replications: Int, format: (Metric, Double) -> String) -> String {
        guard let worst = missed.max(by: { $0.halfWidth / $0.target < $1.halfWidth / $1.target }) else {
            return
                "--precision: every main metric of every policy within its target after \(replications) replications "
                + "(after such a stop, 95 % intervals \(Calibration.held(Calibration.afterPrecision)) on the "
                + "shipped scenarios: docs/statistics.md)."
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
        let early =
            "; fewer than \(Self.minimumReplications) replications, the fewest --precision judges an interval on."
        let widest =
            !worst.identical && worst.halfWidth <= worst.target
            ? early
            : worst.identical
                ? """
                ; \(worst.policy)'s \(worst.metric.column) is the same in all \(replications) replications (a \
                different outcome in fewer than 1 in \(max(1, replications / 3)) runs cannot be ruled out; \
                \(worst.needs) rule out the rarest the target allows).
                """
                : """
                ; the widest \(worst.policy)'s \(worst.metric.column) ±\(format(worst.metric, worst.halfWidth)) \
                against ±\(format(worst.metric, worst.target)).
                """
        return "--precision: not reached after \(replications) replications (--max-replications): still too wide, "
            + named.joined(separator: "; ") + widest
    }

    /// The next number of replications after `current`: twice as many (a batch as large as
    /// all before it), at least ``minimumReplications``, at most `maximum`.
    public static func next(after current: Int, maximum: Int) -> Int {
        min(maximum, max(minimumReplications, 2 * current))
    }

    /// What a metric's absolute target is, in words.
    static func kind(of metric: Metric) -> String {
        metric.unit == .bytes ? "size" : metric.unit == .seconds ? "duration" : "number"
    }
}

extension Precision {
    /// A study's misses: each point's runs compared alone (`sweep --precision` reaches its
    /// target when every point does). `runRows` are the rows of the runs of `plan`, in its
    /// order, as run (``ExperimentRunner/RunResult/rowsAsRun(app:)``).
    public func misses(_ runRows: [[SummaryRow]], plan: ExperimentPlan, reference: String, platformMetrics: Bool)
        -> [Miss]
    {
        plan.points.indices.flatMap { point in
            misses(
                Comparison(
                    rows: zip(plan.runs, runRows).filter { $0.0.point == point }.flatMap(\.1), reference: reference,
                    platformMetrics: platformMetrics))
        }
    }
}

extension Precision {
    /// Runs again with twice the replications (the same seeds first) until every main
    /// metric's interval is narrow enough for every policy at every point, or `maximum`:
    /// `rerun(n)` makes and runs the plan of `n` replications, and gives its runs' rows
    /// (``misses(_:plan:reference:platformMetrics:)``). Returns what still misses.
    public func replicate(
        _ runner: inout ExperimentRunner, _ runRows: inout [[SummaryRow]], maximum: Int, reference: String,
        platformMetrics: Bool, rerun: (Int) throws -> (ExperimentRunner, [[SummaryRow]])
    ) rethrows -> [Miss] {
        func missed() -> [Miss] {
            misses(runRows, plan: runner.plan, reference: reference, platformMetrics: platformMetrics)
        }
        while !missed().isEmpty && runner.replications < maximum {
            (runner, runRows) = try rerun(Self.next(after: runner.replications, maximum: maximum))
        }
        return missed()
    }

    /// ``replicate(_:_:maximum:reference:platformMetrics:rerun:)`` of runs kept whole: their
    /// rows under a focus on `app`.
    public func replicate(
        _ runner: inout ExperimentRunner, _ results: inout [ExperimentRunner.RunResult], maximum: Int,
        reference: String, platformMetrics: Bool, app: String?,
        rerun: (Int) throws -> (ExperimentRunner, [ExperimentRunner.RunResult])
    ) rethrows -> [Miss] {
        var runRows = results.map { $0.rowsAsRun(app: app) }
        return try replicate(
            &runner, &runRows, maximum: maximum, reference: reference, platformMetrics: platformMetrics
        ) { replications in
            let (more, rerun) = try rerun(replications)
            results = rerun
            return (more, rerun.map { $0.rowsAsRun(app: app) })
        }
    }
}
