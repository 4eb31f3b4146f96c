import ODRCore
import ODRPolicies

/// A modelling choice that no source documents, or that a source leaves open: what
/// `odr-sim assumptions` lists, and what `--robustness` varies to see whether a verdict
/// rests on it.
///
/// Each names the scenario key that sets it, its default and why (a source, or
/// "undocumented: chosen because …"), and the alternatives a run can take instead. An
/// alternative is a typed edit of one point of a plan: the same workload on the same seeds
/// with that one choice changed. A choice with no alternative modelled is still listed, so
/// that nothing undocumented hides in the code.
public struct Assumption: Sendable {
    /// One other value the choice could take, and how a point takes it.
    public struct Alternative: Sendable {
        public let value: String
        let apply: @Sendable (inout ExperimentPlan.Point) -> Void

        public init(_ value: String, apply: @escaping @Sendable (inout ExperimentPlan.Point) -> Void) {
            self.value = value
            self.apply = apply
        }

        /// `point` with this alternative taken.
        public func applied(to point: ExperimentPlan.Point) -> ExperimentPlan.Point {
            var changed = point
            apply(&changed)
            return changed
        }
    }

    /// A short name, such as `system-removes-for-other-data`.
    public let name: String
    /// Where a scenario sets it, such as `platform: {system_removes_for_other_data: …}`.
    public let key: String
    /// The default, as a scenario writes it.
    public let defaultValue: String
    public let alternatives: [Alternative]
    /// Why the default: its source, or `undocumented: chosen because …`.
    public let why: String
    /// The declarations of the code that hold the choice (`PlatformProfile.appEvictsWhenFull`):
    /// a source test requires every undocumented profile option and model constant to be
    /// named by one assumption.
    public let covers: [String]
    let appliesTo: @Sendable (ExperimentPlan.Point, [PolicyDescriptor]) -> Bool

    public init(
        name: String, key: String, defaultValue: String, why: String, covers: [String],
        alternatives: [Alternative] = [],
        appliesTo: @escaping @Sendable (ExperimentPlan.Point, [PolicyDescriptor]) -> Bool = { _, _ in true }
    ) {
        self.name = name
        self.key = key
        self.defaultValue = defaultValue
        self.why = why
        self.covers = covers
        self.alternatives = alternatives
        self.appliesTo = appliesTo
    }

    /// Whether the choice matters to `point` run under `policies` (its platform has the rule,
    /// the point leaves it at its default, a policy that reads it runs).
    public func applies(to point: ExperimentPlan.Point, policies: [PolicyDescriptor]) -> Bool {
        appliesTo(point, policies)
    }
}
