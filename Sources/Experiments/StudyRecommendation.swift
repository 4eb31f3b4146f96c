import Metrics

extension Objective {
    /// Each point's recommendation: the point's runs alone, against the baseline policy there.
    /// `runRows` are the rows of the runs of `plan`, in its order (``ExperimentRunner/RunResult/rowsAsRun(app:)``).
    public func recommendEachPoint(
        _ runRows: [[SummaryRow]], plan: ExperimentPlan, baseline: String, offline: Set<String>
    ) -> [Recommendation] {
        plan.points.indices.map { point in
            recommend(
                zip(plan.runs, runRows).filter { $0.0.point == point }.flatMap(\.1), baseline: baseline,
                offline: offline)
        }
    }

    /// A study's one recommendation: every point × policy is a candidate (`gdsf @ budget=1GB`),
    /// against the baseline policy at `baselinePoint`, paired on the common seeds every point
    /// shares (at a point where the system purges, in a study that also has points where the
    /// app does, only the baseline policy). Nil for a study of one point (its point's recommendation is the answer).
    public func recommendOverStudy(
        _ runRows: [[SummaryRow]], plan: ExperimentPlan, baseline: String, baselinePoint: Int, labels: [String],
        offline: Set<String>
    ) -> Recommendation? {
        guard plan.points.count > 1 else { return nil }
        func name(_ run: ExperimentPlan.Run) -> String { "\(run.policy) @ \(labels[run.point])" }
        // Where a study mixes points whose policies are an app's strategies (it evicts) with
        // points where the system purges, the system's order at those is not the team's to
        // choose: there only the baseline policy (what the platform does) is a candidate.
        let mixed =
            plan.points.contains(where: \.policiesAreStrategies) && plan.points.contains { !$0.policiesAreStrategies }
        let rows = zip(plan.runs, runRows).filter { run, _ in
            !mixed || plan.points[run.point].policiesAreStrategies || run.policy == baseline
        }
        .flatMap { run, rows in
            rows.map { row in
                var row = row
                row.policy = name(run)
                return row
            }
        }
        return recommend(
            rows, baseline: "\(baseline) @ \(labels[baselinePoint])",
            offline: Set(plan.runs.filter { offline.contains($0.policy) }.map(name)))
    }
}
