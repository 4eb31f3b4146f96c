import ODRCore
import ODRPolicies
import Simulation

extension Assumption {
    /// Every modelling choice odr-sim makes where no source decides it, in the order
    /// `odr-sim assumptions` prints them.
    public static let all: [Assumption] = [
        systemRemovesForOtherData, appEvictsWhenFull, systemPurgesBeforeAppEvicts, cellularConfirmationDelay,
        largeDownloadThreshold, userConfirmationUpdate, playUpdatePatch, failedDownloadBytes, downloadFailureRetry,
        unpackSpace,
        spaceExhausted, androidCacheQuota,
        androidQuotaTiming,
        downloadReservation, bandwidthSharing, outdatedVersions, obsoleteFetch,
    ]

    /// Play: "larger than 200MB", in which unit, of which size.
    public static let largeDownloadThreshold = Assumption(
        name: "large-download-threshold",
        key: "platform: {cellular_confirmation_over: …}",
        defaultValue: "200MB",
        why:
            """
            the threshold is Play's ("Asset packs larger than 200MB can download automatically, but only on Wi-Fi"); \
            undocumented: whether MB is 10^6 or 2^20 bytes, and whether the pack's download or installed size is \
            compared; chosen: the pack's size against 200,000,000 bytes, as Play writes sizes in decimal units
            """,
        covers: ["PlatformProfile.cellularConfirmationBytes"],
        alternatives: [
            Alternative("200MiB") { point in
                point.scenario.modifyPlatforms {
                    if $0.cellularConfirmationBytes == 200_000_000 { $0.cellularConfirmationBytes = 200 << 20 }
                }
            }
        ],
        appliesTo: { point, _ in point.scenario.appPlatforms.contains { $0.cellularConfirmationBytes == 200_000_000 } })

    /// Play: what accepting REQUIRES_USER_CONFIRMATION does besides letting the downloads go.
    public static let userConfirmationUpdate = Assumption(
        name: "user-confirmation-update",
        key: "apps[].installed_by_play",
        defaultValue: "the waiting downloads start",
        why:
            """
            Play documents that accepting REQUIRES_USER_CONFIRMATION for an app not installed through Play installs \
            it from Play (showConfirmationDialog); that install, an app update, is not modelled: accepting only lets \
            the waiting downloads start
            """,
        covers: ["AppSpec.installedByPlay"],
        appliesTo: { point, _ in point.scenario.apps.contains { !$0.installedByPlay } })

    /// Play: how many bytes an app update's patch of a downloaded pack downloads.
    public static let playUpdatePatch = Assumption(
        name: "play-update-patch",
        key: "platform: {update_patch: …}",
        defaultValue: "100%",
        why:
            """
            Play documents that an app update downloads a patch for the previously downloaded asset packs, which \
            are invalid until it is applied (developer.android.com, Play Asset Delivery, "Update asset packs"), \
            and that the patch is a delta; undocumented: its size. Chosen: the pack's full size (the most a patch \
            can be, so waits and bytes are not understated); the patch takes the place of the bytes it replaces
            """,
        covers: ["PlatformProfile.updatePatchShare"],
        alternatives: [
            Alternative("25%") { point in
                point.scenario.modifyPlatforms { if $0.updatePatchShare == 1 { $0.updatePatchShare = 0.25 } }
            }
        ],
        appliesTo: { point, _ in
            point.scenario.appPlatforms.contains { $0.updatePatchShare == 1 }
                && point.scenario.events.contains { event in
                    if case .updateApp = event.action { return true }
                    return false
                }
        })

