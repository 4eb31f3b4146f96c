// Main metrics that came out the same under every policy in every replication: nothing to
// choose a policy by, said once by `compare`, `run` and their JSON.

/// One line naming the main metrics that came out the same under every policy in every
/// replication (nothing to choose by), with why for low-disk warnings; nil if none did or
/// only one policy ran.
public func identicalMetrics(_ rows: [SummaryRow]) -> String? {
    let same = identicalMetrics(of: rows)
    guard !same.isEmpty else { return nil }
    var line = "identical under every policy in every replication: " + same.map(\.column).joined(separator: ", ")
    if same.contains(.lowDiskNotifications) {
        line +=
            """
             (a low-disk warning is posted only when purging every candidate would not free enough, so the purge \
            order rarely moves it)
            """
    }
    return line
}

/// The main metrics that came out the same under every policy in every replication (none
/// when only one policy ran).
public func identicalMetrics(of rows: [SummaryRow]) -> [Metric] {
    guard Set(rows.map(\.policy)).count > 1 else { return [] }
    let metrics: [Metric] = [.redownloadBytes, .overPurgeBytes, .lowDiskNotifications, .failedRequests, .waitP95]
    let byReplication = Dictionary(grouping: rows, by: \.replication)
    return metrics.filter { metric in
        byReplication.values.allSatisfy { runs in Set(runs.map { $0[metric] }).count == 1 }
    }
}

public func identicalMetricColumns(_ rows: [SummaryRow]) -> [String] { identicalMetrics(of: rows).map(\.column) }
