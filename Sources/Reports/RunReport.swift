import Foundation
import Metrics

/// `report.html` of `odr-sim run`: the scenario's story, the summary table with the best
/// value of each main metric highlighted, disk use over time per policy (with purge episodes
/// and low-disk warnings marked), cumulative re-download bytes, and the wait distribution.
public struct RunReport {
    /// What one policy's first replication recorded over time.
    public struct PolicyRun {
        public var policy: String
        public var replication: Int
        public var samples: [RunRecorder.Sample]
        public var purgeEpisodes: [(time: Double, purged: Int64)]
        public var lowDiskWarnings: [Double]
        public var waits: [(seconds: Double, fraction: Double)]
        /// Cumulative re-downloaded bytes at each sample of every replication (the first
        /// replication's included), for the chart of their mean; empty: replication 1 alone.
        public var redownloads: [[Int64]] = []
        /// Its `packs.csv` stretches (with the events), for the chart of what is on disk.
        public var packStretches: [PackTimeline.Stretch] = []
        public init(
            policy: String, replication: Int, samples: [RunRecorder.Sample],
            purgeEpisodes: [(time: Double, purged: Int64)],
            lowDiskWarnings: [Double], waits: [(seconds: Double, fraction: Double)]
        ) {
            self.policy = policy
            self.replication = replication
            self.samples = samples
            self.purgeEpisodes = purgeEpisodes
            self.lowDiskWarnings = lowDiskWarnings
            self.waits = waits
        }

        /// Per sample, the mean over the replications and the lowest and highest, when every
        /// replication has the samples of the first (the same sampling clock); else nil.
        var redownloadSpread: [(mean: Double, low: Double, high: Double)]? {
            guard redownloads.count > 1, redownloads.allSatisfy({ $0.count == samples.count }) else { return nil }
            return samples.indices.map { i in
                let values = redownloads.map { Double($0[i]) }
                return (values.reduce(0, +) / Double(values.count), values.min()!, values.max()!)
            }
        }
    }

    /// The main metrics of the summary table.
    static let mainMetrics: [Metric] = [
        .requests, .hits, .redownloadBytes, .downloadedBytes, .overPurgeBytes, .purges, .lowDiskNotifications,
        .failedRequests, .waitP95, .waitMean,
    ]

    /// Points drawn per time series at most: the CSV keeps them all.
    public static let displayPoints = 250
    /// Rows of a chart's table of numbers at most (the hovers have every point drawn).
    public static let tableRows = 60
    /// Marks drawn per chart at most.
    public static let displayMarks = 300

    public var title: String
    public var lede: String
    /// The verdict lines shown at the top (``Metrics/Verdict``); none by default.
    public var headline: [String] = []
    /// With `--bound`: per policy, mean re-downloaded bytes and mean bound
    /// (``CompareReport/boundsSection(_:palette:)``).
    public var bounds: [(policy: String, redownloaded: Double, bound: Double)] = []
    public var facts: [(name: String, value: String)]
    public var rows: [SummaryRow]
    /// Under a focus on one app (`--app`): its name. The rows, and the summary table, are the
    /// app's; the charts drawn from the runs' samples (the disk, the cumulative re-downloads,
    /// the waits) are the device's, and their titles say so.
    public var focus: String? = nil
    public var runs: [PolicyRun]
    public var capacity: Int64
    public var palette: Palette

    public init(
        title: String, lede: String, facts: [(name: String, value: String)], rows: [SummaryRow],
        runs: [PolicyRun], capacity: Int64, palette: Palette
    ) {
        self.title = title
        self.lede = lede
        self.facts = facts
        self.rows = rows
        self.runs = runs
        self.capacity = capacity
        self.palette = palette
    }

    /// Under a focus, what a chart of the device's samples adds to its title.
    var deviceNote: String { focus == nil ? "" : ", the device's" }

    /// Every `step`-th index of `count`, and the last: what a chart draws of a long series.
    static func thinned(_ count: Int, to limit: Int) -> [Int] {
        guard count > limit, limit > 1 else { return Array(0..<count) }
        let step = Double(count - 1) / Double(limit - 1)
        var picked = (0..<limit).map { Int((Double($0) * step).rounded()) }
        picked[limit - 1] = count - 1
        return picked
    }

