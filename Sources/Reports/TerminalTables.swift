import Foundation
import Metrics

// The tables `run` and `compare` print on the terminal, from the same rows as the CSV files.

/// The main metrics per policy (means over replications when there are several); with
/// `platformMetrics`, the seconds launches were blocked and the bytes of pack updates too.
/// Under a focus on one app (`focus`), the rows are the app's and the columns only the device
/// has say so (`over-purge (device)`).
public func summaryTable(_ rows: [SummaryRow], replicated: Bool, platformMetrics: Bool = false, focus: String? = nil)
    -> String
{
    let device = focus == nil ? "" : " (device)"
    var table = Table(
        [
            "policy", "requests", "hits", "downloaded", "re-downloaded", "purged", "over-purge" + device,
            "low-disk" + device, "failed", "wait p95",
        ] + (platformMetrics ? ["launch blocked", "updates"] : []))
    let comparison = Comparison(rows: rows, platformMetrics: platformMetrics)
    let waits = secondsColumn(comparison.policies.map { $0.metrics[Metric.waitP95.position].mean })
    for (k, p) in comparison.policies.enumerated() {
        func v(_ metric: Metric) -> Double { p.metrics[metric.position].mean }
        func count(_ metric: Metric) -> String {
            replicated ? String(format: "%.1f", v(metric)) : String(Int64(v(metric)))
        }
        // An app's rows have no over-purge or low-disk warnings (the device's): "—".
        var cells = [
            p.policy, count(.requests), count(.hits), humanBytes(v(.downloadedBytes)),
            humanBytes(v(.redownloadBytes)), humanBytes(v(.purgedBytes)),
            v(.overPurgeBytes).isNaN ? "—" : humanBytes(v(.overPurgeBytes)),
            v(.lowDiskNotifications).isNaN ? "—" : count(.lowDiskNotifications), count(.failedRequests), waits[k],
        ]
        if platformMetrics {
            cells += [String(format: "%.1f s", v(.launchBlockedSeconds)), humanBytes(v(.updateBytes))]
        }
        table.add(cells)
    }
    return table.rendered
}

/// Policies best to worst by mean re-download bytes (ties: over-purge, then name); where the
/// comparison has the platform metrics, blocked launches and the seconds they waited too.
/// Under a focus on one app (`focus`), the columns only the device has say so.
public func rankedTable(_ comparison: Comparison, focus: String? = nil) -> String {
    let device = focus == nil ? "" : " (device)"
    let platform = comparison.metrics.contains(.launchBlockedSeconds)
    let redownload = Metric.redownloadBytes.position
    let overPurge = Metric.overPurgeBytes.position
    // An app's comparison has no over-purge or low-disk warnings (the device's): NaN, shown "—".
    func orZero(_ x: Double) -> Double { x.isNaN ? 0 : x }
    let ranked = comparison.policies.sorted {
        ($0.metrics[redownload].mean, orZero($0.metrics[overPurge].mean), $0.policy)
            < ($1.metrics[redownload].mean, orZero($1.metrics[overPurge].mean), $1.policy)
    }
    var table = Table(
        [
            "rank", "policy", "re-downloaded (95% CI)", "vs \(comparison.reference)", "over-purge" + device,
            "low-disk" + device, "failed", "wait p95",
        ] + (platform ? ["blocked launches", "launch blocked"] : []))
    let waits = secondsColumn(ranked.map { $0.metrics[Metric.waitP95.position].mean })
    for (rank, p) in ranked.enumerated() {
        let r = p.metrics[redownload]
        // Bytes are never negative: the interval is shown clipped at 0, not as mean ± half-width.
        let diff =
            p.differences.map { d in
                let x = d[redownload]
                return x.isBounded
                    ? "\(signedBytes(x.mean)) ±\(humanBytes(x.halfWidth))" : "\(signedBytes(x.mean)) in all \(x.count)"
            } ?? "—"
        // The same bytes in every replication: no interval, and it says so.
        let interval =
            r.isBounded ? "(\(humanBytes(r.nonNegativeLow))–\(humanBytes(r.high)))" : "(the same in all \(r.count))"
        table.add(
            [
                "\(rank + 1)", p.policy, "\(humanBytes(r.mean)) \(interval)",
                diff,
                p.metrics[overPurge].mean.isNaN ? "—" : humanBytes(p.metrics[overPurge].mean),
                p.metrics[Metric.lowDiskNotifications.position].mean.isNaN
                    ? "—" : String(format: "%.1f", p.metrics[Metric.lowDiskNotifications.position].mean),
                String(format: "%.1f", p.metrics[Metric.failedRequests.position].mean),
                waits[rank],
            ]
                + (platform
                    ? [
                        String(format: "%.1f", p.metrics[Metric.blockedLaunches.position].mean),
                        String(format: "%.1f s", p.metrics[Metric.launchBlockedSeconds.position].mean),
                    ] : []))
    }
    return table.rendered
}

private func signedBytes(_ x: Double) -> String { x >= 0 ? "+" + humanBytes(x) : "-" + humanBytes(-x) }
