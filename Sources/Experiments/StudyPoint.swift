import Metrics

/// One point of a study, folded from its runs' rows: every number a study's files and answer
/// read of it, so that its rows can go as soon as it is folded (issue 55: a study's memory
/// grows with its points, not its runs).
///
/// A point is folded from its rows as `results.csv` and `apps.csv` write them (read back, or
/// made on the runs' threads: the same numbers), whether the study's runs were all kept
/// (``SweepResults/prepared(jobs:app:)``) or folded as each point finished
/// (``StudyFold``), so both give the same files.
public struct StudyPoint: Sendable {
    /// The point's axis values.
    public let values: [String]
    /// Its policies compared on the device's rows: `comparison.csv`, the verdicts, the report.
    public let comparison: Comparison
    /// Per app (in the runs' order), its policies compared on its own rows
    /// (`comparison-apps.csv`); empty when the runs have no app rows.
    public let apps: [(app: String, comparison: Comparison)]
    /// The focus app's comparison (its rows, the device's beside them:
    /// ``Metrics/AppRow/summaryRows(of:in:beside:scenarioHash:)``); nil without a focus or app rows.
    public let focus: Comparison?
    /// Its pairs against the study's baseline point, the device's and the focus's
    /// (``BaselinePairs``); empty without one.
    let pairs: [BaselinePairs.Pair]
    let focusPairs: [BaselinePairs.Pair]

    /// Point `values` from its device rows `rows` and app rows `appRows` (in run order), each
    /// policy compared against `reference`; `focus`, the app whose numbers are folded apart;
    /// `bases`, the baseline point's runs (the device's and the focus's) its pairs are taken against.
    init(
        values: [String], rows: [SummaryRow], appRows: [AppRow], reference: String, platformMetrics: Bool,
        focus app: String?, bases: Bases
    ) {
        self.values = values
        comparison = Comparison(rows: rows, reference: reference, platformMetrics: platformMetrics)
        apps =
            appRows.isEmpty ? [] : AppRow.comparisons(appRows, reference: reference, platformMetrics: platformMetrics)
        let focusRows = appRows.isEmpty ? nil : app.map { Self.focusRows(of: $0, appRows: appRows, rows: rows) }
        focus = focusRows.map { Comparison(rows: $0, reference: reference, platformMetrics: platformMetrics) }
        let metrics = Metric.columns(platformMetrics: platformMetrics)
        pairs =
            bases.device.map {
                BaselinePairs.pairs(of: values, rows, isBaseline: bases.isBaselinePoint, against: $0, metrics: metrics)
            } ?? []
        focusPairs =
            bases.focus.flatMap { base in
                focusRows.map {
                    BaselinePairs.pairs(
                        of: values, $0, isBaseline: bases.isBaselinePoint, against: base, metrics: metrics)
                }
            } ?? []
    }

    /// App `app`'s rows at a point as its focus: its own metrics, the device's beside them.
    static func focusRows(of app: String, appRows: [AppRow], rows: [SummaryRow]) -> [SummaryRow] {
        AppRow.summaryRows(of: app, in: appRows, beside: rows)
    }

    /// What a point's pairs are taken against: the baseline point's runs under the baseline
    /// policy, the device's and the focus's; and whether the point is the baseline point.
    struct Bases: Sendable {
        var device: BaselinePairs.Base?
        var focus: BaselinePairs.Base?
        var isBaselinePoint = false

        static let empty = Bases(device: nil, focus: nil)

        /// The bases of the baseline point `values` (its rows and app rows), under `policy`,
        /// the focus `app`'s too.
        init(values: [String], rows: [SummaryRow], appRows: [AppRow], policy: String, focus app: String?) {
            device = BaselinePairs.Base(values: values, rows: rows, policy: policy)
            focus =
                appRows.isEmpty
                ? nil
                : app.flatMap {
                    BaselinePairs.Base(
                        values: values, rows: StudyPoint.focusRows(of: $0, appRows: appRows, rows: rows), policy: policy
                    )
                }
        }

        init(device: BaselinePairs.Base?, focus: BaselinePairs.Base?) { (self.device, self.focus) = (device, focus) }

        /// These bases, for the baseline point itself.
        func atBaseline(_ yes: Bool) -> Bases {
            var copy = self
            copy.isBaselinePoint = yes
            return copy
        }
    }
}
