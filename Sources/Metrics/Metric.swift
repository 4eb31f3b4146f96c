import ODRCore
import Simulation

/// One metric of a run: a column of `summary.csv`, a row of `comparison.csv`, a chart of a
/// report. Every place that shows a metric names it by this enum, never by its column's text.
public enum Metric: String, CaseIterable, Sendable, Hashable {
    case requests, hits, granted, downloads
    case downloadedBytes = "downloaded_bytes"
    case redownloadBytes = "redownload_bytes"
    case purges
    case purgeEpisodes = "purge_episodes"
    case purgedBytes = "purged_bytes"
    case overPurgeBytes = "over_purge_bytes"
    case lowDiskNotifications = "low_disk_notifications"
    case appTerminations = "app_terminations"
    case failedRequests = "failed_requests"
    case failedOutOfSpace = "failed_out_of_space"
    case failedNoNetwork = "failed_no_network"
    case failedCellular = "failed_cellular"
    case failedInUseLimit = "failed_in_use_limit"
    case failedInvalidTag = "failed_invalid_tag"
    case failedAppNotInstalled = "failed_app_not_installed"
    case cancelled
    case conditionalMisses = "conditional_misses"
    case pendingAtEnd = "pending_at_end"
    case installFailures = "install_failures"
    case waitP50 = "wait_p50_s"
    case waitP95 = "wait_p95_s"
    case waitP99 = "wait_p99_s"
    case waitMean = "wait_mean_s"
    case peakUsedBytes = "peak_used_bytes"
    case refusedOtherBytes = "refused_other_bytes"
    // Platform metrics (Background Assets, Play Asset Delivery): columns only where a run is
    // on such a platform, so ODR's files keep their shape.
    case blockedLaunches = "blocked_launches"
    case launchBlockedSeconds = "launch_blocked_s"
    case packUpdates = "pack_updates"
    case updateBytes = "update_bytes"
    case budgetExceededBytes = "budget_exceeded_bytes"
    case budgetExceededSeconds = "budget_exceeded_s"
    // Faults (issue 54): with the platform metrics, and wherever a scenario has faults.
    case downloadFailures = "download_failures"
    case failedDownload = "failed_download"
    // The user's removals (issue 54): an app offloaded, its storage cleared.
    case clearedBytes = "cleared_bytes"

    /// Whether the metric counts what one app did (its requests, its packs' downloads and
    /// purges, its failures, waits and launches), so that `apps.csv` has it; the others are
    /// the device's (purge episodes and over-purge, low-disk warnings, requests pending at the
    /// end, the disk's peak, other data refused).
    public var belongsToApp: Bool {
        switch self {
        case .purgeEpisodes, .overPurgeBytes, .lowDiskNotifications, .pendingAtEnd, .peakUsedBytes, .refusedOtherBytes:
            false
        default: true
        }
    }

    /// Whether an app's values add up to the device's (every per-app metric but the waits,
    /// which are percentiles and means of each app's own).
    public var sumsOverApps: Bool {
        // The budget's peak is the largest app's, not a sum; its seconds add up like a launch's.
        belongsToApp && unit != .seconds && self != .budgetExceededBytes || self == .launchBlockedSeconds
            || self == .budgetExceededSeconds
    }

    /// Counts odr-sim added after baselines of their files were made (download faults, issue
    /// 54): a baseline without their columns was made when none of them could happen, so it
    /// reads them as 0 rather than as a baseline to re-make.
    public static let countedSince: Set<Metric> = [.downloadFailures, .failedDownload, .clearedBytes]

    /// The columns every run has (On-Demand Resources'), in file order.
    public static let classic: [Metric] = allCases.filter { !$0.isPlatformMetric }

    /// Whether the metric's column appears only for runs on Background Assets or Play Asset
    /// Delivery, or with updates or faults (an initial pack blocking a launch is rare under
    /// ODR, whose files keep their shape).
    public var isPlatformMetric: Bool {
        switch self {
        case .blockedLaunches, .launchBlockedSeconds, .packUpdates, .updateBytes, .budgetExceededBytes,
            .budgetExceededSeconds, .downloadFailures, .failedDownload, .clearedBytes:
            true
        default: false
        }
    }

    /// Whether a scenario's files carry the platform metrics: on a platform where the app
    /// evicts, or with pack or app updates or download faults (events or a generator).
    public static func hasPlatformMetrics(_ scenario: Scenario) -> Bool {
        scenario.appPlatforms.contains(where: \.appRemovesPacks) || scenario.platform.appRemovesPacks
            || scenario.generators.contains { $0.kind == "updates" || $0.kind == "faults" }
            || scenario.events.contains {
                switch $0.action {
                case .update, .updateApp, .failDownload, .failDownloads, .stallTransfer, .offload, .clearStorage: true
                default: false
                }
            }
    }

    /// The columns of an experiment: ``classic``, and the platform metrics when it has a run
    /// on a platform whose app owns eviction.
    public static func columns(platformMetrics: Bool) -> [Metric] { platformMetrics ? allCases : classic }

    /// What a value counts.
    public enum Unit: String, Sendable, Hashable {
        case count, bytes, seconds
    }

    /// The column's name in the CSV files.
    public var column: String { rawValue }