    /// The summary table: per policy, the mean over its replications of each main metric.
    public static func summaryTable(_ rows: [SummaryRow]) -> Page.Table {
        var policies: [String] = []
        for row in rows where !policies.contains(row.policy) { policies.append(row.policy) }
        let means: [[Double]] = policies.map { policy in
            let mine = rows.filter { $0.policy == policy }
            return mainMetrics.map { m in mine.reduce(0) { $0 + $1[m] } / Double(max(1, mine.count)) }
        }
        var table = Page.Table(header: ["policy"] + mainMetrics.map(\.heading), rows: [])
        for (p, policy) in policies.enumerated() {
            var cells: [(text: String, exact: String, best: Bool)] = [(policy, policy, false)]
            for (c, metric) in mainMetrics.enumerated() {
                let column = means.map { $0[c] }
                // Requests describe the workload: no policy is best at them.
                let best =
                    metric == .requests
                    ? false
                    : (metric.lowerIsBetter ? column.min() : column.max()) == means[p][c] && Set(column).count > 1
                let text: String
                switch metric.chartUnit {
                case .bytes: text = Units.bytes(means[p][c])
                case .duration: text = Units.duration(means[p][c])
                default: text = Units.number(means[p][c])
                }
                cells.append((text, Chart.describe(means[p][c], metric.chartUnit), best))
            }
            table.rows.append(cells)
        }
        return table
    }

    /// A row of the disk chart's table of numbers. A function of its own: inferred inside the
    /// page's tuple, this array of six strings took 5.7 s of the module's type-checking, the
    /// longest wait of a first build.
    private static func diskRow(_ sample: RunRecorder.Sample) -> [String] {
        [
            String(format: "%.0f", sample.time), Units.bytes(Double(sample.other)), Units.bytes(Double(sample.odr)),
            Units.bytes(Double(sample.inUse)), Units.bytes(Double(sample.downloading)),
            Units.bytes(Double(sample.free)),
        ]
    }

