import Metrics

/// `sweep --robustness`: each point of a study checked as `compare --robustness` checks one
/// scenario (every applying alternative of every undocumented assumption rerun on the same
/// seeds, each headline metric's best compared with the point's verdict as run).
public struct StudyRobustness: Sendable {
    /// Each point's label and its check.
    public let points: [(label: String, check: Robustness)]

    /// Runs the check at every point of `runner`'s plan; `runRows` are the rows of the plan's
    /// runs in order, as run (``ExperimentRunner/RunResult/rowsAsRun(app:)``). Under a
    /// focus on `app` (the rows' own), each point's verdict is the app's; with `objective`,
    /// its recommendation is checked too.
    public static func check(
        like runner: ExperimentRunner, runRows: [[SummaryRow]], baseline: String,
        labels: [String], app: String? = nil, objective: Objective? = nil
    ) throws -> StudyRobustness {
        let plan = runner.plan
        let offline = Set(plan.policies.filter(\.needsFuture).map(\.name))
        var points: [(label: String, check: Robustness)] = []
        for p in plan.points.indices {
            var one = ExperimentRunner(
                plan: ExperimentPlan(
                    points: [plan.points[p]], policies: plan.policies, replications: plan.replications),
                sampleInterval: 0, recordsEvents: false, jobs: runner.jobs)
            one.maxEvents = runner.maxEvents
            one.keepsChartData = false
            one.warmup = runner.warmup
            let rows = zip(plan.runs, runRows).filter { $0.0.point == p }.flatMap(\.1)
            let comparison = Comparison(
                rows: rows, reference: baseline, platformMetrics: Metric.hasPlatformMetrics(plan.points[p].scenario))
            let verdict = Verdict(comparison, offline: offline, metrics: Verdict.metrics(of: comparison))
            let check = try Robustness.check(
                like: one, verdict: verdict, baseline: baseline, app: app, objective: objective.map { ($0, rows) })
            points.append((labels[p], check))
        }
        return StudyRobustness(points: points)
    }

    /// The verdict's line: where the study's verdicts hold and where they flip.
    public var headline: String {
        let applying = points.filter { !$0.check.assumptions.isEmpty }
        guard !applying.isEmpty else {
            return
                """
                robustness: no undocumented assumption with an alternative applies at any of the \(points.count) \
                points
                """
        }
        let flipping = applying.filter { $0.check.rows.contains { $0.verdict == "flips" } }
        let names = Set(applying.flatMap(\.check.assumptions)).sorted()
        // A verdict that does not flip but no longer holds (another best by its mean, or an
        // advantage no longer significant) is within the noise, and said so.
        let noisy = applying.filter { $0.check.rows.contains { $0.verdict == "within the noise" } }.count
        let noise = noisy == 0 ? "" : "; within the noise at \(noisy) of them (robustness.csv has every point)"
        guard !flipping.isEmpty else {
            if noisy > 0 {
                return "robustness: no point's verdict flips under the applying assumptions "
                    + "(\(names.joined(separator: ", "))) at the \(applying.count) points where one applies, same seeds"
                    + noise
            }
            return
                "robustness: every point's verdict holds under the applying assumptions "
                + "(\(names.joined(separator: ", "))) at all \(applying.count) points where one applies, same "
                + "seeds"
        }
        let detail = flipping.prefix(3).map { point in
            "at \(point.label): "
                + point.check.rows.filter { $0.verdict == "flips" }.map {
                    "\($0.assumption)=\($0.alternative) (\($0.measure): \($0.best) → \($0.bestAlternative))"
                }.joined(separator: ", ")
        }
        return
            """
            robustness: the verdict flips at \(flipping.count) of \(applying.count) points where an assumption \
            applies, significantly;
            """
                + " " + detail.joined(separator: "; ") + (flipping.count > 3 ? "; …" : "")
                + (noisy == 0
                    ? " (robustness.csv has every point)"
                    : "; within the noise at \(noisy) (robustness.csv has every point)")
    }

    /// `robustness.csv` with the point first.
    public var csv: String {
        var lines = ["point," + (Robustness(rows: [], assumptions: []).csv)]
        for point in points {
            let body = point.check.csv.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().filter {
                !$0.isEmpty
            }
            lines += body.map { CSV.field(point.label) + "," + $0 + "\n" }
        }
        return lines.joined()
    }
}
