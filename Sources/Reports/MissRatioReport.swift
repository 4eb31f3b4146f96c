/// `report.html` of `odr-sim replay`: miss-ratio curves, object and byte, one line per
/// policy against capacity (log scale when the capacities span a factor of 10 or more).
public struct MissRatioReport {
    public struct Point: Sendable {
        public var policy: String
        public var capacity: Int64
        public var objectMissRatio: Double
        public var byteMissRatio: Double
        public var misses: Int64
        public var bytesMissed: Int64
        public init(
            policy: String, capacity: Int64, objectMissRatio: Double, byteMissRatio: Double, misses: Int64,
            bytesMissed: Int64
        ) {
            self.policy = policy
            self.capacity = capacity
            self.objectMissRatio = objectMissRatio
            self.byteMissRatio = byteMissRatio
            self.misses = misses
            self.bytesMissed = bytesMissed
        }
    }

    public var title: String
    public var lede: String
    public var points: [Point]
    public var palette: Palette

    public init(title: String, lede: String, points: [Point], palette: Palette) {
        self.title = title
        self.lede = lede
        self.points = points
        self.palette = palette
    }

    public var page: Page {
        var policies: [String] = []
        for p in points where !policies.contains(p.policy) { policies.append(p.policy) }
        let capacities = points.map { Double($0.capacity) }.filter { $0 > 0 }
        let log = (capacities.max() ?? 1) >= 10 * (capacities.min() ?? 1)
        var figures: [Page.Figure] = []
        for (title, ratio, count) in [
            ("Object miss ratio", \Point.objectMissRatio, "misses"),
            ("Byte miss ratio", \Point.byteMissRatio, "bytes missed"),
        ] {
            var chart = Chart(
                title: "\(title) against capacity", x: .init(label: "capacity", unit: .bytes, log: log),
                y: .init(label: title.lowercased(), unit: .fraction, bounds: 0...1))
            var rows: [[String]] = []
            for policy in policies {
                let mine = points.filter { $0.policy == policy }.sorted { $0.capacity < $1.capacity }
                chart.lines.append(
                    Chart.Line(
                        name: policy, colour: palette.colour(of: policy), dash: palette.dash(of: policy),
                        points: mine.map { (Double(max($0.capacity, 1)), $0[keyPath: ratio]) },
                        hovers: mine.map {
                            "\(policy) at \($0.capacity) bytes (\(Units.bytes(Double($0.capacity)))): "
                                + "\(title.lowercased()) \(String(format: "%.6f", $0[keyPath: ratio])), \(count) "
                                + "\(count == "misses" ? $0.misses : $0.bytesMissed)"
                        }))
                rows += mine.map {
                    [policy, Units.bytes(Double($0.capacity)), String(format: "%.6f", $0[keyPath: ratio])]
                }
            }
            figures.append(
                Page.Figure(
                    chart: chart, caption: "Every request counts; the first request of each object is a miss.",
                    numbers: (["policy", "capacity", title.lowercased()], rows)))
        }
        return Page(title: title, lede: lede, sections: [Page.Section(heading: "Miss-ratio curves", figures: figures)])
    }

    public var html: String { page.html }
}
