import ODRCore

/// Android's cache clearing (installd's `freeCache`), applied to asset packs: the app
/// furthest over its cache quota gives up its oldest pack, then the ranking is redone.
///
/// "Furthest over" is Android's measure, the ratio of an app's cache bytes to its quota:
/// an app at 3× its quota is cleared before one at 2×, whatever the absolute sizes, and apps
/// under quota are cleared too if the space is still needed. An app's cache bytes are all its
/// packs on the device, held ones included (they take space even though they cannot go).
/// An app's quota is its `cache_quota` option, else the policy's `default_quota`, else the
/// one AOSP computes from the free space and the apps' foreground time (``AOSPCacheQuotas``:
/// 64 MiB for an app that has not run). Options come from ``PolicyContext/options``; a
/// scenario gives them in `policy_options` or an app's `cache_quota`. Within an app, the
/// pack written longest ago goes first: Android deletes "older files first, as reported by
/// File.lastModified()" (`StorageManager.getCacheQuotaBytes`; AOSP frameworks/native,
/// `cmds/installd/CacheItem.cpp` sorts by `st_mtime`), and reading a file does not change its
/// modification time, so a pack's time is when it was stored, not when it was last used.
/// Ties between apps: the app whose next victim is older, then the lower app ID.
///
/// It models Android's *cache* clearing: Play Asset Delivery's packs live in the app's
/// `files/assetpacks`, which installd never clears (see the docs' platform notes).
///
/// Cost: O(1) per notification (one list per app, in storing order); a purge costs O(apps)
/// per victim plus the held packs it steps over, and O(apps log apps) when quotas are
/// recomputed.
public final class AndroidQuotaPolicy: DescribedPolicy {
    private let options: PolicyOptions
    /// One list per app, oldest stored first; list index = app raw value.
    private let lists = PackLinks(lists: 0)
    private let usage = PolicyState<[Int64]>([])
    /// Per app, its fixed quota (`cache_quota`, `default_quota`), looked up by its name when
    /// its first pack arrives; 0: none, AOSP's computed quota applies.
    private let fixed = PolicyState<[Int64]>([])
    private var computed = AOSPCacheQuotas()
    private let size = Column<Int64>(initial: 0)
    private let lastTick = Column<UInt64>(initial: 0)
    private var tick: UInt64 = 0

    /// The quota of an app without a computed one. Source: AOSP `StorageStatsService.DEFAULT_QUOTA`
    /// (64 MiB); the ODR spec assumes the same.
    public static let defaultQuota: Int64 = 64 << 20

    public init(options: PolicyOptions = PolicyOptions()) {
        self.options = options
    }

    public static let descriptor = PolicyDescriptor(
        name: "android-quota",
        summary:
            """
            Android cache clearing: app furthest over its quota (AOSP's, from free space and foreground time) first, \
            its oldest-written pack first
            """,
        options: [
            PolicyOption(
                "default_quota", .size,
                summary: "a fixed quota for every app without its own (default: AOSP's computed quotas)",
                check: positive),
            PolicyOption("cache_quota", .size, scope: .app, summary: "the app's cache quota", check: positive),
        ]
    ) { context in AndroidQuotaPolicy(options: context.options) }

    private static func positive(_ bytes: Double) -> String? { bytes > 0 ? nil : "must be more than 0 bytes" }

    /// The fixed quota of the app named `name` (its `cache_quota`, else `default_quota`);
    /// nil: AOSP computes it.
    public func fixedQuotaOfApp(named name: String) -> Int64? {
        (options.value("cache_quota", app: name) ?? options.value("default_quota")).map { Swift.max(Int64($0), 1) }
    }

    /// The quota of the app with raw value `a` now.
    private func quota(of a: Int) -> Int64 {
        fixed.value[a] > 0 ? fixed.value[a] : computed.quota(of: a) ?? Self.defaultQuota
    }

    private func touch(_ p: PackID, app: Int) {
        tick += 1
        lastTick[p] = tick
        lists.pushBack(p, list: app)
    }

    /// Its release does nothing.
    public var ignoresReleaseAfterUse: Bool { true }

    public func packStored(_ pack: PurgeCandidate) {
        let a = Int(pack.app.rawValue)
        size.cover(pack)
        lastTick.cover(pack)
        if a >= usage.value.count {
            usage.value.append(contentsOf: repeatElement(0, count: a + 1 - usage.value.count))
            fixed.value.append(contentsOf: repeatElement(-1, count: a + 1 - fixed.value.count))
        }
        if fixed.value[a] < 0 { fixed.value[a] = fixedQuotaOfApp(named: pack.appName) ?? 0 }
        lists.ensureList(a)
        if !lists.contains(pack.pack) { usage.value[a] += pack.size }
        size[pack.pack] = pack.size
        touch(pack.pack, app: a)
    }

    // Reading or releasing a pack leaves its files' modification time as it was.
    public func packRequested(_ pack: PurgeCandidate) {}

    public func packReleased(_ pack: PurgeCandidate) {}

    public func packRemoved(_ pack: PurgeCandidate) {
        let p = pack.pack
        guard let a = lists.list(of: p) else { return }
        lists.remove(p)
        usage.value[a] -= size[p]
    }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        func candidate(from start: PackID?) -> PackID? {
            var cursor = start
            while let p = cursor {
                if view.isCandidate(p) { return p }
                cursor = lists.after(p)
            }
            return nil
        }
        computed.refresh(view)
        let apps = lists.listCount
        let quotas = (0..<apps).map(quota(of:))
        var used = usage.value
        var next = (0..<apps).map { candidate(from: lists.first($0)) }
        var victims: [PackID] = []
        var freed: Int64 = 0
        while freed < bytes {
            var best: (app: Int, ratio: Double, tick: UInt64)?
            for a in 0..<apps {
                guard let p = next[a] else { continue }
                let ratio = Double(used[a]) / Double(quotas[a])
                let t = lastTick[p]
                if let b = best, ratio < b.ratio || (ratio == b.ratio && t >= b.tick) { continue }
                best = (a, ratio, t)
            }
            guard let a = best?.app, let p = next[a] else { break }
            victims.append(p)
            freed += size[p]
            used[a] -= size[p]
            next[a] = candidate(from: lists.after(p))
        }
        return victims
    }
}
