import ODRCore

/// The disk of the simulated device.
public struct DeviceSpec: Sendable, Hashable {
    public var capacity: Int64
    /// Bytes of everything that is not ODR content at time 0.
    public var used: Int64
    public var onSpaceExhausted: SpaceExhaustionAction
    /// The user's "download over Wi-Fi only" setting, where the platform holds downloads for
    /// the user on cellular (Play): every download waits for Wi-Fi, whatever its size, and no
    /// confirmation comes.
    ///
    /// Source: the Play Store's "App download preference: Over Wi-Fi only"; a pack download
    /// then reports `WAITING_FOR_WIFI` (developer.android.com, Play Asset Delivery, "Large
    /// downloads").
    public var wifiOnly = false

    public init(
        capacity: Int64, used: Int64, onSpaceExhausted: SpaceExhaustionAction = .failRequest, wifiOnly: Bool = false
    ) {
        self.capacity = capacity
        self.used = used
        self.onSpaceExhausted = onSpaceExhausted
        self.wifiOnly = wifiOnly
    }
}
