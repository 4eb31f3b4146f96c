import Experiments
import Metrics
import ODRPolicies

/// Every report's colours: a policy's place in the registry.
public let reportPalette = Palette(policies: PolicyRegistry.names)

/// The headline verdict of a comparison, offline policies as bounds; an app's (`--app`)
/// speaks only of what belongs to it, not the device's over-purge.
public func verdict(_ comparison: Comparison, app: String? = nil) -> Verdict {
    Verdict(
        comparison, offline: PolicyRegistry.offline,
        metrics: Verdict.metrics(of: comparison).filter { app == nil || $0.belongsToApp })
}

/// The verdict of a comparison against its baseline, one line per main metric, as the
/// terminal and the reports show it; offline policies (`belady`) are bounds, never best.
public func verdictLines(_ comparison: Comparison, app: String? = nil) -> [String] {
    verdict(comparison, app: app).text { metric, value in humanValue(value, metric) }
}

/// A study's verdict: per main metric, the policy best at the most points.
public func studyVerdict(_ comparisons: [Comparison], app: String? = nil) -> [String] {
    Verdict.study(
        comparisons, offline: PolicyRegistry.offline,
        metrics: Verdict.headlineMetrics.filter { app == nil || $0.belongsToApp })
}

extension JSONText {
    /// The keys `run` and `compare` begin with: the command, its inputs and folder, the
    /// policies, replications, baseline and warm-up.
    static func head(
        _ command: String, _ source: ScenarioSource, out: String, policies: [String], replications: Int,
        warmup: Double, baseline: String
    ) -> [(String, String)] {
        [
            ("command", string(command)), ("scenario", string(source.name)), ("file", string(source.file)),
            ("out", string(out)),
            ("policies", array(policies.map(string))), ("replications", String(replications)),
            ("baseline", string(baseline)), ("warmup_s", number(warmup)),
        ]
    }
}
