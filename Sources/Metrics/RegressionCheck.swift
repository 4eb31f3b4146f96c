/// Compares a run against a baseline, metric by metric and policy by policy.
///
/// One replication: a metric fails when it moved by more than `tolerance` × |old| (so a
/// metric that was 0 must stay 0). Several: it fails when the new mean leaves the baseline's
/// 95 % interval, widened on each side by `tolerance` × |bound|.
public struct RegressionCheck {
    public struct Failure: CustomStringConvertible, Sendable {
        public let policy: String
        public let metric: String
        public let old: Double
        public let new: Double
        public let allowed: ClosedRange<Double>?

        public var description: String {
            let range = allowed.map { " (allowed \(format($0.lowerBound))…\(format($0.upperBound)))" } ?? ""
            return "\(policy): \(metric) moved from \(format(old)) to \(format(new))\(range)"
        }

        private func format(_ value: Double) -> String {
            if value.isNaN { return "missing" }
            return SummaryRow.secondsColumns.contains(metric) ? CSV.seconds(value) : String(Int64(value.rounded()))
        }
    }

    public let failures: [Failure]

    public init(baseline: [SummaryRow], current: [SummaryRow], tolerance: Double) {
        var failures: [Failure] = []
        var policies: [String] = []
        for row in baseline where !policies.contains(row.policy) { policies.append(row.policy) }
        for policy in policies {
            let old = baseline.filter { $0.policy == policy }
            let new = current.filter { $0.policy == policy }
            guard !new.isEmpty else {
                failures.append(Failure(policy: policy, metric: "(all)", old: .nan, new: .nan, allowed: nil))
                continue
            }
            for (c, metric) in SummaryRow.metricColumns.enumerated() {
                let oldValues = old.map { $0.values[c] }
                guard !oldValues.contains(where: \.isNaN) else { continue }
                let before = Interval(oldValues)
                let after = Interval(new.map { $0.values[c] }).mean
                let low = before.low - tolerance * abs(before.low)
                let high = before.high + tolerance * abs(before.high)
                if after < low || after > high {
                    failures.append(Failure(policy: policy, metric: metric, old: before.mean, new: after, allowed: low...high))
                }
            }
        }
        self.failures = failures
    }
}
