import Metrics

/// A study's results: `results.csv` (one row per point × policy × replication, each axis a
/// column) and `comparison.csv` (per point × policy: each metric's mean, sd, 95 % interval
/// and paired difference to the baseline).
///
/// Both are built from the rows as `results.csv` writes them, seconds at six decimals, so a
/// study run on one machine and one merged from shards give byte-identical files.
public struct SweepResults: Sendable {
    public let axisNames: [String]
    public let baseline: String
    /// `results.csv` without its header: one line per run, in canonical order.
    public let lines: [String]
    /// Whether the rows carry the platform metrics (a point on Background Assets or Play).
    public let platformMetrics: Bool
    /// Per axis, the numeric column the written files put beside its labels (`used_bytes`
    /// beside `used`), or nil; empty for none. Only the written files have them: the lines,
    /// shards and ``comparisons()`` carry the labels alone.
    public var axisNumbers: [AxisNumbers?] = []
    /// `apps.csv` without its header: each run's app rows (its point's axis values, then the
    /// ``Metrics/AppRow``), in canonical run order and app order within a run.
    public var appLines: [String] = []
    /// The point (index in point order) every point × policy is paired against under
    /// ``baseline`` (``BaselinePairs``); nil: none.
    public var baselinePoint: Int? = nil

    /// A numeric column beside an axis's labels: its name and each label's number.
    public struct AxisNumbers: Sendable, Hashable {
        public let column: String
        public let values: [String: Double]

        public init(column: String, values: [String: Double]) {
            self.column = column
            self.values = values
        }

        /// Integers as integers (bytes, seconds), anything else in Swift's shortest
        /// round-trip form, which Python's `float` and pandas read.
        func text(of label: String) -> String {
            guard let value = values[label] else { return "" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        }
    }

    public init(
        axisNames: [String], baseline: String, lines: [String], platformMetrics: Bool = false,
        baselinePoint: Int? = nil,
        appLines: [String] = []
    ) {
        self.baselinePoint = baselinePoint
        self.appLines = appLines
        self.axisNames = axisNames
        self.baseline = baseline
        self.lines = lines
        self.platformMetrics = platformMetrics
    }

    /// The result line of one run: its point's axis values, then its summary row.
    public static func line(values: [String], summary: SummaryRow, platformMetrics: Bool = false) -> String {
        String(CSV.row(values).dropLast()) + "," + summary.csvLine(platformMetrics: platformMetrics)
    }

    public var resultsHeader: String {
        String(CSV.row(axisNames).dropLast()) + "," + SummaryRow.header(platformMetrics: platformMetrics)
    }

    public var resultsCSV: String { resultsHeader + lines.joined() }

    /// One app's row of one run: its point's axis values, then the ``Metrics/AppRow``.
    public static func appLine(values: [String], row: AppRow, platformMetrics: Bool = false) -> String {
        String(CSV.row(values).dropLast()) + "," + row.csvLine(platformMetrics: platformMetrics)
    }

    public var appsHeader: String {
        String(CSV.row(axisNames).dropLast()) + "," + AppRow.header(platformMetrics: platformMetrics)
    }

    /// `apps.csv` as written: the axis columns (with their numeric columns), then each app's
    /// row of each run.
    public func appsFile() throws -> String {
        var text = String(CSV.row(writtenAxisNames).dropLast()) + "," + AppRow.header(platformMetrics: platformMetrics)
        for record in try CSVReader.records(appsHeader + appLines.joined()).dropFirst() {
            let f = record.fields
            text += CSV.row(writtenAxisValues(Array(f[..<axisNames.count])) + f[axisNames.count...])
        }
        return text
    }

    /// The app rows grouped by point (in point order), parsed back from ``appLines``.
    func appGroups() throws -> [(values: [String], rows: [AppRow])] {
        var groups: [(values: [String], rows: [AppRow])] = []
        for record in try CSVReader.records(appsHeader + appLines.joined()).dropFirst() {
            let values = Array(record.fields[..<axisNames.count])
            guard let row = AppRow(fields: record.fields[axisNames.count...], platformMetrics: platformMetrics) else {
                continue
            }
            if groups.last?.values == values {
                groups[groups.count - 1].rows.append(row)
            } else {
                groups.append((values, [row]))
            }
        }
        return groups
    }