    /// Every platform: what becomes of the bytes a failed download fetched.
    public static let failedDownloadBytes = Assumption(
        name: "failed-download-bytes",
        key: "(none)",
        defaultValue: "kept: the next download resumes",
        why:
            """
            no platform documents whether a failed asset-pack download resumes from the bytes it fetched (an HTTP \
            range request) or starts again; chosen: the bytes stay on the device as a partial pack (purged first \
            while nobody waits for it) and the next download fetches the rest
            """,
        covers: ["PlatformProfile.resumesFailedDownloads"],
        alternatives: [
            Alternative("discarded") { point in point.scenario.modifyPlatforms { $0.resumesFailedDownloads = false } }
        ],
        appliesTo: { point, _ in hasFaults(point.scenario) })

    /// Every platform: the space a download needs beside the pack while it is extracted.
    public static let unpackSpace = Assumption(
        name: "unpack-space",
        key: "platform: {unpack_space: …}",
        defaultValue: "0 (extracted as it arrives)",
        why:
            """
            no platform documents whether a pack's compressed download is held beside the extracted pack until \
            extraction ends, nor their ratio (Background Assets packs are uploaded as archives; Play's and ODR's \
            delivery formats are not documented for this); chosen: no extra space. The alternative holds a \
            download as large as the pack beside it until it completes (content that does not compress)
            """,
        covers: ["PlatformProfile.unpackShare"],
        alternatives: [
            Alternative("100%") { point in
                point.scenario.modifyPlatforms { if $0.unpackShare == 0 { $0.unpackShare = 1 } }
            }
        ],
        appliesTo: { point, _ in point.scenario.appPlatforms.contains { $0.unpackShare == 0 } })

    /// Every platform: whether the system retries a failed download before the app hears of it.
    public static let downloadFailureRetry = Assumption(
        name: "download-failure-retry",
        key: "(none)",
        defaultValue: "no retry: the waiting requests fail at once",
        why:
            """
            each platform documents that the app gets the failure (NSBundleResourceRequest's completion handler, \
            Play's FAILED status with its error code, Background Assets' thrown error) and leaves retrying to the \
            app; undocumented whether the system first retries on its own: chosen that it does not (the app's retry \
            is a later request in the scenario)
            """,
        covers: ["ODRDevice.failDownload"],
        appliesTo: { point, _ in hasFaults(point.scenario) })

    /// Whether a scenario has download faults (events or a generator).
    static func hasFaults(_ scenario: Scenario) -> Bool {
        scenario.generators.contains { $0.kind == "faults" }
            || scenario.events.contains { event in
                switch event.action {
                case .failDownload, .failDownloads: return true
                default: return false
                }
            }
    }

    /// Android's cache quotas: when they are computed.
    public static let androidQuotaTiming = Assumption(
        name: "android-quota-timing",
        key: "(none)",
        defaultValue: "at the first purge, checked at every purge",
        why:
            """
            AOSP computes the quotas at boot and checks the free space every 30 s (StorageStatsService); \
            undocumented how that maps onto a run whose policy is asked only when space is needed: chosen to \
            compute them at the first purge, from the free space then, and to check at every purge
            """,
        covers: ["AOSPCacheQuotas.refresh"],
        appliesTo: { _, policies in policies.contains { $0.name == AndroidQuotaPolicy.descriptor.name } })

    /// Background Assets: does the system remove managed packs when other data would not fit?
    public static let systemRemovesForOtherData = Assumption(
        name: "system-removes-for-other-data",
        key: "platform: {system_removes_for_other_data: …}",
        defaultValue: "false",
        why:
            """
            undocumented for Background Assets: no Apple source says the system removes managed asset packs for \
            other data \
            (it documents removing obsolete packs, AssetPackManager.checkForUpdates()); `true` is the older rule \
            for unmanaged \
            downloads (\"may remove them under critical circumstances\"). On Play it is documented: packs are app \
            files, never cleared
            """,
        covers: ["PlatformProfile.systemRemovesForOtherData"],
        alternatives: [
            Alternative("true") { point in
                point.scenario.modifyPlatforms {
                    if $0.evictor == .app && $0.initialPacksRemovable { $0.systemRemovesForOtherData = true }
                }
            }
        ],
        appliesTo: { point, _ in
            point.scenario.appPlatforms.contains {
                $0.evictor == .app && $0.initialPacksRemovable && !$0.systemRemovesForOtherData
            }
        })

