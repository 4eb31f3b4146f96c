import ODRCore

/// One row of `summary.csv`: the metrics of one run (policy × replication).
public struct SummaryRow: Sendable, Hashable {
    public var policy: String
    public var replication: Int
    public var seed: UInt64
    /// The digest of the scenario file the run came from (``Scenario/sourceDigest``), so that
    /// a baseline made from another scenario is recognised; empty for scenarios built in code.
    public var scenarioHash: String
    /// Metric name → value, in ``SummaryRow/columns`` order (names without policy/replication/seed).
    public var values: [Double]

    /// The metric columns, in file order. Byte and count columns are integers.
    public static let metricColumns: [String] = [
        "requests", "hits", "granted", "downloads", "downloaded_bytes", "redownload_bytes",
        "purges", "purge_episodes", "purged_bytes", "over_purge_bytes", "low_disk_notifications",
        "app_terminations", "failed_requests", "failed_out_of_space", "failed_no_network",
        "failed_cellular", "failed_in_use_limit", "failed_invalid_tag", "failed_app_not_installed",
        "cancelled", "conditional_misses", "pending_at_end", "install_failures", "wait_p50_s", "wait_p95_s", "wait_p99_s", "wait_mean_s", "peak_used_bytes",
        "refused_other_bytes",
    ]

    /// Columns holding seconds (written with six decimals); all others are integers.
    public static let secondsColumns: Set<String> = ["wait_p50_s", "wait_p95_s", "wait_p99_s", "wait_mean_s"]

    public static var header: String {
        CSV.row(["policy", "replication", "seed", "scenario_hash"] + metricColumns)
    }

    public subscript(metric: String) -> Double {
        guard let i = Self.metricColumns.firstIndex(of: metric) else { preconditionFailure("no metric \(metric)") }
        return values[i]
    }

    public var csvLine: String {
        let fields = zip(Self.metricColumns, values).map { name, value in
            Self.secondsColumns.contains(name) ? CSV.seconds(value) : String(Int64(value))
        }
        return CSV.row([policy, String(replication), String(seed), scenarioHash] + fields)
    }

    /// The row for a finished run, from the device's ledger and the collected waits.
    /// `pendingAtEnd`: requests still waiting when the run ended (``ODRDevice/waitingRequests``).
    public init(policy: String, replication: Int, seed: UInt64, scenarioHash: String = "", ledger: Ledger,
                pendingAtEnd: Int = 0, waits: WaitStatistics) {
        self.policy = policy
        self.replication = replication
        self.seed = seed
        self.scenarioHash = scenarioHash
        let l = ledger
        let metrics: [String: Double] = [
            "requests": Double(l.requests), "hits": Double(l.hits), "granted": Double(l.grants),
            "downloads": Double(l.downloadsFinished), "downloaded_bytes": Double(l.downloadedBytes),
            "redownload_bytes": Double(l.redownloadBytes), "purges": Double(l.purges),
            "purge_episodes": Double(l.purgeEpisodes), "purged_bytes": Double(l.purgedBytes),
            "over_purge_bytes": Double(l.overPurgeBytes), "low_disk_notifications": Double(l.lowDiskWarnings),
            "app_terminations": Double(l.appTerminations), "failed_requests": Double(l.failedRequests),
            "failed_out_of_space": Double(l.failures(.outOfSpace)), "failed_no_network": Double(l.failures(.noNetwork)),
            "failed_cellular": Double(l.failures(.cellularNotAllowed)), "failed_in_use_limit": Double(l.failures(.inUseLimit)),
            "failed_invalid_tag": Double(l.failures(.invalidTag)),
            "failed_app_not_installed": Double(l.failures(.appNotInstalled)),
            "cancelled": Double(l.cancelled), "conditional_misses": Double(l.conditionalMisses),
            "pending_at_end": Double(pendingAtEnd), "install_failures": Double(l.installFailures),
            "wait_p50_s": waits.percentile(50), "wait_p95_s": waits.percentile(95), "wait_p99_s": waits.percentile(99),
            "wait_mean_s": waits.mean, "peak_used_bytes": Double(l.peakUsedBytes),
            "refused_other_bytes": Double(l.refusedOtherBytes),
        ]
        values = Self.metricColumns.map { metrics[$0]! }
    }

    public init(policy: String, replication: Int, seed: UInt64, values: [Double], scenarioHash: String = "") {
        self.policy = policy
        self.replication = replication
        self.seed = seed
        self.scenarioHash = scenarioHash
        self.values = values
    }
}
