import ODRCore

/// A scripted event: at `time`, do `action`.
public struct ScenarioEvent: Sendable, Hashable {
    public var time: Double
    public var action: Action

    public init(time: Double, action: Action) {
        self.time = time
        self.action = action
    }

    /// Every verb of the scenario contract.
    public enum Action: Sendable, Hashable {
        case install(AppIndex)
        case launch(AppIndex)
        case terminate(AppIndex)
        case uninstall(AppIndex)
        /// `beginAccessing`.
        case request(AppIndex, tags: RequestTags, key: RequestKey, priority: LoadingPriority, optional: Bool)
        /// Background Assets' `ensureLocalAvailability(of:requireLatestVersion: true)`: a
        /// request that waits for the newest version of an out-of-date pack
        /// (``ODRCore/ODRDevice/beginAccessing(_:tags:priority:optional:requireLatest:at:)``).
        case requestLatest(AppIndex, tags: RequestTags, key: RequestKey, priority: LoadingPriority, optional: Bool)
        /// `conditionallyBeginAccessing`; `key` names the request if granted.
        case requestIfPresent(AppIndex, tags: RequestTags, key: RequestKey?)
        case setPriority(AppIndex, key: RequestKey, LoadingPriority)
        case pause(AppIndex, key: RequestKey)
        case resume(AppIndex, key: RequestKey)
        case cancel(AppIndex, key: RequestKey)
        /// `endAccessing`.
        case end(AppIndex, key: RequestKey)
        /// `setPreservationPriority` for each listed tag.
        case preserve(AppIndex, [TagPreservation])
        /// Other data grows (positive) or shrinks (negative) by this many bytes.
        case disk(Int64)
        /// The link changes: a phase of ``Scenario/network``, or a generated network spell.
        case network(bandwidth: Double, kind: LinkKind)
        /// A new version of the app's pack (its catalog's pack `pack`) is published.
        case update(AppIndex, pack: Int32)
        /// A new version of the app installs over the old one (``ODRCore/ODRDevice/updateApp(_:at:)``).
        case updateApp(AppIndex)
        /// Background Assets: the app's pack is withdrawn, obsolete
        /// (``ODRCore/ODRDevice/retirePack(_:at:)``).
        case retire(AppIndex, pack: Int32)
        /// Background Assets' `checkForUpdates()`, which removes obsolete packs
        /// (``ODRCore/ODRDevice/checkForUpdates(_:at:)``).
        case checkForUpdates(AppIndex)
        /// The downloads under way of the app's `packs` fail (``ODRCore/ODRDevice/failDownload(_:at:)``).
        case failDownload(AppIndex, packs: [Int32])
        /// Every download under way fails: the link dropped them (``ODRCore/ODRDevice/failDownloads(at:)``).
        case failDownloads
        /// The transfers of the app's `packs` (no app: every transfer on the link) stall for
        /// `seconds` (``ODRCore/ODRDevice/setTransferStalled(_:_:at:)``).
        case stallTransfer(AppIndex?, packs: [Int32], seconds: Double)
        /// The user offloads the app (iOS, ``ODRCore/ODRDevice/offload(_:at:)``).
        case offload(AppIndex)
        /// The user clears the app's storage (Android, ``ODRCore/ODRDevice/clearStorage(_:at:)``).
        case clearStorage(AppIndex)
    }
}

/// A preservation priority for one tag.
public struct TagPreservation: Sendable, Hashable {
    public var tag: TagID
    public var priority: Double

    public init(tag: TagID, priority: Double) {
        self.tag = tag
        self.priority = priority
    }
}
