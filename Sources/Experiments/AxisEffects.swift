import Metrics

/// What each axis of a study does to the main metrics under one policy: "used 63GB → 56GB
/// moves re-downloaded bytes at 5 of 7 tag_median values (at 64MB: 1.2 GB → 4.1 GB) under
/// apple", or that it changes nothing beyond the noise. A study's verdict says which policy
/// ranks first; these say what the varied thing itself does, which is often the question
/// ("does the budget matter above 1 GB?").
///
/// An axis is read along each slice of the grid (the other axes held at one combination of
/// their values): a move is a first and last value whose 95 % intervals do not overlap. The
/// example shown is the slice with the largest change; in a study of one axis, "nothing beyond
/// the noise from V on" names the value after which every later value's interval overlaps V's.
/// ``effects(_:axisNames:policy:metrics:)`` gives the same as data (`--format json`).
public enum AxisEffects {
    /// One axis, read under one policy.
    public struct Effect: Sendable {
        public var axis: String
        /// Its first and last values.
        public var from: String, to: String
        public var policy: String
        /// Each metric read at two or more of the axis's values, in the order asked.
        public var metrics: [MetricEffect]
    }

    /// What an axis does to one metric.
    public struct MetricEffect: Sendable {
        public var metric: Metric
        /// The slices (combinations of the other axes) where the first and last values'
        /// intervals are apart, of those where both were measured.
        public var slicesMoved: Int, slices: Int
        /// The slice of the largest move (other axes as name=value), and the means at its
        /// first and last value; nil where nothing moved.
        public var example: [(axis: String, value: String)]?
        public var fromMean: Double?, toMean: Double?
        /// In a study of one axis: the value from which nothing moves beyond the noise.
        public var plateauFrom: String?

        public var moved: Bool { slicesMoved > 0 }
    }

    public static func sentences(
        _ comparisons: [(values: [String], comparison: Comparison)], axisNames: [String], policy: String,
        metrics: [Metric], format: (Double, Metric) -> String
    ) -> [String] {
        effects(comparisons, axisNames: axisNames, policy: policy, metrics: metrics).compactMap {
            $0.sentence(format: format)
        }
    }

    public static func effects(
        _ comparisons: [(values: [String], comparison: Comparison)], axisNames: [String], policy: String,
        metrics: [Metric]
    ) -> [Effect] {
        axisNames.indices.compactMap { a -> Effect? in
            var values: [String] = []
            for c in comparisons where !c.values[a].isEmpty && !values.contains(c.values[a]) {
                values.append(c.values[a])
            }
            guard values.count >= 2 else { return nil }
            // The other axes' combinations, in order of appearance.
            func others(_ v: [String]) -> [String] { v.indices.filter { $0 != a }.map { v[$0] } }
            var slices: [[String]] = []
            for c in comparisons where !c.values[a].isEmpty && !slices.contains(others(c.values)) {
                slices.append(others(c.values))
            }
            func interval(_ metric: Metric, _ value: String, _ slice: [String]) -> Interval? {
                guard let c = comparisons.first(where: { $0.values[a] == value && others($0.values) == slice }),
                    let p = c.comparison.policies.first(where: { $0.policy == policy }),
                    let m = c.comparison.metrics.firstIndex(of: metric), m < p.metrics.count, !p.metrics[m].mean.isNaN
                else { return nil }
                return p.metrics[m]
            }
            // A point whose runs all gave one value has no interval: its mean alone is compared.
            func half(_ x: Interval) -> Double { x.halfWidth.isFinite ? x.halfWidth : 0 }
            func apart(_ x: Interval, _ y: Interval) -> Bool { abs(x.mean - y.mean) > half(x) + half(y) }
            let otherNames = axisNames.indices.filter { $0 != a }.map { axisNames[$0] }
            var effects: [MetricEffect] = []
            for metric in metrics {
                // (slice, first, last) where the axis moves the metric.
                var moves: [(slice: [String], first: Interval, last: Interval)] = []
                var counted = 0
                for slice in slices {
                    guard let first = interval(metric, values[0], slice),
                        let last = interval(metric, values[values.count - 1], slice)
                    else { continue }
                    counted += 1
                    if apart(first, last) { moves.append((slice, first, last)) }
                }
                guard counted > 0 else { continue }
                var effect = MetricEffect(metric: metric, slicesMoved: moves.count, slices: counted)
                if let shown = moves.max(by: { abs($0.last.mean - $0.first.mean) < abs($1.last.mean - $1.first.mean) })
                {
                    effect.example = zip(otherNames, shown.slice).map { ($0, $1) }
                    effect.fromMean = shown.first.mean
                    effect.toMean = shown.last.mean
                    let series = values.compactMap { interval(metric, $0, shown.slice) }
                    if counted == 1, series.count == values.count,
                        let k = (1..<(series.count - 1)).first(where: { k in
                            (k + 1..<series.count).allSatisfy { !apart(series[k], series[$0]) }
                        })
                    {
                        effect.plateauFrom = values[k]
                    }
                }
                effects.append(effect)
            }
            guard !effects.isEmpty else { return nil }
            return Effect(
                axis: axisNames[a], from: values[0], to: values[values.count - 1], policy: policy, metrics: effects)
        }
    }
}

