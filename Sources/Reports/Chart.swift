import Foundation
import Metrics

/// Inline SVG charts with a small API: lines (with optional interval bands and vertical
/// marks), stacked areas, bars with whiskers, and heat maps; linear or log axes with
/// readable ticks. Every drawn value carries a `<title>` (shown on hover) with the exact
/// number it comes from; no script, no external resource.
///
/// ```swift
/// var chart = Chart(title: "Re-downloaded bytes", x: .init(label: "time", unit: .duration),
///                   y: .init(label: "re-downloaded", unit: .bytes))
/// chart.lines.append(.init(name: "lru", colour: "#0072B2", points: [(0, 0), (3600, 64e6)]))
/// let svg = chart.svg
/// ```
public struct Chart: Sendable {
    /// What an axis's numbers are, for ticks and hovers.
    public enum Unit: Sendable { case bytes, duration, count, fraction, plain }

    public struct Axis: Sendable {
        public var label: String
        public var unit: Unit
        public var log = false
        /// Fixed bounds; by default the data's (and 0 for linear axes of non-negative data).
        public var bounds: ClosedRange<Double>?
        /// Named positions 0, 1, 2… (a study's axis values), ticked by name.
        public var categories: [String]?
        public init(
            label: String, unit: Unit, log: Bool = false, bounds: ClosedRange<Double>? = nil,
            categories: [String]? = nil
        ) {
            self.label = label
            self.unit = unit
            self.log = log
            self.bounds = bounds
            self.categories = categories
        }
    }

    public struct Line: Sendable {
        public var name: String
        public var colour: String
        public var dash: String = ""
        public var points: [(x: Double, y: Double)]
        /// An interval band (low, high) per point, drawn translucent.
        public var band: [(low: Double, high: Double)]? = nil
        /// Step line (a CDF, a counter) rather than straight segments.
        public var steps = false
        /// What a hover says of each point; by default "name: x, y".
        public var hovers: [String]? = nil
        /// Points only, no line between them (a scatter plot of layouts).
        public var scatter = false
        public init(
            name: String, colour: String, dash: String = "", points: [(x: Double, y: Double)],
            band: [(low: Double, high: Double)]? = nil, steps: Bool = false, hovers: [String]? = nil,
            scatter: Bool = false
        ) {
            self.name = name
            self.colour = colour
            self.dash = dash
            self.points = points
            self.band = band
            self.steps = steps
            self.hovers = hovers
            self.scatter = scatter
        }
    }

    /// A vertical mark at `x` (a purge episode, a warning), with its hover text.
    public struct Mark: Sendable {
        public var x: Double
        public var colour: String
        public var text: String
        public init(x: Double, colour: String, text: String) {
            self.x = x
            self.colour = colour
            self.text = text
        }
    }

    /// One bar: its value and interval, `flagged` drawn with a heavier outline.
    public struct Bar: Sendable {
        public var name: String
        public var colour: String
        public var value: Double
        public var low: Double
        public var high: Double
        public var flagged = false
        public init(name: String, colour: String, value: Double, low: Double, high: Double, flagged: Bool = false) {
            self.name = name
            self.colour = colour
            self.value = value
            self.low = low
            self.high = high
            self.flagged = flagged
        }
    }

    public var title: String
    public var x: Axis
    public var y: Axis
    public var lines: [Line] = []
    /// Layers of a stacked area chart, bottom first (x from the first layer).
    public var stack: [Line] = []
    public var marks: [Mark] = []
    /// Horizontal reference lines (capacity), with their labels.
    public var references: [(y: Double, label: String)] = []
    /// Bars, one per category, across the x axis (x is then only a label).
    public var bars: [Bar] = []
    /// A heat map: column labels (x), row labels (y), values[row][column].
    public var heat: (columns: [String], rows: [String], values: [[Double]])?

    public init(title: String, x: Axis, y: Axis) {
        self.title = title
        self.x = x
        self.y = y
    }

    // Geometry, in SVG user units.
    static let width = 760.0, height = 320.0
    static let left = 78.0, right = 150.0, top = 34.0, bottom = 48.0
    var plotWidth: Double { Self.width - Self.left - Self.right }
    var plotHeight: Double { Self.height - Self.top - Self.bottom }

    /// The chart as an `<svg>` element.
    public var svg: String {
        if let heat { return heatSVG(heat) }
        if !bars.isEmpty { return barsSVG() }
        return xySVG()
    }

    // MARK: Scales and ticks

