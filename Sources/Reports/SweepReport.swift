import Foundation
import Metrics

/// `report.html` of `odr-sim sweep`: each main metric against each axis, one line per policy
/// with its 95 % band (the other axes at their middle value), and with two or more axes a
/// heat map of the baseline policy's re-downloads over the first two.
public struct SweepReport {
    static let metrics: [Metric] = [
        .redownloadBytes, .overPurgeBytes, .failedRequests, .lowDiskNotifications, .waitP95,
    ]

    public struct Axis: Sendable {
        public var name: String
        public var values: [String]
        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    public var title: String
    public var lede: String
    public var axes: [Axis]
    /// Per point, its axis values and comparison (``Experiments/SweepResults/comparisons()``).
    public var points: [(values: [String], comparison: Comparison)]
    public var palette: Palette
    /// The study's verdict lines, shown at the top (``Metrics/Verdict/study(_:offline:metrics:)``).
    public var headline: [String] = []
    /// Under a focus (`--app`): a chart of a metric only the device has says it is the device's.
    public var focused = false

    public init(
        title: String, lede: String, axes: [Axis], points: [(values: [String], comparison: Comparison)],
        palette: Palette
    ) {
        self.title = title
        self.lede = lede
        self.axes = axes
        self.points = points
        self.palette = palette
    }

    public var page: Page {
        var sections: [Page.Section] = []
        let lookup = Dictionary(points.map { ($0.values, $0.comparison) }, uniquingKeysWith: { a, _ in a })
        let middle = axes.map { $0.values[($0.values.count - 1) / 2] }
        let moving = movesWith
        // The point with axis `a` at `value`, the axes that move with it (a `zip` group) at
        // theirs, every other axis at its middle value.
        func point(_ a: Int, _ value: String) -> Comparison? {
            points.first { p in
                p.values[a] == value
                    && axes.indices.allSatisfy { b in b == a || moving[a].contains(b) || p.values[b] == middle[b] }
            }?.comparison
        }
        let policies = points.first?.comparison.policies.map(\.policy) ?? []
        for (a, axis) in axes.enumerated() {
            var figures: [Page.Figure] = []
            let fixed = axes.indices.filter { $0 != a && !moving[a].contains($0) }.map {
                "\(axes[$0].name) = \(middle[$0])"
            }.joined(separator: ", ")
            for metric in Self.metrics {
                let (c, column, name, unit) = (metric.position, metric.column, metric.title, metric.chartUnit)
                let whose = focused && !metric.belongsToApp ? " (the device's)" : ""
                var chart = Chart(
                    title: "\(name)\(whose) against \(axis.name)",
                    x: .init(label: axis.name, unit: .plain, categories: axis.values),
                    y: .init(label: name.lowercased(), unit: unit))
                var rows: [[String]] = []
                for policy in policies {
                    var points: [(x: Double, y: Double)] = []
                    var band: [(low: Double, high: Double)] = []
                    var hovers: [String] = []
                    for (v, value) in axis.values.enumerated() {
                        guard let m = point(a, value)?.statistics(of: policy)?.metrics[c] else { continue }
                        points.append((Double(v), m.mean))
                        band.append((m.nonNegativeLow, m.high))
                        hovers.append(
                            """
                            \(policy), \(axis.name) = \(value): \(column) mean \(Chart.describe(m.mean, unit)), \
                            \(Chart.interval(m.nonNegativeLow, m.high, unit))
                            """
                        )
                        rows.append([
                            policy, value, Chart.describe(m.mean, unit), Chart.describe(m.nonNegativeLow, unit),
                            Chart.describe(m.high, unit),
                        ])
                    }
                    chart.lines.append(
                        Chart.Line(
                            name: policy, colour: palette.colour(of: policy), dash: palette.dash(of: policy),
                            points: points, band: band, hovers: hovers))
                }
                chart.references = references(leaving: a, metric: metric)
                // Values across decades on a log axis, or the small ones are a flat line at 0.
                let positive = chart.lines.flatMap { $0.points.map(\.y) }.filter { $0 > 0 }
                if let low = positive.min(), let high = positive.max(), high / low >= 100 { chart.y.log = true }
                let others = fixed.isEmpty ? "" : "Other axes at \(fixed)."
                var caption = others
                if !chart.references.isEmpty {
                    let (point, whose) = chart.references.count == 1 ? ("point", "its") : ("points", "their")
                    caption +=
                        (caption.isEmpty ? "" : " ")
                        + "Reference \(point) (no \(axis.name) of \(whose) own), a horizontal line: "
                        + chart.references.map(\.label).joined(separator: "; ") + "."
                }
                if chart.y.log {
                    caption +=
                        (caption.isEmpty ? "" : " ")
                        + "Log axis: the values span \(Int(log10(positive.max()! / positive.min()!))) decades."
                }
                figures.append(
                    Page.Figure(
                        chart: chart, caption: caption,
                        numbers: (["policy", axis.name, "mean", "95 % low", "95 % high"], rows)))
                // Against the baseline, replication by replication: what the bands above cannot show.
                if metric == .redownloadBytes, let reference = self.points.first?.comparison.reference,
                    policies.count > 1
                {
                    figures.append(
                        differenceFigure(
                            axis: axis, a: a, metric: metric, reference: reference, policies: policies, point: point,
                            caption: others))
                }
            }
            sections.append(Page.Section(heading: "Against \(axis.name)", figures: figures))
        }
        // A heat map of the first two axes, unless they move together (then it is a diagonal).
        if axes.count >= 2, !moving[0].contains(1), let reference = points.first?.comparison.reference,
            case let c = Metric.redownloadBytes.position
        {
            var values: [[Double]] = []
            for row in axes[1].values {
                values.append(
                    axes[0].values.map { column in
                        var key = middle
                        key[0] = column
                        key[1] = row
                        return lookup[key]?.statistics(of: reference)?.metrics[c].mean ?? .nan
                    })
            }
            var heat = Chart(
                title: "\(reference): mean re-downloaded bytes (GB-scaled cells)",
                x: .init(label: axes[0].name, unit: .plain),
                y: .init(label: axes[1].name, unit: .plain))
            let scale = Units.byteUnit(values.flatMap { $0 }.filter(\.isFinite).max() ?? 1)
            heat.heat = (axes[0].values, axes[1].values, values.map { $0.map { $0 / scale.scale } })
            heat.title = "\(reference): mean re-downloaded bytes (\(scale.name))"
            sections.append(
                Page.Section(
                    heading: "\(axes[0].name) × \(axes[1].name)",
                    figures: [
                        Page.Figure(
                            chart: heat, caption: heatCaption(),
                            numbers: (
                                [axes[1].name + " \\ " + axes[0].name] + axes[0].values,
                                zip(axes[1].values, values).map { [$0] + $1.map { Units.bytes($0 * 1) } }
                            ))
                    ]))
        }
        var page = Page(title: title, lede: lede, sections: sections)
        page.headline = headline
        return page
    }