    /// Background Assets and Play: what the app's code does when a download finds the disk full.
    public static let appEvictsWhenFull = Assumption(
        name: "app-evicts-when-full",
        key: "platform: {app_evicts_when_full: …}",
        defaultValue: "true",
        why: """
            undocumented: neither platform says what the app sees when a download finds the disk full (Play reports \
            INSUFFICIENT_STORAGE); chosen because an app that handles the failure frees its own unused packs and \
            retries
            """,
        covers: ["PlatformProfile.appEvictsWhenFull"],
        alternatives: [
            Alternative("false") { point in point.scenario.modifyPlatforms { $0.appEvictsWhenFull = false } }
        ],
        appliesTo: { point, _ in point.scenario.appPlatforms.contains { $0.evictor == .app && $0.appEvictsWhenFull } })

    /// A phone mixing platforms: who makes room first for an evicting app's download.
    public static let systemPurgesBeforeAppEvicts = Assumption(
        name: "system-purges-before-app-evicts",
        key: "apps[].platform: {system_purges_before_app_evicts: …}",
        defaultValue: "true",
        why:
            """
            undocumented: no source says in which order iOS frees ODR apps' purgeable content and a Background \
            Assets app \
            removes its own packs when its download finds the disk full; chosen as iOS's purgeable-space rule (the \
            system \
            frees purgeable content for any write before the writer sees a full disk)
            """,
        covers: ["PlatformProfile.systemPurgesBeforeAppEvicts"],
        alternatives: [
            Alternative("false") { point in
                point.scenario.modifyPlatforms { if $0.appRemovesPacks { $0.systemPurgesBeforeAppEvicts = false } }
            }
        ],
        appliesTo: { point, _ in
            point.scenario.someAppEvicts && point.scenario.systemPurges && point.scenario.mixesPlatforms
                && point.scenario.appPlatforms.contains { $0.appRemovesPacks && $0.systemPurgesBeforeAppEvicts }
        })

    /// Play: how long the user takes to confirm a large download on cellular.
    public static let cellularConfirmationDelay = Assumption(
        name: "cellular-confirmation-delay",
        key: "apps[].cellular_confirmation",
        defaultValue: "1m",
        why:
            """
            undocumented: Play shows a confirmation dialog (showConfirmationDialog, for WAITING_FOR_WIFI and, for an \
            app \
            not installed through Play, REQUIRES_USER_CONFIRMATION) but nothing says when users answer; \
            chosen because the user answers the next time they look at the app
            """,
        covers: ["AppSpec.defaultCellularConfirmationDelay"],
        alternatives: [
            Alternative("10s") { Self.setConfirmationDelay(&$0, 10) },
            Alternative("10m") { Self.setConfirmationDelay(&$0, 600) },
            Alternative("never") { Self.setConfirmationDelay(&$0, nil) },
        ],
        appliesTo: { point, _ in
            point.scenario.appPlatforms.contains { $0.cellularConfirmationBytes != nil }
                && point.scenario.apps.contains {
                    $0.cellularConfirmationDelay == AppSpec.defaultCellularConfirmationDelay
                }
        })

    /// Every platform: what happens when a request's space cannot be freed.
    public static let spaceExhausted = Assumption(
        name: "space-exhausted",
        key: "device: {on_space_exhausted: …}",
        defaultValue: SpaceExhaustionAction.failRequest.rawValue,
        why:
            """
            undocumented as a rule: Apple says only that the app \"may be terminated\" when space cannot be freed \
            after the \
            low-disk warning; chosen because failing the request is the milder reading
            """,
        covers: ["DeviceSpec.onSpaceExhausted"],
        alternatives: [
            Alternative(SpaceExhaustionAction.terminateApp.rawValue) {
                $0.scenario.device.onSpaceExhausted = .terminateApp
            }
        ],
        appliesTo: { point, _ in point.scenario.device.onSpaceExhausted == .failRequest })

