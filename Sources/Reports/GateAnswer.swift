import Metrics

/// What `check --max-increase` (the gate) says, from one value: its lines or its JSON, its
/// JUnit report, and the one line it fails with (a metric beyond its limit, or a policy change
/// that `--allow-policy-change` did not accept).
public struct GateAnswer {
    public let gate: RegressionGate
    /// The scenario's policy that replaced the baseline's (``Metrics/PolicyChange``), if one did.
    public let change: PolicyChange?
    /// The baseline's scenario digest and this scenario's, where they differ.
    public private(set) var hashes: (old: String, new: String)?
    /// Whether `--allow-policy-change` accepts ``change``.
    public let acceptsChange: Bool

    public init(gate: RegressionGate, change: PolicyChange?, hashes: (old: String, new: String)?, acceptsChange: Bool) {
        (self.gate, self.change, self.hashes, self.acceptsChange) = (gate, change, hashes, acceptsChange)
    }

    /// Notes the baseline's scenario digest (`none` for a file without one) and this scenario's
    /// where they differ.
    public mutating func compare(baselineHash: String?, with scenarioHash: String) {
        if baselineHash != scenarioHash { hashes = (baselineHash ?? "none", scenarioHash) }
    }

    /// Why the run is not the baseline's to judge: a policy change not accepted.
    public var refusal: String? {
        change.flatMap { acceptsChange ? nil : "\($0); --allow-policy-change accepts it" }
    }

    /// The gate's lines, then a line for a policy change and one for a changed scenario.
    public var text: String {
        var lines = gate.lines.map { $0.text(humanValue) }
        if let change { lines.append("(\(change))") }
        if let (old, new) = hashes { lines.append("(the scenario changed since the baseline: \(old) → \(new))") }
        return lines.joined(separator: "\n")
    }

    /// `--format json`.
    public func json(file: String, baseline: String, app: String?) -> String {
        CheckJSON.gate(
            gate, file: file, baseline: baseline, app: app, scenarioChanged: hashes != nil,
            policyChange: change.map { ($0.lost, $0.replacement) })
    }

    /// `--junit`: a case per policy and limit; `coverage` fails with ``refusal``.
    public func junit(name: String) -> String {
        JUnitReport.xml(gate, name: name, refusal: refusal, describe: humanValue)
    }

    /// The line the gate fails with, nil when it passes.
    public func failure(against baseline: String) -> String? {
        guard gate.passed else {
            return "\(gate.lines.filter { $0.failed }.count) metric(s) rose beyond --max-increase against \(baseline)"
        }
        return refusal
    }
}