    /// Per point, app `app`'s own comparison of the policies (`sweep --app`): what its
    /// verdict reads, as ``comparisons()`` is the device's.
    public func comparisons(app: String) throws -> [(values: [String], comparison: Comparison)] {
        try focus(app).map {
            ($0.values, Comparison(rows: $0.rows, reference: baseline, platformMetrics: platformMetrics))
        }
    }

    /// Per point, app `app`'s rows as its focus: its own metrics, the device's beside them
    /// (``Metrics/AppRow/summaryRows(of:in:beside:scenarioHash:)``).
    func focus(_ app: String) throws -> [(values: [String], rows: [SummaryRow])] {
        var devices: [[String]: [SummaryRow]] = [:]
        for group in try groups() { devices[group.values] = group.rows }
        return try appGroups().map { group in
            (group.values, AppRow.summaryRows(of: app, in: group.rows, beside: devices[group.values] ?? []))
        }
    }

    /// `comparison-apps.csv`: the axis columns, then ``Metrics/AppRow/comparisonCSV(_:)``'s,
    /// per point (in point order), app and policy.
    public func comparisonAppsCSV() throws -> String {
        let groups = try appGroups()
        var text = ""
        for (g, group) in groups.enumerated() {
            let lines = AppRow.comparisonCSV(
                AppRow.comparisons(group.rows, reference: baseline, platformMetrics: platformMetrics)
            )
            .split(separator: "\n", omittingEmptySubsequences: false)
            if g == 0 { text += String(CSV.row(writtenAxisNames).dropLast()) + "," + lines[0] + "\n" }
            let prefix = String(CSV.row(writtenAxisValues(group.values)).dropLast())
            for line in lines.dropFirst() where !line.isEmpty { text += prefix + "," + line + "\n" }
        }
        return text
    }

    /// The axis columns as the written files have them: each axis, then its numeric column.
    public var writtenAxisNames: [String] {
        axisNames.indices.flatMap { a in [axisNames[a]] + (number(of: a).map { [$0.column] } ?? []) }
    }

    /// One point's axis fields as the written files have them.
    func writtenAxisValues(_ values: [String]) -> [String] {
        values.indices.flatMap { a in [values[a]] + (number(of: a).map { [$0.text(of: values[a])] } ?? []) }
    }

    private func number(of axis: Int) -> AxisNumbers? { axis < axisNumbers.count ? axisNumbers[axis] : nil }

    /// `results.csv` as written: ``resultsCSV`` with the axes' numeric columns.
    public func resultsFile() throws -> String {
        guard axisNumbers.contains(where: { $0 != nil }) else { return resultsCSV }
        let records = try CSVReader.records(resultsCSV)
        var text =
            String(CSV.row(writtenAxisNames).dropLast()) + "," + SummaryRow.header(platformMetrics: platformMetrics)
        for record in records.dropFirst() {
            let f = record.fields
            text += CSV.row(writtenAxisValues(Array(f[..<axisNames.count])) + f[axisNames.count...])
        }
        return text
    }

    /// Per point (in point order), its axis values and the comparison of its policies, from
    /// the rows as `results.csv` writes them: what `comparison.csv` and the report show.
    public func comparisons() throws -> [(values: [String], comparison: Comparison)] {
        try groups().map {
            ($0.values, Comparison(rows: $0.rows, reference: baseline, platformMetrics: platformMetrics))
        }
    }

    /// Every point × policy against the baseline point, if the study names one: the device's,
    /// or app `app`'s own rows.
    public func baselinePairs(app: String? = nil) throws -> BaselinePairs? {
        guard let baselinePoint else { return nil }
        let groups =
            try app.map(focus) ?? groups()
        return BaselinePairs(
            groups: groups, baselinePoint: baselinePoint, policy: baseline, platformMetrics: platformMetrics)
    }

