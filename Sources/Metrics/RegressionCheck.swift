import Stochastic

/// Compares a run against a baseline, metric by metric, policy by policy, replication by
/// replication; and refuses to pass when there was nothing, or not everything, to compare.
///
/// **Pairwise** (the default): a re-run uses the baseline's seeds and reproduces each
/// replication exactly, so each replication's value is held to its own baseline value: it
/// fails when it moved by more than `tolerance` × |old| (a metric that was 0 must stay 0).
///
/// **Statistical** (for baselines made on another platform or build, whose runs need not
/// be reproduced exactly): per policy and metric, the new mean must stay inside the
/// baseline's 95 % interval widened on each side by `tolerance` × |bound|.
///
/// Before any value is compared, the two sets of runs must cover each other exactly: the
/// same policies, the same replications with the same seeds, every metric odr-sim reports,
/// and the same scenario (`scenario_hash`). Each difference is a ``mismatches`` entry, and a
/// check with mismatches fails whatever the values.
public struct RegressionCheck: Sendable {
    /// A tolerance as `check --tolerance` takes it: a percentage (`2%`) or a fraction
    /// (`0.02`), never negative; nil otherwise.
    public static func tolerance(from text: String) -> Double? {
        if text.hasSuffix("%") { return Double(text.dropLast()).map { $0 / 100 }.flatMap { $0 >= 0 ? $0 : nil } }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    public enum Method: String, Sendable {
        case pairwise, statistical
    }

    public struct Failure: CustomStringConvertible, Sendable {
        public let policy: String
        public let metric: String
        /// The replication compared (pairwise), or nil for a comparison of means.
        public let replication: Int?
        public let old: Double
        public let new: Double
        /// The allowed range of the new value (or mean).
        public let low: Double
        public let high: Double

        public var description: String {
            let which = replication.map { " replication \($0)" } ?? " mean"
            return """
                \(policy)\(which): \(metric) moved from \(format(old)) to \(format(new)) \
                (allowed \(format(low))…\(format(high)))
                """
        }

        private func format(_ value: Double) -> String {
            if value.isNaN { return "nan" }
            if Metric(rawValue: metric)?.unit == .seconds { return CSV.seconds(value) }
            // A mean and its interval (statistical) keep their fraction: a count's mean of 1.4
            // against bounds 0.8…1.9 is not "1 (allowed 1…2)".
            if replication == nil && value != value.rounded() && abs(value) < 9.2e18 {
                return String(format: "%.2f", value)
            }
            // A value past Int64's range (a hand-edited baseline) would trap in Int64(_:).
            return abs(value) < 9.2e18 ? String(Int64(value.rounded())) : String(format: "%.0f", value)
        }
    }

    /// One policy and metric: a test case in a JUnit report.
    public struct Case: Sendable {
        public let policy: String
        public let metric: String
        public let failures: [Failure]
    }

    /// Why the runs and the baseline cannot be compared as they are.
    public let mismatches: [String]
    /// Things worth saying that do not fail the check (a baseline without `scenario_hash`).
    public let warnings: [String]
    /// Every (policy, metric) compared, in baseline order, with what moved.
    public let cases: [Case]
    public let policies: [String]
    /// Replications per policy (the most in the baseline).
    public let replications: Int
    public let method: Method

    public var failures: [Failure] { cases.flatMap(\.failures) }
    public var passed: Bool { mismatches.isEmpty && cases.allSatisfy(\.failures.isEmpty) && !cases.isEmpty }

    /// `11 policies × 5 replications × 25 metrics`.
    public var compared: String {
        let metrics = Set(cases.map(\.metric)).count
        return
            "\(policies.count) polic\(policies.count == 1 ? "y" : "ies") × \(replications) "
            + "replication\(replications == 1 ? "" : "s")"
            + " × \(metrics) metric\(metrics == 1 ? "" : "s")"
    }

    /// Policies of the baseline in first-seen order, and its most replications: what a re-run must cover.
    public static func plan(of baseline: BaselineFile) -> (policies: [String], replications: Int) {
        var order: [String] = []
        for row in baseline.rows where !order.contains(row.policy) { order.append(row.policy) }
        return (order, baseline.rows.map(\.replication).max() ?? 0)
    }

    public init(baseline: BaselineFile, current: [SummaryRow], tolerance: Double, method: Method = .pairwise) {
        self.method = method
        var mismatches: [String] = []
        var warnings: [String] = []
        let (policies, replications) = Self.plan(of: baseline)
        self.policies = policies
        self.replications = replications
        if baseline.rows.isEmpty { mismatches.append("the baseline has no rows: there is nothing to compare") }
        if !baseline.missingMetrics.isEmpty {
            mismatches.append(
                "the baseline has no column for \(baseline.missingMetrics.joined(separator: ", ")) "
                    + "(made by an older odr-sim? re-make it with --update)")
        }
        if !baseline.unknownColumns.isEmpty {
            mismatches.append(
                "the baseline has column(s) odr-sim does not report: "
                    + "\(baseline.unknownColumns.joined(separator: ", "))"
            )
        }
        let currentHash = current.first?.scenarioHash ?? ""
        if let hash = baseline.scenarioHash {
            if hash != currentHash {
                mismatches.append(
                    """
                    the baseline was made from another scenario (scenario_hash \(hash), this file's \(currentHash)); \
                    re-make it with --update if the change is intended
                    """)
            }
        } else {
            warnings.append(
                """
                the baseline has no scenario_hash column, so it cannot be told whether it came from this scenario; \
                --update adds it
                """
            )
        }

        func keyed(_ rows: [SummaryRow], _ what: String) -> [String: [Int: SummaryRow]] {
            var result: [String: [Int: SummaryRow]] = [:]
            for row in rows {
                if result[row.policy]?[row.replication] != nil {
                    mismatches.append("\(what) has policy \(row.policy) replication \(row.replication) twice")
                }
                result[row.policy, default: [:]][row.replication] = row
            }
            return result
        }
        let old = keyed(baseline.rows, "the baseline")
        let new = keyed(current, "the run")
        var runOrder: [String] = []
        for row in current where !runOrder.contains(row.policy) { runOrder.append(row.policy) }
        for policy in policies where new[policy] == nil {
            mismatches.append("policy \(policy) of the baseline was not run")
        }
        for policy in runOrder where old[policy] == nil {
            mismatches.append("policy \(policy) was run but is not in the baseline")
        }
        for policy in policies {
            guard let before = old[policy], let after = new[policy] else { continue }
            for r in before.keys.sorted() where after[r] == nil {
                mismatches.append("\(policy): replication \(r) of the baseline was not run")
            }
            for r in after.keys.sorted() where before[r] == nil {
                mismatches.append("\(policy): replication \(r) was run but is not in the baseline")
            }
            for r in before.keys.sorted() {
                guard let a = before[r], let b = after[r], a.seed != b.seed else { continue }
                mismatches.append(
                    """
                    \(policy) replication \(r): the baseline's seed is \(a.seed), this run's \(b.seed) (the \
                    scenario's seed changed?)
                    """
                )
            }
        }
        self.mismatches = mismatches
        self.warnings = warnings

        var cases: [Case] = []
        // Every (policy, metric) compared: the family a statistical check's level is shared over.
        let columns = Metric.columns(platformMetrics: baseline.platformMetrics).map(\.column)
        let family = max(
            1,
            policies.filter { old[$0] != nil && new[$0] != nil }.count
                * columns.filter { !baseline.missingMetrics.contains($0) }.count)
        for policy in policies {
            guard let before = old[policy], let after = new[policy] else { continue }
            // Every metric the baseline has: a prefix of `Metric.allCases`, a row's value order.
            for (c, metric) in Metric.columns(platformMetrics: baseline.platformMetrics).map(\.column).enumerated()
            where !baseline.missingMetrics.contains(metric) {
                var failures: [Failure] = []
                switch method {
                case .pairwise:
                    // Both values as summary.csv writes them (seconds to the microsecond), so a
                    // reproduced run equals its baseline exactly, even at tolerance 0, and a
                    // hand-written baseline with more decimals still equals itself.
                    let seconds = Metric(rawValue: metric)?.unit == .seconds
                    func written(_ value: Double) -> Double {
                        seconds && value.isFinite ? Double(CSV.seconds(value)) ?? value : value
                    }
                    for r in before.keys.sorted() {
                        guard let old = before[r]?.values[c], let new = after[r]?.values[c] else { continue }
                        let (a, b) = (written(old), written(new))
                        let low = a - tolerance * abs(a)
                        let high = a + tolerance * abs(a)
                        let same = a.isNaN ? b.isNaN : (b >= low && b <= high)
                        if !same {
                            failures.append(
                                Failure(
                                    policy: policy, metric: metric, replication: r, old: a, new: b, low: low, high: high
                                ))
                        }
                    }
                case .statistical:
                    let old = Interval(before.keys.sorted().map { before[$0]!.values[c] })
                    let new = Interval(after.keys.sorted().map { after[$0]!.values[c] })
                    let (low, high) = Self.allowedMean(old, new, family: family, tolerance: tolerance)
                    let same = old.mean.isNaN ? new.mean.isNaN : (new.mean >= low && new.mean <= high)
                    if !same {
                        failures.append(
                            Failure(
                                policy: policy, metric: metric, replication: nil, old: old.mean, new: new.mean,
                                low: low, high: high))
                    }
                }
                cases.append(Case(policy: policy, metric: metric, failures: failures))
            }
        }
        self.cases = cases
    }

    /// The range a statistical check allows the new mean: another build's runs on the same
    /// seeds are, for the statistics, a second independent sample, so the old mean ± Welch's
    /// two-sample half-width, at 95 % over the whole check (Bonferroni over the `family` of
    /// policy × metric pairs compared: an unchanged rerun fails at most 5 % of the time, what
    /// `scripts/calibrate` measures), widened by `tolerance` of the old mean. With no spread on
    /// either side the new mean must equal the old (within the tolerance).
    static func allowedMean(_ old: Interval, _ new: Interval, family: Int, tolerance: Double) -> (Double, Double) {
        let (va, vb) = (
            old.standardDeviation * old.standardDeviation / Double(max(1, old.count)),
            new.standardDeviation * new.standardDeviation / Double(max(1, new.count))
        )
        var half = 0.0
        if va + vb > 0, old.count > 1, new.count > 1 {
            let df = (va + vb) * (va + vb) / (va * va / Double(old.count - 1) + vb * vb / Double(new.count - 1))
            // Values no run makes (a hand-edited baseline: spreads past a double's range) give
            // no range at all (NaN), so the check fails rather than pass on nonsense.
            half =
                df.isFinite && df > 0
                ? StudentT.quantile(1 - 0.05 / (2 * Double(family)), degreesOfFreedom: min(df, 1e9))
                    * (va + vb).squareRoot()
                : .nan
        }
        let slack = tolerance * abs(old.mean)
        return (old.mean - half - slack, old.mean + half + slack)
    }
}
