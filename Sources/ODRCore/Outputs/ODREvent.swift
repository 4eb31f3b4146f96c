/// Something that happened inside an ``ODRDevice``, stamped with the time it was given.
///
/// The core appends events to ``ODRDevice/events``; whoever drives it reads and clears them
/// to build metrics and traces, so the core itself keeps no report of its own.
public struct ODREvent: Hashable, Sendable {
    public let time: Double
    public let kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// Why a granted request stopped holding its tags.
    public enum EndCause: String, Hashable, Sendable {
        /// The app ended access.
        case app
        /// The app released it in answer to a low-disk warning.
        case lowDisk = "low-disk"
        /// The app stopped running or was removed.
        case appGone = "app-gone"
    }

    /// Why a download under way makes no progress.
    public enum StallCause: String, Hashable, Sendable {
        /// The device is offline.
        case offline
        /// On cellular, for an app that may not use it.
        case cellularNotAllowed = "cellular-not-allowed"
        /// Every request waiting for it is paused.
        case paused
        /// An urgent download elsewhere has the link to itself (ODR-SPEC §3).
        case suspendedByUrgent = "suspended-by-urgent"
        /// On cellular, a download too large to start without the user's confirmation
        /// (Play's `WAITING_FOR_WIFI`): it waits for Wi-Fi or ``ODRDevice/confirmCellular(_:at:)``.
        case waitingForWifi = "waiting-for-wifi"
        /// The app was not installed through Google Play, and its downloads wait for the
        /// user's consent (Play's `REQUIRES_USER_CONFIRMATION`) on any link.
        case requiresUserConfirmation = "requires-user-confirmation"
        /// The transfer itself makes no progress (a slow or silent server, a stalled link:
        /// ``ODRDevice/setTransferStalled(_:_:at:)``).
        case transferStalled = "transfer-stalled"
    }

    /// Why an app stopped running.
    public enum TerminationCause: String, Hashable, Sendable {
        /// The app quit or the user closed it.
        case user
        /// The device terminated it for want of space.
        case outOfSpace = "out-of-space"
    }

    public enum Kind: Hashable, Sendable {
        /// An app began a request (counted in ``Ledger/requests``), before the outcome:
        /// `conditional` for `conditionallyBeginAccessing`. Its ID, if it gets one, comes with
        /// the outcome's event.
        case requestMade(AppID, conditional: Bool)
        case appInstalled(AppID)
        /// A new version of the app began installing over the old one.
        case appUpdated(AppID)
        case installFailed(AppID, RequestError)
        case appLaunched(AppID)
        case appTerminated(AppID, TerminationCause)
        case appUninstalled(AppID, removedBytes: Int64)
        /// The user offloaded the app (iOS): removed with its packs' `removedBytes`, which a
        /// reinstall fetches again (``ODRDevice/offload(_:at:)``).
        case appOffloaded(AppID, removedBytes: Int64)
        /// The user cleared the app's storage (Android): its asset packs' `removedBytes` went
        /// (``ODRDevice/clearStorage(_:at:)``).
        case storageCleared(AppID, removedBytes: Int64)
        /// A request was granted; `waited` is zero for a hit.
        case requestGranted(RequestID, AppID, waited: Double, hit: Bool)
        case requestEnded(RequestID, AppID, EndCause)
        /// `request` is `nil` when the failure happened before an ID was given out.
        case requestFailed(RequestID?, AppID, RequestError)
        case requestCancelled(RequestID, AppID)
        case requestPaused(RequestID, AppID)
        case requestResumed(RequestID, AppID)
        /// A waiting or granted request's loading priority changed.
        case priorityChanged(RequestID, AppID, LoadingPriority)
        /// The app set a tag's preservation priority.
        case preservationChanged(AppID, TagID, Double)
        /// A conditional request found something missing and was not granted.
        case conditionalMiss(AppID)
        /// A download began: `request` is the request that needed it (nil for an install's
        /// or a prefetch's), `bytes` what it will fetch (the pack's size minus the bytes of an
        /// earlier partial download), `redownload` when the pack was purged before.
        case downloadStarted(PackID, AppID, request: RequestID?, bytes: Int64, redownload: Bool)
        case downloadProgressed(PackID, received: Int64, size: Int64)
        /// The download cannot progress, for `cause`.
        case downloadStalled(PackID, AppID, StallCause)
        case downloadContinued(PackID, AppID)
        /// The pack is complete; `bytes` is what this download fetched (its start's `bytes`).
        case downloadFinished(PackID, AppID, bytes: Int64)
        /// No one waits for the download any more: it stops after fetching `bytes`, and the
        /// pack's `keptBytes` (from this and earlier downloads) stay on disk.
        case downloadAbandoned(PackID, AppID, bytes: Int64, keptBytes: Int64)
        /// The download failed after fetching `bytes`; the pack's `keptBytes` stay on disk for
        /// the next download to resume from (``PlatformProfile/resumesFailedDownloads``).
        case downloadFailed(PackID, AppID, bytes: Int64, keptBytes: Int64)
        /// Emitted by ``ODRDevice/recordOutstanding(at:)``: a download still under way,
        /// having fetched `bytes` so far.
        case downloadOutstanding(PackID, AppID, bytes: Int64)
        /// Emitted by ``ODRDevice/recordOutstanding(at:)``: a request still waiting.
        case requestOutstanding(RequestID, AppID)
        case prefetchSkipped(PackID, AppID, RequestError)
        /// The app declined an automatic (essential or prefetch) download of the pack: its
        /// ``AutomaticDownloadFilter`` (Background Assets' `shouldDownload(_:)`) said no. A
        /// request fetches it later.
        case downloadDeclined(PackID, AppID)
        case packPurged(PackID, AppID, bytes: Int64, episode: Int)
        /// A new version of the pack was published and the device's old one (`removedBytes`)
        /// removed; its next download, counted in ``Ledger/updateBytes``, is the new version.
        case packUpdated(PackID, AppID, removedBytes: Int64)
        /// A new version of the pack was published and the device keeps the old one, out of
        /// date (``ODRDevice/UpdateOutcome/outdated``).
        case packOutdated(PackID, AppID)
        /// The app's update check removed the obsolete pack's `bytes`
        /// (``ODRDevice/checkForUpdates(_:at:)``).
        case packObsoleteRemoved(PackID, AppID, bytes: Int64)
        /// One space demand answered by purging: over-purge is `purged - needed`.
        case purgeEpisode(episode: Int, needed: Int64, purged: Int64)
        /// The device could not free `needed` bytes and asked apps to release content.
        case lowDiskWarning(needed: Int64)
        /// Other data on the disk was to change by `requested` bytes and changed by `applied`:
        /// growth that did not fit is refused (``Ledger/refusedOtherBytes``), and a shrink
        /// stops at zero other data.
        case otherDataChanged(requested: Int64, applied: Int64)
    }
}