    /// `android-quota`: an app's cache quota where the scenario gives none.
    public static let androidCacheQuota = Assumption(
        name: "android-cache-quota",
        key: "policy_options: {android-quota: {default_quota: …}}",
        defaultValue: "AOSP's computed quotas",
        why: """
            the formula is AOSP's (CacheQuotaServiceImpl: 15 % of free space shared by foreground-time rank; \
            StorageStatsService: 64 MiB without foreground time, recomputed on 5 % / 2 % free-space moves and \
            every 10 h); \
            undocumented: chosen to count foreground time as the time the scenario's apps ran (the phone's other \
            apps are \
            unknown) and to make Android's 30-second free-space check at each purge
            """,
        covers: ["AndroidQuotaPolicy.defaultQuota"],
        alternatives: [
            Alternative("64MiB fixed") { Self.setDefaultQuota(&$0, Double(64 << 20)) },
            Alternative("256MiB fixed") { Self.setDefaultQuota(&$0, Double(256 << 20)) },
        ],
        appliesTo: { point, policies in
            policies.contains { $0.name == AndroidQuotaPolicy.descriptor.name }
                && point.policyOptions[AndroidQuotaPolicy.descriptor.name]?.value("default_quota") == nil
        })

    /// Every platform: when a download takes its disk space.
    public static let downloadReservation = Assumption(
        name: "download-reservation",
        key: "(none)",
        defaultValue: "the full pack when the download starts",
        why:
            """
            undocumented (ODR spec §6, a decision): chosen because a download that holds its space never fails \
            midway \
            for want of it; no alternative is modelled
            """,
        covers: [])

    /// Every platform: how downloads share the link.
    public static let bandwidthSharing = Assumption(
        name: "bandwidth-sharing",
        key: "(none)",
        defaultValue: "equally among apps, by loading priority within an app; an urgent download takes the whole link",
        why: """
            undocumented (ODR spec §6, a decision): chosen because loading priority is the only knob apps have; \
            no alternative is modelled
            """,
        covers: [])

    /// Background Assets: when an out-of-date pack's new version is fetched.
    public static let outdatedVersions = Assumption(
        name: "outdated-versions",
        key: "(none)",
        defaultValue: "by a request with latest: true, or at the pack's next update; one version kept",
        why: """
            undocumented: Apple says an out-of-date pack's update may not download at once and that \
            ensureLocalAvailability(of:requireLatestVersion:) can wait for it, but gives no schedule of retries; \
            chosen as \
            the least the documentation implies (a latest-version request for a pack another request holds gets \
            the old \
            version, since odr-sim keeps one version of a pack); no alternative is modelled
            """,
        covers: [])

    /// Background Assets: whether an obsolete pack that was never on the device can be fetched.
    public static let obsoleteFetch = Assumption(
        name: "obsolete-fetch",
        key: "(none)",
        defaultValue: "never: a request that would fetch it fails invalid-tag",
        why:
            """
            documented for a removed obsolete pack (\"can't be redownloaded once removed\", \
            AssetPackManager.checkForUpdates()); \
            undocumented for one never downloaded: chosen the same, since it is no longer in the app's set; \
            no alternative is modelled
            """,
        covers: [])

    private static func setConfirmationDelay(_ point: inout ExperimentPlan.Point, _ delay: Double?) {
        for a in point.scenario.apps.indices
        where point.scenario.apps[a].cellularConfirmationDelay == AppSpec.defaultCellularConfirmationDelay {
            point.scenario.apps[a].cellularConfirmationDelay = delay
        }
    }

    private static func setDefaultQuota(_ point: inout ExperimentPlan.Point, _ bytes: Double) {
        point.policyOptions[AndroidQuotaPolicy.descriptor.name, default: PolicyOptions()].values["default_quota"] =
            bytes
    }
}