    public var page: Page {
        var sections: [Page.Section] = []
        sections.append(
            Page.Section(
                heading: "Summary",
                text:
                    """
                    Per policy, the mean over its replications; the best value of each column is highlighted \
                    (lowest, or highest for hits). Hover for exact values; summary.csv has every column.
                    """,
                table: Self.summaryTable(rows)))

        // Disk use over time, one chart per policy.
        var disk: [Page.Figure] = []
        for run in runs {
            let picked = Self.thinned(run.samples.count, to: Self.displayPoints)
            let s = picked.map { run.samples[$0] }
            func layer(_ name: String, _ colour: String, _ value: (RunRecorder.Sample) -> Int64) -> Chart.Line {
                Chart.Line(
                    name: name, colour: colour, points: s.map { ($0.time, Double(value($0))) },
                    hovers: s.map { sample in
                        "\(run.policy), \(String(format: "%.6f", sample.time)) s: other_bytes \(sample.other), "
                            + """
                            odr_bytes \(sample.odr), in_use_bytes \(sample.inUse), downloading_bytes \
                            \(sample.downloading), free_bytes \(sample.free)
                            """
                    })
            }
            // From just below the least other data to just above capacity: the wall is what matters.
            let floorBytes = Double(s.map(\.other).min() ?? 0) * 0.97
            let step = Chart.niceStep(max(1, Double(capacity) - floorBytes) / 5)
            let low = max(0, (floorBytes / step).rounded(.down) * step)
            var chart = Chart(
                title: "Disk use over time: \(run.policy)", x: .init(label: "time", unit: .duration),
                y: .init(label: "bytes", unit: .bytes, bounds: low...(Double(capacity) + step * 0.3)))
            chart.stack = [
                layer("other data", Palette.states.other) { $0.other },
                layer("ODR content", palette.colour(of: run.policy)) { $0.odr - $0.inUse },
                layer("in use", Palette.states.inUse) { $0.inUse },
                layer("downloading", Palette.states.downloading) { $0.downloading },
            ]
            chart.references = [(Double(capacity), "capacity")]
            for i in Self.thinned(run.purgeEpisodes.count, to: Self.displayMarks) {
                let e = run.purgeEpisodes[i]
                chart.marks.append(
                    .init(
                        x: e.time, colour: "#b00000",
                        text:
                            "purge episode at \(String(format: "%.6f", e.time)) s: \(Units.bytes(Double(e.purged))) "
                            + "purged"
                    ))
            }
            for t in run.lowDiskWarnings.prefix(Self.displayMarks) {
                chart.marks.append(
                    .init(x: t, colour: "#6a00b0", text: "low-disk warning at \(String(format: "%.6f", t)) s"))
            }
            let numbers = (
                header: ["time (s)", "other", "ODR content", "in use", "downloading", "free"],
                rows: Self.thinned(s.count, to: Self.tableRows).map { Self.diskRow(s[$0]) }
            )
            let caption =
                """
                Replication \(run.replication). Stacked: other data, ODR content not in use, in use, reserved for \
                downloads; the y axis starts at \(Units.bytes(low)). \(run.purgeEpisodes.count) purge episodes \
                (red marks), \(run.lowDiskWarnings.count) low-disk warnings (violet).
                """
                + (run.samples.count > picked.count ? " \(picked.count) of \(run.samples.count) samples drawn." : "")
            disk.append(Page.Figure(chart: chart, caption: caption, numbers: numbers))
        }
        sections.append(Page.Section(heading: "Disk use over time", figures: disk))
        if runs.contains(where: { !$0.packStretches.isEmpty }) {
            sections.append(Page.Section(heading: "What is on disk, pack by pack", figures: runs.map(Self.packsFigure)))
        }

        // Cumulative re-download bytes, one line per policy: the mean over the replications
        // with the lowest and highest as a band, as the summary table shows means; with one
        // replication, that replication.
        let spreads = runs.map(\.redownloadSpread)
        let meanOf = spreads.allSatisfy { $0 != nil } ? runs.first?.redownloads.count : nil
        var redownload = Chart(
            title: "Re-downloaded bytes, cumulative ("
                + (meanOf.map { "mean of \($0) replications" } ?? "replication 1") + ")" + deviceNote,
            x: .init(label: "time", unit: .duration), y: .init(label: "re-downloaded", unit: .bytes))
        var numbers: [[String]] = []
        for (run, spread) in zip(runs, spreads) {
            let picked = Self.thinned(run.samples.count, to: Self.displayPoints)
            let times = picked.map { run.samples[$0].time }
            if meanOf != nil, let spread {
                let shown = picked.map { spread[$0] }
                redownload.lines.append(
                    Chart.Line(
                        name: run.policy, colour: palette.colour(of: run.policy), dash: palette.dash(of: run.policy),
                        points: zip(times, shown).map { ($0, $1.mean) }, band: shown.map { ($0.low, $0.high) },
                        steps: true,
                        hovers: zip(times, shown).map {
                            "\(run.policy), \(String(format: "%.6f", $0)) s: redownload_bytes mean "
                                + "\(String(format: "%.0f", $1.mean)), lowest \(String(format: "%.0f", $1.low)), "
                                + "highest \(String(format: "%.0f", $1.high))"
                        }))
                if let last = spread.last {
                    numbers.append([run.policy, Units.bytes(last.mean), Units.bytes(last.low), Units.bytes(last.high)])
                }
            } else {
                let s = picked.map { run.samples[$0] }
                redownload.lines.append(
                    Chart.Line(
                        name: run.policy, colour: palette.colour(of: run.policy), dash: palette.dash(of: run.policy),
                        points: s.map { ($0.time, Double($0.redownloaded)) }, steps: true,
                        hovers: s.map {
                            "\(run.policy), \(String(format: "%.6f", $0.time)) s: redownload_bytes \($0.redownloaded)"
                        }))
                if let last = run.samples.last { numbers.append([run.policy, Units.bytes(Double(last.redownloaded))]) }
            }
        }
        let redownloadCaption =
            meanOf.map {
                """
                Bytes received again for packs purged before, as the run goes: the mean of \($0) replications of \
                each policy (the summary's means at the end), the band from the lowest replication to the \
                highest.
                """
            } ?? "Bytes received again for packs purged before, as the run goes (replication 1 of each policy)."
        sections.append(
            Page.Section(
                heading: "Re-downloads",
                figures: [
                    Page.Figure(
                        chart: redownload, caption: redownloadCaption,
                        numbers: meanOf == nil
                            ? (["policy", "at the end"], numbers)
                            : (["policy", "mean at the end", "lowest", "highest"], numbers))
                ]))

        // Request waits.
        // A log axis: waits span milliseconds to hours, and the tail is what tells policies apart.
        var cdf = Chart(
            title: "Request waits (CDF, log time axis)" + deviceNote,
            x: .init(label: "wait", unit: .duration, log: true),
            y: .init(label: "requests at or below", unit: .fraction, bounds: 0...1))
        var waitRows: [[String]] = []
        for run in runs where !run.waits.isEmpty {
            cdf.lines.append(
                Chart.Line(
                    name: run.policy, colour: palette.colour(of: run.policy), dash: palette.dash(of: run.policy),
                    points: run.waits.map { ($0.seconds, $0.fraction) }, steps: true,
                    hovers: run.waits.map {
                        "\(run.policy): \(Units.number($0.fraction * 100)) % of granted requests waited at most "
                            + "\(String(format: "%.6f", $0.seconds)) s"
                    }))
            func at(_ p: Double) -> String {
                Units.duration(run.waits.first { $0.fraction >= p - 1e-9 }?.seconds ?? 0)
            }
            waitRows.append([run.policy, at(0.5), at(0.95), at(0.99)])
        }
        sections.append(
            Page.Section(
                heading: "Waits",
                figures: [
                    Page.Figure(
                        chart: cdf,
                        caption:
                            """
                            Begin to grant, for granted requests, on a log time axis; hits wait 0 and start each \
                            curve at its left edge. Replication 1 of each policy.
                            """,
                        numbers: (["policy", "p50", "p95", "p99"], waitRows))
                ]))
        if !bounds.isEmpty { sections.append(CompareReport.boundsSection(bounds, palette: palette)) }
        var page = Page(title: title, lede: lede, facts: facts, sections: sections)
        page.headline = headline
        return page
    }

