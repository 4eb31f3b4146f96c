import Metrics

/// What `check` (the regression check) says, from one value: its warnings, its lines or its
/// JSON, and the one line it fails with.
public struct CheckAnswer {
    public let check: RegressionCheck
    /// The scenario file, the baseline's path and `--tolerance` as given.
    public let file: String, baseline: String, tolerance: String

    public init(_ check: RegressionCheck, file: String, baseline: String, tolerance: String) {
        (self.check, self.file, self.baseline, self.tolerance) = (check, file, baseline, tolerance)
    }

    /// What was compared, how: `2 policies × 3 replications × 25 metrics, tolerance 2%, pairwise`.
    var how: String { "\(check.compared), tolerance \(tolerance), \(check.method.rawValue)" }

    /// Warnings for standard error, each a whole line.
    public var warnings: [String] { check.warnings.map { "odr-sim: warning: \(baseline): \($0)" } }

    /// Standard output's lines: the JSON, or ok, or each value that moved and each mismatch.
    public func lines(json: Bool, app: String?) -> [String] {
        if json { return [CheckJSON.check(check, file: file, baseline: baseline, tolerance: tolerance, app: app)] }
        if check.passed { return ["\(file): ok against \(baseline) (\(how))"] }
        return check.failures.map { "\($0)" } + check.mismatches.map { "\(baseline): \($0)" }
    }

    /// The line the check fails with, nil when it passes.
    public var failure: String? {
        if check.passed { return nil }
        if !check.mismatches.isEmpty {
            return "\(baseline): cannot be compared with this run (\(check.mismatches.count) problem(s) above)"
        }
        return "\(check.failures.count) value(s) moved beyond \(tolerance) from \(baseline) (\(how))"
    }
}
