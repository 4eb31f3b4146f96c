/// A pull request that changed what ships since its baseline: the scenario's `policies:` lost a
/// policy of the baseline and gained one (`[largest-first]` → `[lru]`). The gate
/// (`check --max-increase`) then runs the scenario's policy, not the baseline's, and judges it
/// against the rows of the policy it replaced, on the same seeds; it fails, naming the change,
/// unless `--allow-policy-change` accepts it (issue 50: re-running the baseline's policies let
/// a change to a worse one pass).
public struct PolicyChange: Sendable, Equatable, CustomStringConvertible {
    /// The baseline's policy the scenario no longer runs.
    public let lost: String
    /// The scenario's policy that replaced it.
    public let replacement: String
    /// The app whose own strategy (`apps[].strategy`) changed, where that is the change: the
    /// runs' policies are then the baseline's, and only the rows' names change.
    public var app: String? = nil

    public init(lost: String, replacement: String, app: String? = nil) {
        (self.lost, self.replacement, self.app) = (lost, replacement, app)
    }

    /// Why a change cannot be judged: which policy replaced which is not one-to-one.
    public struct Ambiguity: Error, Sendable, CustomStringConvertible {
        public let lost: [String]
        public let gained: [String]
        public var description: String {
            """
            the scenario's policies changed since the baseline (\(lost.joined(separator: ", ")) → \
            \(gained.joined(separator: ", "))), and which replaced which is not one-to-one: make a new \
            baseline (check --update) or change one policy at a time
            """
        }
    }

    /// The change between the baseline's policies and the scenario's, nil where every policy of
    /// the baseline still runs or the scenario adds none (a dropped policy is not judged, an
    /// added one has no baseline).
    public static func between(baseline: [String], scenario: [String]) throws(Ambiguity) -> PolicyChange? {
        let lost = baseline.filter { !scenario.contains($0) }
        let gained = scenario.filter { !baseline.contains($0) }
        guard !lost.isEmpty && !gained.isEmpty else { return nil }
        guard lost.count == 1 && gained.count == 1 else { throw Ambiguity(lost: lost, gained: gained) }
        return PolicyChange(lost: lost[0], replacement: gained[0])
    }

    /// The baseline's policies as the gate re-runs them: the replacement in the lost one's place.
    public func policies(_ baseline: [String]) -> [String] {
        baseline.map { $0 == lost ? replacement : $0 }
    }

    /// The baseline's rows with the lost policy's labelled as its replacement, so that each
    /// replication of the new policy is paired with the old one's on the same seed.
    public func relabel(_ rows: [SummaryRow]) -> [SummaryRow] {
        rows.map { row in
            var row = row
            if row.policy == lost { row.policy = replacement }
            return row
        }
    }

    public var description: String {
        let what = app.map { "\($0)'s own strategy" } ?? "the scenario's policy"
        let key = app == nil ? "" : "apps[].strategy; "
        return "\(what) changed since the baseline: \(lost) → \(replacement) (\(key)gated against \(lost)'s rows)"
    }
}