    /// The metric's place among the columns (``SummaryRow/values`` is in this order).
    public var position: Int { Self.positions[self]! }
    private static let positions = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })

    public var unit: Unit {
        switch self {
        case .waitP50, .waitP95, .waitP99, .waitMean, .launchBlockedSeconds, .budgetExceededSeconds: .seconds
        case .downloadedBytes, .redownloadBytes, .purgedBytes, .overPurgeBytes, .peakUsedBytes, .refusedOtherBytes,
            .updateBytes, .budgetExceededBytes, .clearedBytes:
            .bytes
        default: .count
        }
    }

    /// Whether less is better (re-downloads, waits); false for what a policy should make
    /// more of (hits, grants) and for what describes the workload (requests).
    public var lowerIsBetter: Bool {
        switch self {
        case .hits, .granted, .requests: false
        default: true
        }
    }

    /// The metric as a chart's title names it ("Re-downloaded bytes").
    public var title: String {
        switch self {
        case .redownloadBytes: "Re-downloaded bytes"
        case .overPurgeBytes: "Over-purge"
        case .failedRequests: "Failed requests"
        case .lowDiskNotifications: "Low-disk warnings"
        case .waitP95: "Wait, 95th percentile"
        case .launchBlockedSeconds: "Time launches were blocked"
        case .blockedLaunches: "Blocked launches"
        case .refusedOtherBytes: "Other data refused"
        default: column.replacingOccurrences(of: "_", with: " ").capitalizedFirst
        }
    }

    /// The metric as a table's column names it ("re-downloaded").
    public var heading: String {
        switch self {
        case .redownloadBytes: "re-downloaded"
        case .downloadedBytes: "downloaded"
        case .overPurgeBytes: "over-purge"
        case .purgedBytes: "purged"
        case .lowDiskNotifications: "low-disk"
        case .failedRequests: "failed"
        case .waitP95: "wait p95"
        case .waitMean: "wait mean"
        case .launchBlockedSeconds: "launch blocked"
        default: column.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// The smallest difference odr-sim tells apart: a microsecond for seconds (the six decimals
    /// every file writes), one for a count or bytes (whole in every run).
    public var resolution: Double { unit == .seconds ? 1e-6 : 1 }

    /// The metric's value for a finished run, from the device's ledger and the run's waits, at
    /// the ``resolution`` the files write it with: what a run holds is what its `summary.csv`
    /// says, and two waits that differ by floating-point noise (5·10⁻¹² s) are the same wait,
    /// never a "significant" difference (issue 51).
    func value(_ l: Ledger, pendingAtEnd: Int, waits: WaitStatistics) -> Double {
        let exact = exactValue(l, pendingAtEnd: pendingAtEnd, waits: waits)
        return unit == .seconds && exact.isFinite ? (exact / resolution).rounded() * resolution : exact
    }

    private func exactValue(_ l: Ledger, pendingAtEnd: Int, waits: WaitStatistics) -> Double {
        switch self {
        case .requests: Double(l.requests)
        case .hits: Double(l.hits)
        case .granted: Double(l.grants)
        case .downloads: Double(l.downloadsFinished)
        case .downloadedBytes: Double(l.downloadedBytes)
        case .redownloadBytes: Double(l.redownloadBytes)
        case .purges: Double(l.purges)
        case .purgeEpisodes: Double(l.purgeEpisodes)
        case .purgedBytes: Double(l.purgedBytes)
        case .overPurgeBytes: Double(l.overPurgeBytes)
        case .lowDiskNotifications: Double(l.lowDiskWarnings)
        case .appTerminations: Double(l.appTerminations)
        case .failedRequests: Double(l.failedRequests)
        case .failedOutOfSpace: Double(l.failures(.outOfSpace))
        case .failedNoNetwork: Double(l.failures(.noNetwork))
        case .failedCellular: Double(l.failures(.cellularNotAllowed))
        case .failedInUseLimit: Double(l.failures(.inUseLimit))
        case .failedInvalidTag: Double(l.failures(.invalidTag))
        case .failedAppNotInstalled: Double(l.failures(.appNotInstalled))
        case .cancelled: Double(l.cancelled)
        case .conditionalMisses: Double(l.conditionalMisses)
        case .pendingAtEnd: Double(pendingAtEnd)
        case .installFailures: Double(l.installFailures)
        case .waitP50: waits.percentile(50)
        case .waitP95: waits.percentile(95)
        case .waitP99: waits.percentile(99)
        case .waitMean: waits.mean
        case .peakUsedBytes: Double(l.peakUsedBytes)
        case .refusedOtherBytes: Double(l.refusedOtherBytes)
        case .blockedLaunches: Double(l.blockedLaunches)
        case .launchBlockedSeconds: l.launchBlockedSeconds
        case .packUpdates: Double(l.updates)
        case .updateBytes: Double(l.updateBytes)
        case .budgetExceededBytes: Double(l.budgetExceededBytes)
        case .budgetExceededSeconds: l.budgetExceededSeconds
        case .downloadFailures: Double(l.downloadFailures)
        case .failedDownload: Double(l.failures(.downloadFailed))
        case .clearedBytes: Double(l.clearedBytes)
        }
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