    struct Scale {
        let low: Double, high: Double, log: Bool, start: Double, length: Double, flipped: Bool
        func position(_ v: Double) -> Double {
            let f: Double
            if log {
                let lv = Foundation.log10(max(v, low))
                let l0 = Foundation.log10(low)
                let l1 = Foundation.log10(high)
                f = l1 > l0 ? (lv - l0) / (l1 - l0) : 0.5
            } else {
                f = high > low ? (v - low) / (high - low) : 0.5
            }
            // Clamped to the plot: a stack's base below a raised axis lies on its bottom edge.
            let clamped = min(1.02, max(-0.02, f))
            return flipped ? start + length * (1 - clamped) : start + length * clamped
        }
    }

    /// The axis range: fixed bounds, or the data's, from 0 for linear axes of non-negative
    /// data, widened to whole ticks.
    static func range(_ axis: Axis, _ values: [Double]) -> (Double, Double) {
        if let b = axis.bounds { return (b.lowerBound, b.upperBound) }
        if let categories = axis.categories { return (-0.3, Double(max(1, categories.count)) - 0.7) }
        let finite = values.filter(\.isFinite)
        var low = finite.min() ?? 0
        var high = finite.max() ?? 1
        if axis.log {
            let positive = finite.filter { $0 > 0 }
            low = pow(10, floor(log10(positive.min() ?? 1)))
            high = pow(10, ceil(log10(max(positive.max() ?? 10, low * 10))))
            return (low, high)
        }
        if low >= 0 { low = 0 }
        if high <= low { high = low + 1 }
        let step = niceStep((high - low) / 5)
        return (floor(low / step) * step, ceil(high / step) * step)
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
    public static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(raw)))
        for m in [1.0, 2, 2.5, 5, 10] where m * magnitude >= raw { return m * magnitude }
        return 10 * magnitude
    }

    /// Tick values and labels in the axis's unit (one unit for the whole axis).
    static func ticks(_ axis: Axis, low: Double, high: Double) -> (values: [Double], labels: [String], unit: String) {
        if let categories = axis.categories { return (categories.indices.map(Double.init), categories, "") }
        var values: [Double] = []
        if axis.log {
            var v = low
            while v <= high * 1.0001 {
                values.append(v)
                v *= 10
            }
        } else {
            var unitScale = 1.0
            switch axis.unit {
            case .bytes: unitScale = Units.byteUnit(max(abs(low), abs(high))).scale
            case .duration: unitScale = Units.timeUnit(max(abs(low), abs(high))).scale
            default: break
            }
            let step = niceStep((high - low) / unitScale / 5) * unitScale
            var v = (low / step).rounded(.up) * step
            while v <= high + step * 1e-9 {
                values.append(v)
                v += step
            }
        }
        let largest = max(abs(low), abs(high))
        // Decades of bytes or time: each tick in its own unit (10 MB, 1 GB), not 0.00001 TB.
        if axis.log && axis.unit == .bytes { return (values, values.map(Units.bytes), "") }
        if axis.log && axis.unit == .duration { return (values, values.map(Units.duration), "") }
        switch axis.unit {
        case .bytes:
            let u = Units.byteUnit(largest)
            return (values, values.map { Units.number($0 / u.scale) }, u.name)
        case .duration:
            let u = Units.timeUnit(largest)
            return (values, values.map { Units.number($0 / u.scale) }, u.name)
        case .fraction:
            return (values, values.map { Units.number($0 * 100) }, "%")
        case .count, .plain:
            return (values, values.map { Units.number($0) }, "")
        }
    }

    /// A value as a hover shows it: exact, then in human units.
    /// "95 % interval LOW to HIGH", or, for an interval without bounds (the same value in
    /// every replication, ``Metrics/Interval/isBounded``), "no interval (the same in every
    /// replication)".
    static func interval(_ low: Double, _ high: Double, _ unit: Unit) -> String {
        guard low.isFinite, high.isFinite else { return "no interval (the same in every replication)" }
        return "95 % interval \(describe(low, unit)) to \(describe(high, unit))"
    }

    public static func describe(_ value: Double, _ unit: Unit) -> String {
        // An interval's missing bound (no spread to judge by, ``Metrics/Interval/isBounded``).
        guard value.isFinite else { return "none" }
        switch unit {
        case .bytes: return "\(Int64(value.rounded())) (\(Units.bytes(value)))"
        case .duration: return String(format: "%.6f s", value) + " (\(Units.duration(value)))"
        case .fraction: return Units.number(value * 100) + " %"
        case .count: return value == value.rounded() ? String(Int64(value)) : String(format: "%.6f", value)
        case .plain: return Units.number(value)
        }
    }

    // MARK: Drawing

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// A coordinate with one decimal, without printf (charts write thousands of them).
    static func f(_ v: Double) -> String {
        let tenths = Int64((v * 10).rounded())
        let whole = tenths / 10
        let fraction = abs(tenths % 10)
        return (tenths < 0 && whole == 0 ? "-" : "") + String(whole) + "." + String(fraction)
    }

    private func frame(
        _ body: String, xTicks: (values: [Double], labels: [String], unit: String)?, xScale: Scale?,
        yTicks: (values: [Double], labels: [String], unit: String), yScale: Scale, legend: [(String, String, String)]
    ) -> String {
        var s =
            """
            <svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \
            \(Int(Self.height))\" role=\"img\" aria-label=\"\(Self.escape(title))\">
            """
        s += "<title>\(Self.escape(title))</title>"
        s += "<text class=\"chart-title\" x=\"\(Self.f(Self.left))\" y=\"20\">\(Self.escape(title))</text>"
        // Grid and y ticks.
        for (v, label) in zip(yTicks.values, yTicks.labels) {
            let py = yScale.position(v)
            s +=
                """
                <line class=\"grid\" x1=\"\(Self.f(Self.left))\" x2=\"\(Self.f(Self.left + plotWidth))\" \
                y1=\"\(Self.f(py))\" y2=\"\(Self.f(py))\"/>
                """
            s +=
                """
                <text class=\"tick\" x=\"\(Self.f(Self.left - 6))\" y=\"\(Self.f(py + 4))\" \
                text-anchor=\"end\">\(label)</text>
                """
        }
        if let xTicks, let xScale {
            for (v, label) in zip(xTicks.values, xTicks.labels) {
                let px = xScale.position(v)
                s +=
                    """
                    <line class=\"tickmark\" x1=\"\(Self.f(px))\" x2=\"\(Self.f(px))\" \
                    y1=\"\(Self.f(Self.top + plotHeight))\" y2=\"\(Self.f(Self.top + plotHeight + 5))\"/>
                    """
                s +=
                    """
                    <text class=\"tick\" x=\"\(Self.f(px))\" y=\"\(Self.f(Self.top + plotHeight + 18))\" \
                    text-anchor=\"middle\">\(label)</text>
                    """
            }
        }
        s +=
            """
            <rect class=\"plot\" x=\"\(Self.f(Self.left))\" y=\"\(Self.f(Self.top))\" width=\"\(Self.f(plotWidth))\" \
            height=\"\(Self.f(plotHeight))\"/>
            """
        s += body
        // Bars name their categories under each bar: no axis label there.
        let xLabel = xTicks == nil ? "" : x.label + (xTicks.map { $0.unit.isEmpty ? "" : " (\($0.unit))" } ?? "")
        let yLabel = y.label + (yTicks.unit.isEmpty ? "" : " (\(yTicks.unit))")
        s +=
            """
            <text class=\"axis-label x-label\" x=\"\(Self.f(Self.left + plotWidth / 2))\" \
            y=\"\(Self.f(Self.height - 8))\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>
            """
        s +=
            """
            <text class=\"axis-label y-label\" transform=\"translate(16 \(Self.f(Self.top + plotHeight / 2))) \
            rotate(-90)\" text-anchor=\"middle\">\(Self.escape(yLabel))</text>
            """
        for (i, (name, colour, dash)) in legend.enumerated() {
            let ly = Self.top + 8 + Double(i) * 18
            let lx = Self.left + plotWidth + 12
            s +=
                """
                <g class=\"legend\" data-series=\"\(Self.escape(name))\"><line x1=\"\(Self.f(lx))\" \
                x2=\"\(Self.f(lx + 22))\" y1=\"\(Self.f(ly))\" y2=\"\(Self.f(ly))\" stroke=\"\(colour)\" \
                stroke-width=\"3\" stroke-dasharray=\"\(dash)\"/>
                """
            s += "<text x=\"\(Self.f(lx + 28))\" y=\"\(Self.f(ly + 4))\">\(Self.escape(name))</text></g>"
        }
        return s + "</svg>"
    }

    private func xySVG() -> String {
        let all = lines + stack
        let xs = all.flatMap { $0.points.map(\.x) } + marks.map(\.x)
        var ys = lines.flatMap { $0.points.map(\.y) } + references.map(\.y)
        ys += lines.flatMap { $0.band?.flatMap { [$0.low, $0.high] } ?? [] }
        // A stack's top is the sum of its layers.
        if let first = stack.first {
            for i in first.points.indices {
                ys.append(stack.reduce(0) { $0 + (i < $1.points.count ? $1.points[i].y : 0) })
            }
        }
        let (x0, x1) = Self.range(x, xs)
        let (y0, y1) = Self.range(y, ys)
        let xScale = Scale(low: x0, high: x1, log: x.log, start: Self.left, length: plotWidth, flipped: false)
        let yScale = Scale(low: y0, high: y1, log: y.log, start: Self.top, length: plotHeight, flipped: true)
        var body = ""
        // Stacked layers, bottom first, each a polygon between its base and its top.
        if let first = stack.first {
            var base = [Double](repeating: 0, count: first.points.count)
            for layer in stack {
                var top = base
                for i in top.indices where i < layer.points.count { top[i] += layer.points[i].y }
                var path = ""
                for i in top.indices {
                    let x = Self.f(xScale.position(first.points[i].x))
                    path += "\(i == 0 ? "M" : "L")\(x),\(Self.f(yScale.position(top[i])))"
                }
                for i in base.indices.reversed() {
                    path += "L\(Self.f(xScale.position(first.points[i].x))),\(Self.f(yScale.position(base[i])))"
                }
                body +=
                    """
                    <path class=\"area series\" data-series=\"\(Self.escape(layer.name))\" d=\"\(path)Z\" \
                    fill=\"\(layer.colour)\" fill-opacity=\"0.75\" \
                    stroke=\"none\"><title>\(Self.escape(layer.name))</title></path>
                    """
                base = top
            }
            // One hover per time, on the top of the stack, with every layer's value: the
            // layers' own hovers would multiply the page's size by their number.
            let hovers = stack.last?.hovers
            for i in base.indices {
                let text =
                    hovers?[i]
                    ?? stack.map { "\($0.name): \(Self.describe(i < $0.points.count ? $0.points[i].y : 0, y.unit))" }
                    .joined(separator: ", ")
                body +=
                    """
                    <circle class=\"hover\" cx=\"\(Self.f(xScale.position(first.points[i].x)))\" \
                    cy=\"\(Self.f(yScale.position(base[i])))\" \
                    r=\"3\"><title>\(Self.escape(text))</title></circle>
                    """
            }
        }
        for reference in references {
            let py = yScale.position(reference.y)
            body +=
                """
                <line class=\"reference\" x1=\"\(Self.f(Self.left))\" x2=\"\(Self.f(Self.left + plotWidth))\" \
                y1=\"\(Self.f(py))\" y2=\"\(Self.f(py))\"><title>\(Self.escape(reference.label)): \
                \(Self.describe(reference.y, y.unit))</title></line>
                """
            body +=
                """
                <text class=\"reference-label\" x=\"\(Self.f(Self.left + plotWidth - 4))\" y=\"\(Self.f(py - 4))\" \
                text-anchor=\"end\">\(Self.escape(reference.label))</text>
                """
        }
        for mark in marks {
            let px = xScale.position(mark.x)
            body +=
                """
                <line class=\"mark\" x1=\"\(Self.f(px))\" x2=\"\(Self.f(px))\" y1=\"\(Self.f(Self.top))\" \
                y2=\"\(Self.f(Self.top + plotHeight))\" \
                stroke=\"\(mark.colour)\"><title>\(Self.escape(mark.text))</title></line>
                """
        }
        for line in lines {
            if let band = line.band, band.count == line.points.count, !band.isEmpty {
                var path = ""
                // A point without bounds spreads the band to the plot's edges.
                for i in band.indices {
                    let x = Self.f(xScale.position(line.points[i].x))
                    let high = band[i].high.isFinite ? band[i].high : y1
                    path += "\(i == 0 ? "M" : "L")\(x),\(Self.f(yScale.position(high)))"
                }
                for i in band.indices.reversed() {
                    let low = band[i].low.isFinite ? band[i].low : y0
                    path += "L\(Self.f(xScale.position(line.points[i].x))),\(Self.f(yScale.position(low)))"
                }
                body +=
                    """
                    <path class=\"band\" d=\"\(path)Z\" fill=\"\(line.colour)\" fill-opacity=\"0.1\" \
                    stroke=\"none\"/>
                    """
            }
            var path = ""
            for (i, p) in line.points.enumerated() {
                let px = Self.f(xScale.position(p.x))
                let py = Self.f(yScale.position(p.y))
                if i == 0 {
                    path += "M\(px),\(py)"
                } else if line.steps {
                    path += "H\(px)V\(py)"
                } else {
                    path += "L\(px),\(py)"
                }
            }
            if line.scatter {
                body += "<g class=\"series\" data-series=\"\(Self.escape(line.name))\">"
                for p in line.points {
                    body +=
                        """
                        <circle cx=\"\(Self.f(xScale.position(p.x)))\" cy=\"\(Self.f(yScale.position(p.y)))\" \
                        r=\"4\" fill=\"\(line.colour)\" fill-opacity=\"0.8\"/>
                        """
                }
            } else {
                body +=
                    """
                    <g class=\"series\" data-series=\"\(Self.escape(line.name))\"><path d=\"\(path)\" fill=\"none\" \
                    stroke=\"\(line.colour)\" stroke-width=\"2\" stroke-dasharray=\"\(line.dash)\"/>
                    """
            }
            for (i, p) in line.points.enumerated() {
                let text =
                    line.hovers?[i] ?? "\(line.name): \(Self.describe(p.x, x.unit)), \(Self.describe(p.y, y.unit))"
                body +=
                    """
                    <circle class=\"hover\" cx=\"\(Self.f(xScale.position(p.x)))\" \
                    cy=\"\(Self.f(yScale.position(p.y)))\" r=\"3\"><title>\(Self.escape(text))</title></circle>
                    """
            }
            body += "</g>"
        }
        let legend = (stack.map { ($0.name, $0.colour, "") } + lines.map { ($0.name, $0.colour, $0.dash) })
        return frame(
            body, xTicks: Self.ticks(x, low: x0, high: x1), xScale: xScale,
            yTicks: Self.ticks(y, low: y0, high: y1), yScale: yScale, legend: legend)
    }

    private func barsSVG() -> String {
        let (y0, y1) = Self.range(y, bars.flatMap { [$0.low, $0.high, $0.value] })
        let yScale = Scale(low: y0, high: y1, log: y.log, start: Self.top, length: plotHeight, flipped: true)
        let slot = plotWidth / Double(bars.count)
        var body = ""
        let zero = yScale.position(max(y0, min(0, y1)))
        for (i, bar) in bars.enumerated() {
            let cx = Self.left + slot * (Double(i) + 0.5)
            let top = yScale.position(bar.value)
            let bounded = bar.low.isFinite && bar.high.isFinite
            let text = "\(bar.name): \(Self.describe(bar.value, y.unit)); \(Self.interval(bar.low, bar.high, y.unit))"
            body +=
                """
                <g class=\"series bar\" data-series=\"\(Self.escape(bar.name))\"><rect \
                x=\"\(Self.f(cx - slot * 0.3))\" y=\"\(Self.f(min(top, zero)))\" \
                width=\"\(Self.f(slot * 0.6))\" height=\"\(Self.f(abs(zero - top)))\" \
                fill=\"\(bar.colour)\" fill-opacity=\"0.8\" stroke=\"#000\" \
                stroke-width=\"\(bar.flagged ? 2.5 : 0.5)\"><title>\(Self.escape(text))</title></rect>
                """
            // No bound: the whisker runs to the plot's edge, dashed (anything is possible).
            let lo = yScale.position(bar.low.isFinite ? bar.low : y0)
            let hi = yScale.position(bar.high.isFinite ? bar.high : y1)
            body +=
                """
                <path class=\"whisker\"\(bounded ? "" : " stroke-dasharray=\"3 3\"") \
                d=\"M\(Self.f(cx)),\(Self.f(lo))V\(Self.f(hi))M\(Self.f(cx - 6)),\(Self.f(lo))H\(Self.f(cx + 6))\
                M\(Self.f(cx - 6)),\(Self.f(hi))H\(Self.f(cx + 6))\" stroke=\"#000\" fill=\"none\"/>
                """
            // Slanted, so long names never run into each other.
            body +=
                "<text class=\"tick\" transform=\"translate(\(Self.f(cx + 4)) \(Self.f(Self.top + plotHeight + 12))) "
                + "rotate(-25)\" text-anchor=\"end\">\(Self.escape(bar.name))\(bar.flagged ? " *" : "")</text></g>"
        }
        return frame(
            body, xTicks: nil, xScale: nil, yTicks: Self.ticks(y, low: y0, high: y1), yScale: yScale, legend: [])
    }

    private func heatSVG(_ heat: (columns: [String], rows: [String], values: [[Double]])) -> String {
        let finite = heat.values.flatMap { $0 }.filter(\.isFinite)
        let low = finite.min() ?? 0
        let high = finite.max() ?? 1
        let w = plotWidth / Double(max(1, heat.columns.count))
        let h = plotHeight / Double(max(1, heat.rows.count))
        var body = ""
        for (r, row) in heat.rows.enumerated() {
            for (c, column) in heat.columns.enumerated() {
                let v = heat.values[r][c]
                // A cell without a value (no such point) is left white.
                let f = !v.isFinite ? 0 : high > low ? (v - low) / (high - low) : 0.5
                // Light (low) to dark (high): readable in grey.
                let shade = v.isFinite ? Int(245 - 200 * f) : 255
                let colour = "rgb(\(shade),\(Int(Double(shade) * 0.92)),\(min(255, shade + 30)))"
                let px = Self.left + Double(c) * w
                let py = Self.top + Double(heat.rows.count - 1 - r) * h
                let title = Self.escape("\(x.label) \(column), \(y.label) \(row): \(Self.describe(v, .plain))")
                let ink = f > 0.5 ? "#fff" : "#000"
                body += """
                    <rect class="cell" x="\(Self.f(px))" y="\(Self.f(py))" width="\(Self.f(w))" height="\(Self.f(h))" \
                    fill="\(colour)"><title>\(title)</title></rect>\
                    <text class="cell-label" x="\(Self.f(px + w / 2))" y="\(Self.f(py + h / 2 + 4))" \
                    text-anchor="middle" fill="\(ink)">\(Self.escape(Units.number(v)))</text>
                    """
            }
        }
        // The legend: the colour scale from the lowest value to the highest, in five steps.
        let lx = Self.left + plotWidth + 24
        let steps = 5
        body +=
            """
            <g class=\"heat-legend\"><text class=\"tick\" x=\"\(Self.f(lx))\" \
            y=\"\(Self.f(Self.top - 6))\">value</text>
            """
        for i in 0..<steps {
            let f = Double(steps - 1 - i) / Double(steps - 1)
            let shade = Int(245 - 200 * f)
            let colour = "rgb(\(shade),\(Int(Double(shade) * 0.92)),\(min(255, shade + 30)))"
            let y = Self.top + Double(i) * plotHeight / Double(steps)
            body +=
                """
                <rect x=\"\(Self.f(lx))\" y=\"\(Self.f(y))\" width=\"18\" \
                height=\"\(Self.f(plotHeight / Double(steps)))\" fill=\"\(colour)\" stroke=\"#999\" \
                stroke-width=\"0.5\"/>
                """
            body +=
                """
                <text class=\"tick\" x=\"\(Self.f(lx + 24))\" \
                y=\"\(Self.f(y + plotHeight / Double(steps) / 2 + 4))\"\
                >\(Self.escape(Units.number(low + f * (high - low))))</text>
                """
        }
        body += "</g>"
        for (c, column) in heat.columns.enumerated() {
            body +=
                """
                <text class=\"tick\" x=\"\(Self.f(Self.left + (Double(c) + 0.5) * w))\" \
                y=\"\(Self.f(Self.top + plotHeight + 18))\" \
                text-anchor=\"middle\">\(Self.escape(column))</text>
                """
        }
        for (r, row) in heat.rows.enumerated() {
            body +=
                """
                <text class=\"tick\" x=\"\(Self.f(Self.left - 6))\" \
                y=\"\(Self.f(Self.top + (Double(heat.rows.count - 1 - r) + 0.5) * h + 4))\" \
                text-anchor=\"end\">\(Self.escape(row))</text>
                """
        }
        var s =
            """
            <svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \
            \(Int(Self.height))\" role=\"img\" \
            aria-label=\"\(Self.escape(title))\"><title>\(Self.escape(title))</title>
            """
        s += "<text class=\"chart-title\" x=\"\(Self.f(Self.left))\" y=\"20\">\(Self.escape(title))</text>" + body
        s +=
            """
            <text class=\"axis-label x-label\" x=\"\(Self.f(Self.left + plotWidth / 2))\" \
            y=\"\(Self.f(Self.height - 8))\" text-anchor=\"middle\">\(Self.escape(x.label))</text>
            """
        s +=
            """
            <text class=\"axis-label y-label\" transform=\"translate(16 \(Self.f(Self.top + plotHeight / 2))) \
            rotate(-90)\" text-anchor=\"middle\">\(Self.escape(y.label))</text>
            """
        return s + "</svg>"
    }
}
