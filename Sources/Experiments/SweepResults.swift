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
    /// The points folded once (``prepared(jobs:app:)``, ``StudyFold``): what every comparison,
    /// pair and verdict reads, so that a study's files and answer do not read its runs once each.
    private var folded: Folded?
    struct Folded: Sendable {
        /// Every point with runs, in point order.
        let points: [StudyPoint]
        /// The app whose numbers were folded apart (``comparisons(app:)``).
        let focus: String?
        /// Against the baseline point: the device's pairs and the focus's.
        let pairs: BaselinePairs?
        let focusPairs: BaselinePairs?
    }
    /// Threads the files' lines are parsed and written on (``prepared(jobs:app:)``); 0 until then.
    public private(set) var jobs = 0

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
        var text = ""
        try writeAppsFile { text += $0 }
        return text
    }

    /// ``appsFile()`` handed to `write` a piece at a time (``stream(_:rewrite:to:)``).
    public func writeAppsFile(_ write: (String) throws -> Void) throws {
        try write(appsFileHeader)
        try stream(appLines, rewrite: true, to: write)
    }

    /// `apps.csv`'s header as written: the axis columns (with their numeric columns), then
    /// ``Metrics/AppRow``'s.
    var appsFileHeader: String {
        String(CSV.row(writtenAxisNames).dropLast()) + "," + AppRow.header(platformMetrics: platformMetrics)
    }

    /// `results.csv`'s header as written.
    var resultsFileHeader: String {
        axisNumbers.contains { $0 != nil }
            ? String(CSV.row(writtenAxisNames).dropLast()) + "," + SummaryRow.header(platformMetrics: platformMetrics)
            : resultsHeader
    }

    /// Results lines (`apps`: app lines) as the written files have them
    /// (``writeResultsFile(_:)``, ``writeAppsFile(_:)``), in one piece.
    func writtenText(of lines: [String], apps: Bool) throws -> String {
        apps || axisNumbers.contains { $0 != nil } ? try rewritten(lines[...]) : lines.joined()
    }

    /// Whether the runs have app rows (`apps.csv` and `comparison-apps.csv` are written).
    public var hasApps: Bool { !appLines.isEmpty || folded?.points.contains { !$0.apps.isEmpty } == true }

    /// The app rows grouped by point (in point order), parsed back from ``appLines``.
    func appGroups() throws -> [(values: [String], rows: [AppRow])] {
        var groups: [(values: [String], rows: [AppRow])] = []
        for (values, fields) in try records(appLines) {
            guard let row = AppRow(fields: fields, platformMetrics: platformMetrics) else { continue }
            if groups.last?.values == values {
                groups[groups.count - 1].rows.append(row)
            } else {
                groups.append((values, [row]))
            }
        }
        return groups
    }

    /// These results with their lines parsed and every point folded once (``StudyPoint``), on
    /// `jobs` threads (as are the written files' lines from then on), `app`'s numbers apart:
    /// every comparison, pair and file reads the one fold.
    public func prepared(jobs: Int = 1, app: String? = nil) throws -> SweepResults {
        var copy = self
        copy.jobs = max(1, jobs)
        // Results folded as they ran keep no lines to fold again: theirs is the focus they ran with.
        if folded == nil || folded?.focus != app && !lines.isEmpty { copy.folded = try copy.foldLines(focus: app) }
        return copy
    }

    /// Every point folded from the lines a point at a time, ``jobs`` points at once: a merge
    /// holds its lines, and only the rows of the points under way.
    private func foldLines(focus: String?) throws -> Folded {
        let axes = axisNames.count
        let points = try Self.pointRanges(lines, axes: axes)
        var byValues: [[String]: [Range<Int>]] = [:]
        for (values, range) in try Self.pointRanges(appLines, axes: axes) {
            byValues[values, default: []].append(range)
        }
        // Lines odr-sim wrote hold each point's lines together; others are folded all at once.
        guard Set(points.map(\.values)).count == points.count, byValues.values.allSatisfy({ $0.count == 1 }) else {
            return fold(try groups(), apps: try appGroups(), focus: focus)
        }
        let (appRanges, lines, appLines) = (byValues, self.lines, self.appLines)
        let platformMetrics = self.platformMetrics
        // A point's rows and app rows, each line's fields made into its row before the next
        // line is read: the fields of the points under way, as strings, were a fifth of a
        // merge's peak.
        let rows: @Sendable (Int) throws -> (rows: [SummaryRow], apps: [AppRow]) = { p in
            let records = try lines[points[p].range].flatMap { line in
                try Self.fields(of: line).map { Self.summaryRow($0[axes...], axes: axes) }
            }
            let apps = try (appRanges[points[p].values] ?? []).flatMap { range in
                try appLines[range].flatMap { line in
                    try Self.fields(of: line).compactMap {
                        AppRow(fields: $0[axes...], platformMetrics: platformMetrics)
                    }
                }
            }
            return (records, apps)
        }
        return try fold(points.map(\.values), rows: rows, focus: focus)
    }

    /// `lines` cut where their axis values change: each point's values and its lines (a line
    /// with no record stays with the point before it).
    static func pointRanges(_ lines: [String], axes: Int) throws -> [(values: [String], range: Range<Int>)] {
        var ranges: [(values: [String], range: Range<Int>)] = []
        for (i, line) in lines.enumerated() {
            let values =
                try plainAxes(of: line, count: axes)?.values ?? fields(of: line).first.map { Array($0.prefix(axes)) }
            if let values, ranges.last?.values != values {
                ranges.append((values, i..<(i + 1)))
            } else if let last = ranges.last {
                ranges[ranges.count - 1].range = last.range.lowerBound..<(i + 1)
            }
        }
        return ranges
    }

    /// The summary row of a results line's fields after its `axes` axis values.
    static func summaryRow(_ f: ArraySlice<String>, axes: Int) -> SummaryRow {
        let fixed = 4  // policy, replication, seed, scenario_hash
        return SummaryRow(
            policy: f[axes], replication: Int(f[axes + 1]) ?? 0, seed: UInt64(f[axes + 2]) ?? 0,
            values: f[(axes + fixed)...].map { Double($0) ?? .nan }, scenarioHash: f[axes + 3])
    }

    /// These results with their points folded as they finished (``StudyFold``).
    func with(_ folded: Folded, jobs: Int) -> SweepResults {
        var copy = self
        (copy.folded, copy.jobs) = (folded, max(1, jobs))
        return copy
    }

    /// Every point of `groups` (each point's device rows) and `apps` (its app rows, for the
    /// points that have them) folded on ``jobs`` threads, `focus`'s numbers apart.
    private func fold(
        _ groups: [(values: [String], rows: [SummaryRow])], apps: [(values: [String], rows: [AppRow])],
        focus: String?
    ) -> Folded {
        var byValues: [[String]: [AppRow]] = [:]
        for group in apps { byValues[group.values, default: []] += group.rows }
        let appRows = byValues
        return try! fold(
            groups.map(\.values), rows: { (groups[$0].rows, appRows[groups[$0].values] ?? []) }, focus: focus)
    }

    /// The points with axis values `values` folded on ``jobs`` threads, `focus`'s numbers
    /// apart, each from its device rows and app rows as `rows` gives them (the baseline
    /// point's first: what every point's pairs are taken against).
    private func fold(
        _ values: [[String]], rows: @Sendable (Int) throws -> (rows: [SummaryRow], apps: [AppRow]), focus: String?
    ) throws -> Folded {
        let (baseline, platformMetrics, baselinePoint) = (self.baseline, self.platformMetrics, self.baselinePoint)
        var bases = StudyPoint.Bases.empty
        if let b = baselinePoint, values.indices.contains(b) {
            let (rows, apps) = try rows(b)
            bases = StudyPoint.Bases(values: values[b], rows: rows, appRows: apps, policy: baseline, focus: focus)
        }
        let base = bases
        let points = try OrderedParallel.map(values.count, jobs: jobs, grain: 1) { range in
            try range.map { p in
                let (rows, apps) = try rows(p)
                return StudyPoint(
                    values: values[p], rows: rows, appRows: apps, reference: baseline, platformMetrics: platformMetrics,
                    focus: focus, bases: base.atBaseline(p == baselinePoint))
            }
        }
        return Self.folded(points, focus: focus, bases: bases, platformMetrics: platformMetrics)
    }

    /// The fold of `points`, their pairs gathered against `bases`.
    static func folded(_ points: [StudyPoint], focus: String?, bases: StudyPoint.Bases, platformMetrics: Bool)
        -> Folded
    {
        let metrics = Metric.columns(platformMetrics: platformMetrics)
        return Folded(
            points: points, focus: focus,
            pairs: bases.device.map { BaselinePairs(base: $0, metrics: metrics, pairs: points.flatMap(\.pairs)) },
            focusPairs: bases.focus.map {
                BaselinePairs(base: $0, metrics: metrics, pairs: points.flatMap(\.focusPairs))
            })
    }

    /// The fold these results read: the prepared one when it has `app`'s numbers apart (or
    /// none are asked for), else one made now from the lines.
    private func fold(for app: String?, any: Bool = false) throws -> Folded {
        if let folded, any || folded.focus == app { return folded }
        precondition(!lines.isEmpty || folded == nil, "a study folded as it ran has only its own focus's numbers")
        return try prepared(jobs: max(1, jobs), app: app).folded!
    }

    /// Each line's axis values and the rest of its fields, parsed one line at a time (a line
    /// is one record) on ``jobs`` threads, in order.
    private func records(_ lines: [String]) throws -> [(values: [String], fields: ArraySlice<String>)] {
        let axes = axisNames.count
        return try OrderedParallel.map(lines.count, jobs: jobs) { range in
            var out: [(values: [String], fields: ArraySlice<String>)] = []
            out.reserveCapacity(range.count)
            for i in range {
                for fields in try Self.fields(of: lines[i]) {
                    out.append((Array(fields[..<axes]), fields[axes...]))
                }
            }
            return out
        }
    }

    /// `lines` as the written files have them (with their axes' numeric columns when
    /// `rewrite`), handed to `write` a piece at a time: pieces of 4,096 lines, ``jobs`` of them
    /// made at once, so that a study's largest files are never held whole.
    private func stream(_ lines: [String], rewrite: Bool, to write: (String) throws -> Void) throws {
        let piece = 4_096
        let pieces = (lines.count + piece - 1) / piece
        var next = 0
        while next < pieces {
            let batch = next..<min(pieces, next + max(1, jobs))
            let texts = try OrderedParallel.map(batch.count, jobs: jobs, grain: 1) { range in
                try range.map { k in
                    let start = (batch.lowerBound + k) * piece
                    let part = lines[start..<min(lines.count, start + piece)]
                    return rewrite ? try rewritten(part) : part.joined()
                }
            }
            for text in texts { try write(text) }
            next = batch.upperBound
        }
    }

    /// Lines as the written files have them: each with its axes' numeric columns.
    private func rewritten(_ lines: ArraySlice<String>) throws -> String {
        var text = ""
        // A study has few points: each one's written axis fields are made once.
        var prefixes: [[String]: String] = [:]
        for i in lines.indices {
            if let (values, rest) = Self.plainAxes(of: lines[i], count: axisNames.count) {
                // The rest's fields as they are: CSV.row would write them so (none is quoted).
                if prefixes[values] == nil {
                    prefixes[values] = String(CSV.row(writtenAxisValues(values)).dropLast()) + ","
                }
                text += prefixes[values]!
                text += rest
                continue
            }
            for record in try CSVReader.records(lines[i]) {
                let f = record.fields
                text += CSV.row(writtenAxisValues(Array(f[..<axisNames.count])) + f[axisNames.count...])
            }
        }
        return text
    }

    /// The records of one line as ``Metrics/CSVReader`` reads them; a line with no quote and
    /// no carriage return (every line odr-sim writes, unless an axis value or an app's name
    /// holds a comma, quote or line break) is split at its commas without the reader.
    static func fields(of line: String) throws(CSVReader.Error) -> [[String]] {
        guard isPlain(line) else { return try CSVReader.records(line).map(\.fields) }
        return [
            line.utf8.dropLast().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        ]
    }

    /// A line odr-sim wrote whose fields no quoting changed: one record ending in its only
    /// line feed, with no quote or carriage return.
    private static func isPlain(_ line: String) -> Bool {
        var feeds = 0
        for byte in line.utf8 {
            if byte == UInt8(ascii: "\"") || byte == 13 { return false }
            if byte == 10 { feeds += 1 }
        }
        // A lone line feed is an empty line, which the reader skips.
        return feeds == 1 && line.utf8.last == 10 && line.utf8.count > 1
    }

    /// A plain line's (``isPlain(_:)``) first `count` fields and the rest of it after their comma.
    private static func plainAxes(of line: String, count: Int) -> (values: [String], rest: Substring)? {
        guard isPlain(line) else { return nil }
        var values: [String] = []
        var start = line.utf8.startIndex
        var index = start
        while values.count < count {
            guard let comma = line.utf8[index...].firstIndex(of: UInt8(ascii: ",")) else { return nil }
            values.append(String(line[start..<comma]))
            index = line.utf8.index(after: comma)
            start = index
        }
        return (values, line[start...])
    }

    /// Per point, app `app`'s own comparison of the policies (`sweep --app`): what its
    /// verdict reads, as ``comparisons()`` is the device's.
    public func comparisons(app: String) throws -> [(values: [String], comparison: Comparison)] {
        try fold(for: app).points.compactMap { point in point.focus.map { (point.values, $0) } }
    }

    /// `comparison-apps.csv`: the axis columns, then ``Metrics/AppRow/comparisonCSV(_:)``'s,
    /// per point (in point order), app and policy.
    public func comparisonAppsCSV() throws -> String {
        var text = ""
        for (g, point) in try fold(for: nil, any: true).points.filter({ !$0.apps.isEmpty }).enumerated() {
            let lines = AppRow.comparisonCSV(point.apps).split(separator: "\n", omittingEmptySubsequences: false)
            if g == 0 { text += String(CSV.row(writtenAxisNames).dropLast()) + "," + lines[0] + "\n" }
            let prefix = String(CSV.row(writtenAxisValues(point.values)).dropLast())
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
        var text = ""
        try writeResultsFile { text += $0 }
        return text
    }

    /// ``resultsFile()`` handed to `write` a piece at a time (``stream(_:rewrite:to:)``).
    public func writeResultsFile(_ write: (String) throws -> Void) throws {
        // Without numeric columns, the lines are written as they are.
        try write(resultsFileHeader)
        try stream(lines, rewrite: axisNumbers.contains { $0 != nil }, to: write)
    }

    /// Per point (in point order), its axis values and the comparison of its policies, from
    /// the rows as `results.csv` writes them: what `comparison.csv` and the report show.
    public func comparisons() throws -> [(values: [String], comparison: Comparison)] {
        try fold(for: nil, any: true).points.map { ($0.values, $0.comparison) }
    }

    /// Every point × policy against the baseline point, if the study names one: the device's,
    /// or app `app`'s own rows.
    public func baselinePairs(app: String? = nil) throws -> BaselinePairs? {
        guard baselinePoint != nil else { return nil }
        guard let app else { return try fold(for: nil, any: true).pairs }
        return try fold(for: app).focusPairs
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
        var groups: [(values: [String], rows: [SummaryRow])] = []
        for (values, f) in try records(lines) {
            let row = Self.summaryRow(f, axes: axisNames.count)
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
    /// One run's lines of a study's files, and its rows as they read back.
    public struct RunLines: Sendable {
        /// Its `results.csv` line and its apps' `apps.csv` lines.
        public let result: String
        public let apps: [String]
        /// What parsing those lines gives (``Metrics/SummaryRow/asWritten(platformMetrics:)``).
        public let row: SummaryRow
        public let appRows: [AppRow]

        /// The lines of `run`, whose point has the axis values `values`.
        public init(_ run: ExperimentRunner.RunResult, values: [String], platformMetrics: Bool) {
            result = line(values: values, summary: run.summary, platformMetrics: platformMetrics)
            apps = run.apps.map { appLine(values: values, row: $0, platformMetrics: platformMetrics) }
            row = run.summary.asWritten(platformMetrics: platformMetrics)
            appRows = run.apps.map { $0.asWritten(platformMetrics: platformMetrics) }
        }
    }
}
