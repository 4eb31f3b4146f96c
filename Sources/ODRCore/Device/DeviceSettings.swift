/// What an app does when the device posts a low-disk warning (ODR-SPEC §4).
public enum LowDiskResponse: String, Hashable, Sendable, CaseIterable, BitwiseCopyable {
    /// Keeps every request.
    case ignore
    /// Ends the granted requests that were marked optional.
    case releaseUnused = "release-unused"
    /// Ends every granted request.
    case releaseAll = "release-all"
}

/// What the device does when a request still cannot get its space after the low-disk warning.
public enum SpaceExhaustionAction: String, Hashable, Sendable, CaseIterable {
    /// The request fails with ``RequestError/outOfSpace`` (the default).
    case failRequest = "fail-request"
    /// The requesting app is terminated; its requests end and the request fails.
    case terminateApp = "terminate-app"
}

/// The state of the device's network link, as far as the core needs to know it.
///
/// Bandwidth itself is not the core's business: whoever drives the core measures it and
/// reports the bytes received with ``ODRDevice/receive(_:for:at:)``.
public enum LinkState: String, Hashable, Sendable, CaseIterable {
    case offline, wifi, cellular
}

/// Device-wide behaviour choices where the platform leaves room.
public struct DeviceSettings: Hashable, Sendable {
    /// The size limits in force at run time (in-use limit).
    public var profile: PlatformProfile
    public var onSpaceExhausted: SpaceExhaustionAction
    /// Emit ``ODREvent/Kind/downloadProgressed(_:received:size:)`` on every delivery.
    public var reportsProgress: Bool

    public init(
        profile: PlatformProfile = .unlimited,
        onSpaceExhausted: SpaceExhaustionAction = .failRequest,
        reportsProgress: Bool = false
    ) {
        self.profile = profile
        self.onSpaceExhausted = onSpaceExhausted
        self.reportsProgress = reportsProgress
    }
}
