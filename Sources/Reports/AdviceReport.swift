/// `report.html` of `odr-sim advise`: every layout tried as a point (re-downloaded bytes
/// against p95 wait), the objective of the layouts that matter with their intervals, and the
/// advised layout beside the one as written.
public struct AdviceReport {
    /// One layout tried, as the report shows it.
    public struct Layout: Sendable {
        public var id: Int
        public var move: String
        public var packs: Int
        /// Why it was not run (a platform limit), or nil.
        public var rejected: String?
        public var redownloadBytes: Double
        public var waitP95: Double
        public var initialInstallBytes: Double
        /// The objective's mean and 95 % interval over the replications.
        public var objective: (mean: Double, low: Double, high: Double)
        public init(
            id: Int, move: String, packs: Int, rejected: String?, redownloadBytes: Double, waitP95: Double,
            initialInstallBytes: Double, objective: (mean: Double, low: Double, high: Double)
        ) {
            self.id = id
            self.move = move
            self.packs = packs
            self.rejected = rejected
            self.redownloadBytes = redownloadBytes
            self.waitP95 = waitP95
            self.initialInstallBytes = initialInstallBytes
            self.objective = objective
        }
    }

    public var title: String
    public var lede: String
    public var layouts: [Layout]
    /// Indices into ``layouts``: the three starting layouts, the one as written first.
    public var starts: [Int]
    public var advised: Int
    /// Each resource: name, size, its pack as written, its pack advised, promoted to prefetch.
    public var resources: [(name: String, size: Int64, written: String, advised: String, prefetch: Bool)]
    /// The app advised: every figure is its own (the device's refused data and over-purge are
    /// in the objective's terms and `layouts.csv`).
    public var app = "the app"

    static let objectiveCaption = "The objective's mean over the replications, with its 95 % interval."

    public init(
        title: String, lede: String, layouts: [Layout], starts: [Int], advised: Int,
        resources: [(name: String, size: Int64, written: String, advised: String, prefetch: Bool)]
    ) {
        self.title = title
        self.lede = lede
        self.layouts = layouts
        self.starts = starts
        self.advised = advised
        self.resources = resources
    }

    public var page: Page {
        let run = layouts.filter { $0.rejected == nil }
        // The axes span the layouts, not from zero: their differences are what the picture shows.
        func span(_ values: [Double]) -> ClosedRange<Double>? {
            guard let low = values.min(), let high = values.max(), high > low else { return nil }
            let pad = (high - low) * 0.1
            return max(0, low - pad)...(high + pad)
        }
        var scatter = Chart(
            title: "\(app)'s re-downloaded bytes against its p95 wait, every layout tried",
            x: .init(label: "p95 wait", unit: .duration, bounds: span(run.map { $0.waitP95.isNaN ? 0 : $0.waitP95 })),
            y: .init(label: "\(app)'s re-downloaded", unit: .bytes, bounds: span(run.map(\.redownloadBytes))))
        func dots(_ name: String, _ colour: String, _ chosen: [Layout]) -> Chart.Line {
            Chart.Line(
                name: name, colour: colour,
                points: chosen.map { ($0.waitP95.isNaN ? 0 : $0.waitP95, $0.redownloadBytes) },
                hovers: chosen.map {
                    "\($0.move): \(Units.bytes($0.redownloadBytes)) re-downloaded, p95 wait "
                        + "\(String(format: "%.1f", $0.waitP95)) s, objective \(Units.bytes($0.objective.mean))"
                },
                scatter: true)
        }
        let moves = run.filter { !starts.contains($0.id) && $0.id != advised }
        scatter.lines = [
            dots("moves", "#9e9e9e", moves),
            dots("starting layouts", "#1f77b4", starts.compactMap { id in run.first { $0.id == id } }),
            dots("advised", "#d62728", run.filter { $0.id == advised }),
        ]
        var bars = Chart(
            title: "Objective: starting layouts and the advised one (95 % intervals)",
            x: .init(label: "layout", unit: .count), y: .init(label: "objective", unit: .bytes))
        for id in starts + (starts.contains(advised) ? [] : [advised]) {
            let layout = layouts[id]
            guard layout.rejected == nil else { continue }
            bars.bars.append(
                Chart.Bar(
                    name: id == advised ? "advised" : layout.move, colour: id == advised ? "#d62728" : "#1f77b4",
                    value: layout.objective.mean, low: layout.objective.low, high: layout.objective.high,
                    flagged: id == advised))
        }
        let table = resources.map {
            [$0.name, Units.bytes(Double($0.size)), $0.written, $0.advised, $0.prefetch ? "prefetch" : ""]
        }
        return Page(
            title: title, lede: lede,
            sections: [
                Page.Section(
                    heading: "The search",
                    figures: [
                        Page.Figure(
                            chart: scatter,
                            caption: "Each point is a layout simulated on the same seeds; lower left is better.",
                            numbers: (
                                ["layout", "move", "packs", "re-downloaded", "p95 wait (s)", "objective"],
                                run.map {
                                    [
                                        String($0.id), $0.move, String($0.packs), Units.bytes($0.redownloadBytes),
                                        String(format: "%.1f", $0.waitP95), Units.bytes($0.objective.mean),
                                    ]
                                }
                            )),
                        Page.Figure(
                            chart: bars, caption: Self.objectiveCaption),
                    ]),
                Page.Section(
                    heading: "The advised layout", text: "Each resource's pack (its tag set) as written and advised.",
                    table: Page.Table(
                        header: ["resource", "size", "pack as written", "pack advised", ""],
                        rows: table.map { $0.map { ($0, $0, false) } })),
            ])
    }

    public var html: String { page.html }
}