    public var html: String { page.html }
}

extension RunReport {
    /// A policy's `packs.csv` stretches summed by phase over time: bytes stored, partial and
    /// downloading (a download drawn with the bytes it reached), stacked, as step lines.
    static func packsFigure(_ run: PolicyRun) -> Page.Figure {
        let totals = PackTimeline.totals(run.packStretches)
        // Half the points of a time series: each is drawn twice, before its change and after.
        let picked = thinned(totals.count, to: displayPoints / 2).map { totals[$0] }
        let phases: [(PackTimeline.Phase, String, String)] = [
            (.stored, "stored", "#4c78a8"), (.partial, "partial", "#e45756"),
            (.downloading, "downloading", Palette.states.downloading),
        ]
        var chart = Chart(
            title: "Packs on disk: \(run.policy)", x: .init(label: "time", unit: .duration),
            y: .init(label: "bytes", unit: .bytes))
        // Each moment twice, before and after its change: the areas step as the bytes do.
        var points: [(time: Double, bytes: [PackTimeline.Phase: Int64])] = []
        for point in picked {
            if let last = points.last { points.append((point.time, last.bytes)) }
            points.append(point)
        }
        let hovers = points.map { point in
            "\(run.policy), \(String(format: "%.6f", point.time)) s: "
                + phases.map { "\($0.1) \(point.bytes[$0.0] ?? 0) bytes" }.joined(separator: ", ")
        }
        chart.stack = phases.map { phase, name, colour in
            Chart.Line(
                name: name, colour: colour, points: points.map { ($0.time, Double($0.bytes[phase] ?? 0)) },
                hovers: hovers)
        }
        let numbers = (
            header: ["time (s)"] + phases.map(\.1),
            rows: thinned(picked.count, to: tableRows).map { picked[$0] }.map { point in
                [String(format: "%.0f", point.time)] + phases.map { Units.bytes(Double(point.bytes[$0.0] ?? 0)) }
            }
        )
        let packs = Set(run.packStretches.map { $0.app + "/" + $0.pack }).count
        let caption =
            """
            Replication \(run.replication), from packs.csv (\(run.packStretches.count) stretches of \(packs) packs): \
            the bytes of the packs stored, kept partial and downloading at each moment one changed.
            """
            + (totals.count > picked.count ? " \(picked.count) of \(totals.count) moments drawn." : "")
        return Page.Figure(chart: chart, caption: caption, numbers: numbers)
    }
}
