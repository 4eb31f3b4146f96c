import Foundation
import ODRCore

/// Android's cache quotas as AOSP computes them, for ``AndroidQuotaPolicy``.
///
/// Source: AOSP, `CacheQuotaServiceImpl` (ExtServices: the shares) and `StorageStatsService`
/// (frameworks/base: when quotas are recomputed, and the default):
/// - 15 % of the usable free space is reserved for caches (`CACHE_RESERVE_RATIO`);
/// - the apps with foreground time are ranked by it, most first, and the app at position
///   p (0, 1, …) gets the fair share max(0.01, 1/ln(p+3) − 0.285), normalised over the ranked
///   apps: its quota is round(share × reserve);
/// - an app without foreground time gets no computed quota and has the default, 64 MiB
///   (`DEFAULT_QUOTA`); a computed quota of 0 bytes is not applied (the one before stays);
/// - quotas are recomputed when the free space has moved by more than 5 % of the volume
///   since the last such recomputation (2 % while at most 20 % of it is free:
///   `MINIMUM_CHANGE_DELTA_PERCENT_HIGH/LOW`, `StorageManager.DEFAULT_STORAGE_THRESHOLD_PERCENT_HIGH`),
///   and every 10 hours (`DELAY_RECALCULATE_QUOTAS`).
///
/// Two choices are odr-sim's (the `android-cache-quota` assumption): foreground time is the
/// time the scenario's apps ran (the phone's other apps are unknown), and Android's check of
/// the free space every 30 seconds is made at each purge instead, when the quotas are read.
/// Apps with equal foreground time rank in app order (AOSP's order among them is a hash
/// map's).
struct AOSPCacheQuotas {
    /// Source: `CacheQuotaServiceImpl.CACHE_RESERVE_RATIO`.
    static let reserveRatio = 0.15
    /// Source: `StorageStatsService.DELAY_RECALCULATE_QUOTAS`, 10 hours.
    static let recomputeInterval: Double = 36_000

    /// Per app (index = app raw value), its computed quota; 0: none.
    private(set) var quotas: [Int64] = []
    private var freeAtLastChange: Int64 = 0
    private var computedAt: Double?

    /// The fair share of the app at `position` in the foreground-time ranking, before
    /// normalising (`CacheQuotaServiceImpl.getFairShareForPosition`).
    static func fairShare(position: Int) -> Double {
        Swift.max(0.01, 1 / log(Double(position + 3)) - 0.285)
    }

    /// Java's `Math.round`: half up.
    private static func round(_ x: Double) -> Int64 { Int64((x + 0.5).rounded(.down)) }

    /// The quotas AOSP computes for apps with these foreground times when `free` bytes are
    /// free: 0 for an app without foreground time.
    static func compute(foreground: [Double], free: Int64) -> [Int64] {
        let ranked = foreground.indices.filter { foreground[$0] > 0 }
            .sorted { foreground[$0] != foreground[$1] ? foreground[$0] > foreground[$1] : $0 < $1 }
        let sum = ranked.indices.reduce(0.0) { $0 + fairShare(position: $1) }
        let reserved = round(Double(Swift.max(free, 0)) * reserveRatio)
        var quotas = [Int64](repeating: 0, count: foreground.count)
        for (position, app) in ranked.enumerated() {
            quotas[app] = round(fairShare(position: position) / sum * Double(reserved))
        }
        return quotas
    }

    /// Recomputes the quotas if Android would have by the time of this purge step.
    mutating func refresh(_ view: PurgeView) {
        let free = Swift.max(view.freeBytes, 0)
        let total = view.capacity
        var due = computedAt == nil
        if let at = computedAt, view.time - at >= Self.recomputeInterval { due = true }
        let percent: Int64 = free > total * 20 / 100 ? 5 : 2
        if computedAt == nil || abs(free - freeAtLastChange) > total * percent / 100 {
            freeAtLastChange = free
            due = true
        }
        guard due else { return }
        computedAt = view.time
        let foreground = (0..<view.appCount).map { i -> Double in
            let app = AppID(rawValue: Int32(i))
            return view.isPresent(app) ? view.foregroundSeconds(of: app) : 0
        }
        let fresh = Self.compute(foreground: foreground, free: free)
        if quotas.count < fresh.count { quotas.append(contentsOf: repeatElement(0, count: fresh.count - quotas.count)) }
        for (app, quota) in fresh.enumerated() where quota > 0 { quotas[app] = quota }
    }

    /// The computed quota of the app with raw value `app`; nil if it has none.
    func quota(of app: Int) -> Int64? {
        app < quotas.count && quotas[app] > 0 ? quotas[app] : nil
    }
}
