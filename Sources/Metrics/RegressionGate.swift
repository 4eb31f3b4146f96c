import Quantities

/// An app team's CI gate (`odr-sim check --max-increase METRIC=LIMIT`): fails only when a
/// metric's mean rises beyond its limit against the baseline, and passes improvements.
///
/// Unlike ``RegressionCheck`` (odr-sim's own reproducibility test, where any change fails),
/// the scenario may have changed since the baseline: the same policies and seeds are run on
/// it, and each replication is paired with the baseline's of the same number (common random
/// numbers). A metric **rose beyond** its limit when even the low end of the 95 % interval of
/// the paired increase (current − baseline) exceeds the allowed increase: one-sided, so noise
/// alone does not fail a build (at 95 % two-sided, a false alarm when nothing rose is at most
/// 2.5 %). The allowed increase is the limit itself (`20MB`) or its share of the baseline's
/// mean (`5%`).
public struct RegressionGate: Sendable {
    /// How much a metric may rise: absolute in the metric's unit, or relative to the baseline.
    public struct Limit: Sendable, Hashable {
        public let metric: Metric
        public let value: Double
        public let relative: Bool

        public init(metric: Metric, value: Double, relative: Bool) {
            self.metric = metric
            self.value = value
            self.relative = relative
        }

        /// `redownload_bytes=5%`, `redownload_bytes=20MB`, `wait_p95_s=2s`, `failed_requests=1`:
        /// sizes and durations read as a scenario reads them (``SizeSyntax``, ``DurationSyntax``).
        public static func parse(_ text: String) throws -> Limit {
            guard let equals = text.firstIndex(of: "=") else {
                throw GateError("'\(text)' is not METRIC=LIMIT, such as redownload_bytes=5%")
            }
            let name = String(text[..<equals])
            let limit = String(text[text.index(after: equals)...])
            guard let metric = Metric(rawValue: name) else {
                throw GateError("unknown metric '\(name)' (\(Metric.allCases.map(\.column).joined(separator: ", ")))")
            }
            if limit.hasSuffix("%"), let share = Double(limit.dropLast()), share.isFinite, share >= 0 {
                return Limit(metric: metric, value: share / 100, relative: true)
            }
            let value: Double
            switch metric.unit {
            case .bytes: value = Double(try SizeSyntax.parse(limit))
            case .seconds: value = try DurationSyntax.parse(limit)
            case .count:
                guard let count = Double(limit), count.isFinite, count >= 0 else {
                    throw GateError("'\(limit)' is not a count or a share such as 5%")
                }
                value = count
            }
            return Limit(metric: metric, value: value, relative: false)
        }
    }

    /// A limit's verdict for one policy.
    public struct Line: Sendable {
        public let policy: String
        public let limit: Limit
        public let baselineMean: Double
        public let currentMean: Double
        /// Current − baseline, paired by replication.
        public let change: Interval
        /// The increase the limit allows for this policy.
        public let allowed: Double
        /// `rose beyond the limit`, `improved` (the interval lies below 0) or `within the limit`.
        public let verdict: String
        public var failed: Bool { verdict == "rose beyond the limit" }

        /// `lru redownload_bytes: 560 MB → 590 MB (change … to …, allowed +28 MB): within the limit`,
        /// values written by `describe`.
        public func text(_ describe: (Double, Metric) -> String) -> String {
            let m = limit.metric
            return
                """
                \(policy) \(m.column): \(describe(baselineMean, m)) → \(describe(currentMean, m)) (change \
                \(describe(change.low, m)) to \
                \(describe(change.high, m)), allowed +\(describe(allowed, m))): \(verdict)
                """
        }
    }

    public let lines: [Line]
    public var passed: Bool { !lines.isEmpty && !lines.contains(where: \.failed) }

    public init(baseline: [SummaryRow], current: [SummaryRow], limits: [Limit]) {
        var lines: [Line] = []
        let policies = baseline.reduce(into: [String]()) { if !$0.contains($1.policy) { $0.append($1.policy) } }
        for limit in limits {
            for policy in policies {
                let before = Dictionary(
                    baseline.filter { $0.policy == policy }.map { ($0.replication, $0[limit.metric]) },
                    uniquingKeysWith: { a, _ in a })
                let now = current.filter { $0.policy == policy }.compactMap { row in
                    before[row.replication].map { (row[limit.metric], $0) }
                }
                guard !now.isEmpty else { continue }
                let baselineMean = now.reduce(0) { $0 + $1.1 } / Double(now.count)
                let currentMean = now.reduce(0) { $0 + $1.0 } / Double(now.count)
                let change = Interval(now.map { $0.0 - $0.1 })
                let allowed = limit.relative ? limit.value * baselineMean : limit.value
                let verdict =
                    change.low > allowed ? "rose beyond the limit" : change.high < 0 ? "improved" : "within the limit"
                lines.append(
                    Line(
                        policy: policy, limit: limit, baselineMean: baselineMean, currentMean: currentMean,
                        change: change,
                        allowed: allowed, verdict: verdict))
            }
        }
        self.lines = lines
    }
}

/// A `--max-increase` value odr-sim cannot read.
public struct GateError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
