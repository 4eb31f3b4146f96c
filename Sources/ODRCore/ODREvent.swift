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

    /// Why an app stopped running.
    public enum TerminationCause: String, Hashable, Sendable {
        /// The app quit or the user closed it.
        case user
        /// The device terminated it for want of space.
        case outOfSpace = "out-of-space"
    }

    public enum Kind: Hashable, Sendable {
        case appInstalled(AppID)
        case installFailed(AppID, RequestError)
        case appLaunched(AppID)
        case appTerminated(AppID, TerminationCause)
        case appUninstalled(AppID, removedBytes: Int64)
        /// A request was granted; `waited` is zero for a hit.
        case requestGranted(RequestID, AppID, waited: Double, hit: Bool)
        case requestEnded(RequestID, AppID, EndCause)
        /// `request` is `nil` when the failure happened before an ID was given out.
        case requestFailed(RequestID?, AppID, RequestError)
        case requestCancelled(RequestID, AppID)
        case requestPaused(RequestID, AppID)
        case requestResumed(RequestID, AppID)
        /// A conditional request found something missing and was not granted.
        case conditionalMiss(AppID)
        /// `bytes` is what remains to fetch; `redownload` when the pack was purged before.
        case downloadStarted(PackID, AppID, bytes: Int64, redownload: Bool)
        case downloadProgressed(PackID, received: Int64, size: Int64)
        /// The download cannot progress (offline, or cellular not allowed for its app).
        case downloadStalled(PackID, AppID)
        case downloadContinued(PackID, AppID)
        case downloadFinished(PackID, AppID, bytes: Int64)
        /// No one waits for the download any more; the bytes so far stay on disk.
        case downloadAbandoned(PackID, AppID, keptBytes: Int64)
        case prefetchSkipped(PackID, AppID, RequestError)
        case packPurged(PackID, AppID, bytes: Int64, episode: Int)
        /// One space demand answered by purging: over-purge is `purged - needed`.
        case purgeEpisode(episode: Int, needed: Int64, purged: Int64)
        /// The device could not free `needed` bytes and asked apps to release content.
        case lowDiskWarning(needed: Int64)
        /// Other data on the disk changed by `applied`; `refused` bytes did not fit at all.
        case otherDataChanged(applied: Int64, refused: Int64)
    }
}
