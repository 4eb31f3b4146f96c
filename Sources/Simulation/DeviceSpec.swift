import ODRCore

/// The disk of the simulated device.
public struct DeviceSpec: Sendable, Hashable {
    public var capacity: Int64
    /// Bytes of everything that is not ODR content at time 0.
    public var used: Int64
    public var onSpaceExhausted: SpaceExhaustionAction

    public init(capacity: Int64, used: Int64, onSpaceExhausted: SpaceExhaustionAction = .failRequest) {
        self.capacity = capacity
        self.used = used
        self.onSpaceExhausted = onSpaceExhausted
    }
}
