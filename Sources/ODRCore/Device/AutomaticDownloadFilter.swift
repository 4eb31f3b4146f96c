/// Which automatic downloads an app lets happen: its answer to Background Assets'
/// `BackgroundDownloadHandler.shouldDownload(_:)`, asked for each essential and prefetch pack
/// before the system downloads it (Apple, Background Assets, "shouldDownload(_:)"; PLATFORMS
/// notes). Without a filter every automatic download goes ahead, as Apple's default does.
///
/// A declined pack is not downloaded at install, update or prefetch time; the app's first
/// request for it fetches it, as for any on-demand pack. It is counted as a
/// `download_declined` event.
public struct AutomaticDownloadFilter: Hashable, Sendable {
    /// Decline a pack when fewer than this many bytes would stay free after it downloads
    /// (the other automatic downloads decided with it counted too); nil: no such rule.
    public var minFreeAfter: Int64?
    /// Decline a pack larger than this; nil: no such rule.
    public var maxPackSize: Int64?

    public init(minFreeAfter: Int64? = nil, maxPackSize: Int64? = nil) {
        self.minFreeAfter = minFreeAfter
        self.maxPackSize = maxPackSize
    }

    /// Whether a pack that would fetch `bytes` (of `size` in all) downloads automatically
    /// when `free` bytes are free and `committed` more are promised to downloads decided
    /// before it.
    public func accepts(bytes: Int64, size: Int64, free: Int64, committed: Int64) -> Bool {
        if let maxPackSize, size > maxPackSize { return false }
        if let minFreeAfter, free - committed - bytes < minFreeAfter { return false }
        return true
    }
}
