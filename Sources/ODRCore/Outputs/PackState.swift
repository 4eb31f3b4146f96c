/// The six states a tag's pack is seen in (Xcode's disk gauge, ODR-SPEC §2).
public enum PackState: Hashable, Sendable {
    /// Never downloaded on this device in this run.
    case notDownloaded
    /// A download stopped part-way (paused, offline, cancelled); its bytes stay on disk.
    case partiallyDownloaded(bytes: Int64)
    /// A download is making progress.
    case downloading(bytes: Int64)
    /// On the device and held by no request.
    case downloaded
    /// On the device and held by `retainCount` requests.
    case inUse(retainCount: Int)
    /// Was on the device and has been purged; must be downloaded again before use.
    case purged
}

/// One running or stalled download, as the network model needs to see it.
public struct DownloadStatus: Hashable, Sendable {
    public let pack: PackID
    public let app: AppID
    public let size: Int64
    /// Bytes on disk so far.
    public let received: Int64
    /// The highest priority among the requests waiting for it (0.5 for install and prefetch).
    public let priority: LoadingPriority
    /// False while offline, on cellular for an app that may not use it, or paused by every waiter.
    public let isRunnable: Bool

    public var remaining: Int64 { size - received }
}

/// How far a request has come: bytes of its packs on the device against their total.
public struct RequestProgress: Hashable, Sendable {
    public let completedBytes: Int64
    public let totalBytes: Int64

    /// 0…1, and 1 for a request of empty packs.
    public var fractionCompleted: Double {
        totalBytes == 0 ? 1 : Double(completedBytes) / Double(totalBytes)
    }
}

/// What ``ODRDevice/beginAccessing(_:tags:priority:optional:requireLatest:at:)`` did.
public enum RequestOutcome: Hashable, Sendable {
    /// Everything was on the device: access is granted now.
    case granted(RequestID)
    /// Downloads are under way; a ``ODREvent/Kind/requestGranted(_:_:waited:hit:)`` event follows
    /// (already emitted if the missing packs had no bytes left to fetch: a miss granted at once).
    case waiting(RequestID)
    case failed(RequestError)

    /// The request's ID unless it failed.
    public var request: RequestID? {
        switch self {
        case .granted(let id), .waiting(let id): id
        case .failed: nil
        }
    }
}
