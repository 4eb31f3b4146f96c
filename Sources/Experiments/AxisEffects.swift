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
public enum AxisEffects {
    public static func sentences(_ comparisons: [(values: [String], comparison: Comparison)], axisNames: [String], policy: String,
                                 metrics: [Metric], format: (Double, Metric) -> String) -> [String] {
        axisNames.indices.compactMap { a -> String? in
            var values: [String] = []
            for c in comparisons where !c.values[a].isEmpty && !values.contains(c.values[a]) { values.append(c.values[a]) }
            guard values.count >= 2 else { return nil }
            // The other axes' combinations, in order of appearance.
            func others(_ v: [String]) -> [String] { v.indices.filter { $0 != a }.map { v[$0] } }
            var slices: [[String]] = []
            for c in comparisons where !c.values[a].isEmpty && !slices.contains(others(c.values)) { slices.append(others(c.values)) }
            func interval(_ metric: Metric, _ value: String, _ slice: [String]) -> Interval? {
                guard let c = comparisons.first(where: { $0.values[a] == value && others($0.values) == slice }),
                      let p = c.comparison.policies.first(where: { $0.policy == policy }),
                      let m = c.comparison.metrics.firstIndex(of: metric), m < p.metrics.count, !p.metrics[m].mean.isNaN else { return nil }
                return p.metrics[m]
            }
            func apart(_ x: Interval, _ y: Interval) -> Bool { abs(x.mean - y.mean) > (x.halfWidth.isNaN ? 0 : x.halfWidth) + (y.halfWidth.isNaN ? 0 : y.halfWidth) }
            let otherNames = axisNames.indices.filter { $0 != a }.map { axisNames[$0] }
            var moved: [String] = [], still: [String] = []
            for metric in metrics {
                // (slice, first, last) where the axis moves the metric.
                var moves: [(slice: [String], first: Interval, last: Interval)] = []
                var counted = 0
                for slice in slices {
                    guard let first = interval(metric, values[0], slice), let last = interval(metric, values[values.count - 1], slice) else { continue }
                    counted += 1
                    if apart(first, last) { moves.append((slice, first, last)) }
                }
                guard counted > 0 else { continue }
                guard let shown = moves.max(by: { abs($0.last.mean - $0.first.mean) < abs($1.last.mean - $1.first.mean) }) else {
                    still.append(metric.heading)
                    continue
                }
                var text = "\(metric.heading) \(format(shown.first.mean, metric)) → \(format(shown.last.mean, metric))"
                if counted > 1 {
                    let at = zip(otherNames, shown.slice).map { "\($0)=\($1)" }.joined(separator: ", ")
                    text = "\(metric.heading) at \(moves.count) of \(counted) slices (at \(at): \(format(shown.first.mean, metric)) → \(format(shown.last.mean, metric)))"
                } else {
                    let series = values.compactMap { interval(metric, $0, shown.slice) }
                    if series.count == values.count,
                       let k = (1..<(series.count - 1)).first(where: { k in (k + 1..<series.count).allSatisfy { !apart(series[k], series[$0]) } }) {
                        text += " (nothing beyond the noise from \(values[k]) on)"
                    }
                }
                moved.append(text)
            }
            let axis = "\(axisNames[a]) \(values[0]) → \(values[values.count - 1])"
            guard !moved.isEmpty else { return still.isEmpty ? nil : "\(axis) changes nothing beyond the noise under \(policy) (\(still.joined(separator: ", ")))" }
            return "\(axis) moves \(moved.joined(separator: "; ")) under \(policy)" + (still.isEmpty ? "" : "; \(still.joined(separator: ", ")) within the noise")
        }
    }
}
