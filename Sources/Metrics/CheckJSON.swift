/// `odr-sim check --format json`: the check, or the gate, as one object for a script (a CI
/// step that annotates a pull request reads it rather than the terminal's sentences). The
/// exit status is the text output's: 0 when it passes, 1 when it does not (the object is
/// printed either way; the one-line error still goes to standard error).
public enum CheckJSON {
    /// A tolerance check against a baseline: what was compared, and every value that moved.
    public static func check(_ check: RegressionCheck, file: String, baseline: String, tolerance: String, app: String?)
        -> String
    {
        let failures = check.failures.map { f in
            JSONText.object([
                ("policy", JSONText.string(f.policy)), ("metric", JSONText.string(f.metric)),
                ("replication", f.replication.map(String.init) ?? "null"), ("baseline", JSONText.number(f.old)),
                ("current", JSONText.number(f.new)), ("allowed_low", JSONText.number(f.low)),
                ("allowed_high", JSONText.number(f.high)),
            ])
        }
        return JSONText.object([
            ("command", JSONText.string("check")), ("file", JSONText.string(file)),
            ("baseline", JSONText.string(baseline)),
            ("app", app.map(JSONText.string) ?? "null"), ("mode", JSONText.string("tolerance")),
            ("method", JSONText.string(check.method.rawValue)),
            ("tolerance", JSONText.string(tolerance)),
            ("policies", JSONText.array(check.policies.map(JSONText.string))),
            ("replications", String(check.replications)), ("cases", String(check.cases.count)),
            ("passed", check.passed ? "true" : "false"), ("failures", JSONText.array(failures)),
            ("mismatches", JSONText.array(check.mismatches.map(JSONText.string))),
            ("warnings", JSONText.array(check.warnings.map(JSONText.string))),
        ])
    }

    /// A regression gate (`--max-increase`): each policy × limited metric, its change and verdict.
    /// `policyChange`: the baseline's policy the scenario lost and the one that replaced it.
    public static func gate(
        _ gate: RegressionGate, file: String, baseline: String, app: String?, scenarioChanged: Bool,
        policyChange: (lost: String, replacement: String)? = nil
    ) -> String {
        let lines = gate.lines.map { line in
            JSONText.object([
                ("policy", JSONText.string(line.policy)), ("metric", JSONText.string(line.limit.metric.column)),
                ("baseline_mean", JSONText.number(line.baselineMean)),
                ("current_mean", JSONText.number(line.currentMean)),
                ("change", JSONText.number(line.change.mean)), ("change_ci_low", JSONText.number(line.change.low)),
                ("change_ci_high", JSONText.number(line.change.high)), ("allowed", JSONText.number(line.allowed)),
                ("verdict", JSONText.string(line.verdict)), ("failed", line.failed ? "true" : "false"),
            ])
        }
        return JSONText.object([
            ("command", JSONText.string("check")), ("file", JSONText.string(file)),
            ("baseline", JSONText.string(baseline)),
            ("app", app.map(JSONText.string) ?? "null"), ("mode", JSONText.string("gate")),
            ("scenario_changed", scenarioChanged ? "true" : "false"),
            (
                "policy_changed",
                policyChange.map {
                    JSONText.object([("from", JSONText.string($0.lost)), ("to", JSONText.string($0.replacement))])
                } ?? "null"
            ),
            ("passed", gate.passed ? "true" : "false"), ("lines", JSONText.array(lines)),
        ])
    }
}