extension AxisEffects.Effect {
    /// The verdict's sentence; nil when no metric was read.
    public func sentence(format: (Double, Metric) -> String) -> String? {
        var moved: [String] = []
        var still: [String] = []
        for effect in metrics {
            guard let from = effect.fromMean, let to = effect.toMean, effect.moved else {
                still.append(effect.metric.heading)
                continue
            }
            var text = "\(effect.metric.heading) \(format(from, effect.metric)) → \(format(to, effect.metric))"
            if effect.slices > 1 {
                let at = (effect.example ?? []).map { "\($0.axis)=\($0.value)" }.joined(separator: ", ")
                text =
                    """
                    \(effect.metric.heading) at \(effect.slicesMoved) of \(effect.slices) slices (at \(at): \
                    \(format(from, effect.metric)) → \(format(to, effect.metric)))
                    """
            } else if let plateau = effect.plateauFrom {
                text += " (nothing beyond the noise from \(plateau) on)"
            }
            moved.append(text)
        }
        let name = "\(axis) \(from) → \(to)"
        guard !moved.isEmpty else {
            return still.isEmpty
                ? nil : "\(name) changes nothing beyond the noise under \(policy) (\(still.joined(separator: ", ")))"
        }
        return "\(name) moves \(moved.joined(separator: "; ")) under \(policy)"
            + (still.isEmpty ? "" : "; \(still.joined(separator: ", ")) within the noise")
    }

    /// As `--format json` gives it: the axis, its first and last values, the policy, and per
    /// metric whether it moved (slices moved of slices), the largest move's slice and means,
    /// and where a single axis stops mattering.
    public var json: String {
        JSONText.object([
            ("axis", JSONText.string(axis)), ("from", JSONText.string(from)), ("to", JSONText.string(to)),
            ("policy", JSONText.string(policy)),
            (
                "metrics",
                JSONText.array(
                    metrics.map { m in
                        JSONText.object([
                            ("metric", JSONText.string(m.metric.rawValue)), ("moved", m.moved ? "true" : "false"),
                            ("slices_moved", String(m.slicesMoved)), ("slices", String(m.slices)),
                            (
                                "at",
                                m.example.map { JSONText.object($0.map { ($0.axis, JSONText.string($0.value)) }) }
                                    ?? "null"
                            ),
                            ("from_mean", m.fromMean.map(JSONText.number) ?? "null"),
                            ("to_mean", m.toMean.map(JSONText.number) ?? "null"),
                            ("plateau_from", m.plateauFrom.map(JSONText.string) ?? "null"),
                        ])
                    })
            ),
        ])
    }
}