    /// `baseline-pairs.csv`: the axis columns, then ``BaselinePairs/header``; a row per
    /// point × policy × metric. With `app` (`baseline-pairs-app.csv`, the focus's pairs): an
    /// `app` column first and a `value_of` column last, `app` for the app's own metric and
    /// `device` where only the device has one.
    public func baselinePairsCSV(_ pairs: BaselinePairs, app: String? = nil) -> String {
        var text = CSV.row(
            (app == nil ? [] : ["app"]) + writtenAxisNames + BaselinePairs.header
                + (app == nil ? [] : ["value_of"]))
        for pair in pairs.pairs {
            for (m, metric) in pairs.metrics.enumerated() {
                let d = pair.differences[m]
                text += CSV.row(
                    (app.map { [$0] } ?? []) + writtenAxisValues(pair.values) + [
                        pair.policy, String(pair.replications), pairs.baselinePolicy, metric.column,
                        metric.unit.rawValue,
                    ] + [pair.means[m], pair.baselineMeans[m], d.mean, d.low, d.high].map { CSV.decimal($0) }
                        + [d.excludesZero ? "true" : "false"]
                        + (app == nil ? [] : [metric.belongsToApp ? "app" : "device"]))
            }
        }
        return text
    }

    /// The rows grouped by point (in point order), parsed back from ``resultsCSV``.
    func groups() throws -> [(values: [String], rows: [SummaryRow])] {
        let records = try CSVReader.records(resultsCSV)
        let axes = axisNames.count
        let fixed = 4  // policy, replication, seed, scenario_hash
        var groups: [(values: [String], rows: [SummaryRow])] = []
        for record in records.dropFirst() {
            let f = record.fields
            let values = Array(f[..<axes])
            let metrics = f[(axes + fixed)...].map { Double($0) ?? .nan }
            let row = SummaryRow(
                policy: f[axes], replication: Int(f[axes + 1]) ?? 0, seed: UInt64(f[axes + 2]) ?? 0,
                values: metrics, scenarioHash: f[axes + 3])
            if groups.last?.values == values {
                groups[groups.count - 1].rows.append(row)
            } else {
                groups.append((values, [row]))
            }
        }
        return groups
    }

    /// `comparison.csv`: the axis columns, then ``Comparison/csv``'s columns, per point in
    /// point order and per policy in run order.
    public func comparisonCSV(_ comparisons: [(values: [String], comparison: Comparison)]) -> String {
        let head = String(CSV.row(writtenAxisNames).dropLast()) + ","
        guard !comparisons.isEmpty else {
            return head + Comparison(rows: [], reference: baseline, platformMetrics: platformMetrics).csv
        }
        var text = ""
        for (g, group) in comparisons.enumerated() {
            let lines = group.comparison.csv.split(separator: "\n", omittingEmptySubsequences: false)
            let prefix = String(CSV.row(writtenAxisValues(group.values)).dropLast())
            if g == 0 { text += head + lines[0] + "\n" }
            for line in lines.dropFirst() where !line.isEmpty { text += prefix + "," + line + "\n" }
        }
        return text
    }

    public func comparisonCSV() throws -> String { comparisonCSV(try comparisons()) }

    /// `comparison-long.csv`: the axis columns, then ``Comparison/longHeader``; one number
    /// per row.
    public func comparisonLongCSV(_ comparisons: [(values: [String], comparison: Comparison)]) -> String {
        var text = CSV.row(writtenAxisNames + Comparison.longHeader)
        for group in comparisons {
            text += group.comparison.longRows(prefix: String(CSV.row(writtenAxisValues(group.values)).dropLast()) + ",")
        }
        return text
    }
}

extension SweepResults {
    /// `results.csv`'s lines and `apps.csv`'s (with their run index) of the runs `indices` of
    /// `plan`, each point's axis values from `values` (by point).
    public static func lines(
        _ results: [ExperimentRunner.RunResult], indices: [Int], plan: ExperimentPlan, values: [[String]],
        platformMetrics: Bool
    ) -> (runs: [String], apps: [(Int, String)]) {
        let runs = zip(indices, results).map { index, result in
            line(values: values[plan.runs[index].point], summary: result.summary, platformMetrics: platformMetrics)
        }
        let apps = zip(indices, results).flatMap { index, result in
            result.apps.map {
                (index, appLine(values: values[plan.runs[index].point], row: $0, platformMetrics: platformMetrics))
            }
        }
        return (runs, apps)
    }
}
