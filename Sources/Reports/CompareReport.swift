import Metrics

/// `report.html` of `odr-sim compare`: for each main metric, the policies ranked (best first)
/// as bars with 95 % interval whiskers, then the paired difference to the baseline policy
/// with its interval; a policy whose difference interval excludes zero is marked (`*`, and a
/// heavier outline).
public struct CompareReport {
    /// The metrics charted: column, title, unit.
    static let metrics: [Metric] = [
        .redownloadBytes, .overPurgeBytes, .failedRequests, .lowDiskNotifications, .waitP95,
    ]

    public var title: String
    public var lede: String
    /// The verdict lines shown at the top (``Metrics/Verdict``); none by default.
    public var headline: [String] = []
    public var facts: [(name: String, value: String)]
    public var comparison: Comparison
    public var palette: Palette
    /// With `--bound`: per policy, its mean re-downloaded bytes and the mean of the bound
    /// (the fewest any purge order could have re-downloaded with the same grants).
    public var bounds: [(policy: String, redownloaded: Double, bound: Double)] = []
    /// With `--robustness`: its headline line and its table (assumption, alternative, metric,
    /// best as run, best under the alternative, holds or flips).
    public var robustness: (headline: String, rows: [[String]])?

    public init(
        title: String, lede: String, facts: [(name: String, value: String)], comparison: Comparison, palette: Palette
    ) {
        self.title = title
        self.lede = lede
        self.facts = facts
        self.comparison = comparison
        self.palette = palette
    }

    public var page: Page {
        var sections: [Page.Section] = []
        let reference = comparison.reference
        for metric in Self.metrics {
            let (c, name, unit) = (metric.position, metric.title, metric.chartUnit)
            // A metric no policy moves gets a sentence, not a chart of equal bars.
            if comparison.policies.count > 1, let first = comparison.policies.first,
                comparison.policies.allSatisfy({ Self.same($0, as: first, at: c) })
            {
                sections.append(
                    Page.Section(
                        heading: name,
                        text:
                            """
                            Identical under every policy in every replication: \
                            \(Chart.describe(first.metrics[c].mean, unit)) on average.
                            """
                                + (metric == .lowDiskNotifications
                                    ? """
                                     A low-disk warning is posted only when purging every candidate would not free \
                                    enough, which the purge order rarely changes.
                                    """
                                    : "")))
                continue
            }
            // Best (lowest mean) first; ties by name, so the order is stable.
            let ranked = comparison.policies.sorted {
                ($0.metrics[c].mean, $0.policy) < ($1.metrics[c].mean, $1.policy)
            }
            var bars = Chart(
                title: "\(name): mean and 95 % interval, best first", x: .init(label: "policy", unit: .plain),
                y: .init(label: name.lowercased(), unit: unit))
            bars.bars = ranked.map { p in
                let m = p.metrics[c]
                return Chart.Bar(
                    name: p.policy, colour: palette.colour(of: p.policy), value: m.mean, low: m.nonNegativeLow,
                    high: m.high)
            }
            var figures = [
                Page.Figure(
                    chart: bars, caption: "\(ranked.first?.replications ?? 0) replications per policy.",
                    numbers: (
                        ["policy", "mean", "95 % low", "95 % high"],
                        ranked.map { p in
                            let m = p.metrics[c]
                            return [
                                p.policy, Chart.describe(m.mean, unit), Chart.describe(m.nonNegativeLow, unit),
                                Chart.describe(m.high, unit),
                            ]
                        }
                    ))
            ]
            let others = ranked.filter { $0.differences != nil }
            if !others.isEmpty {
                var diff = Chart(
                    title: "\(name): paired difference to \(reference) (* interval excludes 0)",
                    x: .init(label: "policy", unit: .plain), y: .init(label: "difference", unit: unit))
                diff.bars = others.map { p in
                    let d = p.differences![c]
                    return Chart.Bar(
                        name: p.policy, colour: palette.colour(of: p.policy), value: d.mean, low: d.low, high: d.high,
                        flagged: d.excludesZero)
                }
                figures.append(
                    Page.Figure(
                        chart: diff,
                        caption:
                            """
                            Policy − \(reference), replication by replication (common random numbers). Below zero: \
                            better than \(reference).
                            """,
                        numbers: (
                            ["policy", "difference", "95 % low", "95 % high", "excludes 0"],
                            others.map { p in
                                let d = p.differences![c]
                                return [
                                    p.policy, Chart.describe(d.mean, unit), Chart.describe(d.low, unit),
                                    Chart.describe(d.high, unit),
                                    d.excludesZero ? "yes" : "no",
                                ]
                            }
                        )))
            }
            sections.append(Page.Section(heading: name, figures: figures))
        }
        if !bounds.isEmpty { sections.append(Self.boundsSection(bounds, palette: palette)) }
        if let robustness {
            let table = Page.Table(
                header: ["assumption", "alternative", "metric", "best as run", "best under it", "verdict"],
                rows: robustness.rows.map { $0.map { (text: $0, exact: $0, best: false) } })
            sections.append(
                Page.Section(
                    heading: "Does the verdict rest on an assumption? (--robustness)",
                    text: robustness.headline
                        + """
                        . Each undocumented choice that applies (odr-sim assumptions) was set to each alternative, \
                        the same seeds run again.
                        """,
                    table: table))
        }
        var page = Page(title: title, lede: lede, facts: facts, sections: sections)
        page.headline = headline
        return page
    }

    public var html: String { page.html }

    /// Whether `policy` had `first`'s value of metric `c` in every replication: equal means,
    /// and a paired difference of exactly 0 (or it is the baseline).
    static func same(_ policy: Comparison.PolicyStatistics, as first: Comparison.PolicyStatistics, at c: Int) -> Bool {
        guard policy.metrics[c].mean == first.metrics[c].mean else { return false }
        guard let d = policy.differences?[c] else { return true }
        return d.isAllZero
    }

    /// The `--bound` section of `compare` and `run`: each policy's mean re-downloaded bytes
    /// with a whisker down to its mean bound, and the gap.
    public static func boundsSection(
        _ bounds: [(policy: String, redownloaded: Double, bound: Double)], palette: Palette
    ) -> Page.Section {
        var chart = Chart(
            title: "Re-downloaded bytes and the bound no purge order could beat",
            x: .init(label: "policy", unit: .plain),
            y: .init(label: "re-downloaded", unit: .bytes))
        chart.bars = bounds.map {
            Chart.Bar(
                name: $0.policy, colour: palette.colour(of: $0.policy), value: $0.redownloaded, low: $0.bound,
                high: $0.redownloaded)
        }
        return Page.Section(
            heading: "Against the offline bound (--bound)",
            figures: [
                Page.Figure(
                    chart: chart,
                    caption:
                        """
                        Each bar is the policy's mean re-downloaded bytes; its whisker reaches down to the mean \
                        bound of its own runs (the fewest bytes any purge order could have re-downloaded, \
                        given the same grants). The gap is what a better purge order could still save.
                        """,
                    numbers: (
                        ["policy", "re-downloaded", "bound", "gap"],
                        bounds.map { b in
                            [
                                b.policy, Units.bytes(b.redownloaded), Units.bytes(b.bound),
                                b.bound > 0 ? String(format: "%+.1f %%", (b.redownloaded / b.bound - 1) * 100) : "—",
                            ]
                        }
                    ))
            ])
    }
}