    /// The heat map's caption: where the other axes are, and the reference points it has no cell for.
    func heatCaption() -> String {
        let references = references(leaving: 0, metric: .redownloadBytes).map(\.label)
        return
            ([axes.count > 2 ? "Other axes at their middle value." : ""]
            + (references.isEmpty
                ? [] : ["No cell for \(references.joined(separator: "; ")) (no \(axes[0].name) of its own)."]))
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The points that leave axis `a` out (a study's reference point, `points: [{platform:
    /// ios17}]` beside a budget axis), under the reference policy: horizontal lines labelled with
    /// the point and its value, never a position on the axis they do not have (issue 50).
    func references(leaving a: Int, metric: Metric) -> [(y: Double, label: String)] {
        guard let reference = points.first?.comparison.reference else { return [] }
        return points.filter { $0.values[a].isEmpty }.compactMap { point in
            guard let m = point.comparison.statistics(of: reference)?.metrics[metric.position] else { return nil }
            let label = zip(axes, point.values).filter { !$0.1.isEmpty }.map { "\($0.0.name)=\($0.1)" }
                .joined(separator: ", ")
            return (m.mean, "\(label) under \(reference), \(humanValue(m.mean, metric))")
        }
    }

    /// Each policy's paired difference to the baseline along one axis, with its 95 % band.
    func differenceFigure(
        axis: Axis, a: Int, metric: Metric, reference: String, policies: [String],
        point: (Int, String) -> Comparison?, caption: String
    ) -> Page.Figure {
        let (c, unit) = (metric.position, metric.chartUnit)
        var chart = Chart(
            title: "\(metric.title): difference to \(reference) against \(axis.name)",
            x: .init(label: axis.name, unit: .plain, categories: axis.values), y: .init(label: "difference", unit: unit)
        )
        chart.references = [(0, reference)]
        var rows: [[String]] = []
        for policy in policies where policy != reference {
            var points: [(x: Double, y: Double)] = []
            var band: [(low: Double, high: Double)] = []
            var hovers: [String] = []
            for (v, value) in axis.values.enumerated() {
                guard let d = point(a, value)?.statistics(of: policy)?.differences?[c] else { continue }
                points.append((Double(v), d.mean))
                band.append((d.low, d.high))
                let significant = d.excludesZero
                hovers.append(
                    """
                    \(policy) − \(reference), \(axis.name) = \(value): \(Chart.describe(d.mean, unit)), \
                    \(Chart.interval(d.low, d.high, unit))\(significant ? " (excludes 0)" : "")
                    """
                )
                rows.append([
                    policy, value, Chart.describe(d.mean, unit), Chart.describe(d.low, unit),
                    Chart.describe(d.high, unit), significant ? "yes" : "no",
                ])
            }
            chart.lines.append(
                Chart.Line(
                    name: policy, colour: palette.colour(of: policy), dash: palette.dash(of: policy),
                    points: points, band: band, hovers: hovers))
        }
        return Page.Figure(
            chart: chart,
            caption:
                """
                Policy − \(reference), replication by replication (common random numbers); below 0 is better than \
                \(reference).
                """
                    + " " + caption,
            numbers: (["policy", axis.name, "difference", "95 % low", "95 % high", "excludes 0"], rows))
    }

    /// Per axis, the other axes its value determines across the points (axes of its `zip`
    /// group); an axis with one value moves with nothing.
    var movesWith: [Set<Int>] {
        axes.indices.map { a in
            Set(
                axes.indices.filter { b in
                    guard b != a, axes[b].values.count > 1 else { return false }
                    var seen: [String: String] = [:]
                    for p in points {
                        if let other = seen[p.values[a]], other != p.values[b] { return false }
                        seen[p.values[a]] = p.values[b]
                    }
                    return true
                })
        }
    }

    public var html: String { page.html }
}
