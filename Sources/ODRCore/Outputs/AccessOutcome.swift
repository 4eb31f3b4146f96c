/// What ``ODRDevice/access(_:tag:at:)`` did: a request that began and ended at once.
public enum AccessOutcome: Hashable, Sendable {
    /// Everything was on the device.
    case hit
    /// Something was missing; it was fetched (purging if needed) and delivered at once.
    case miss
    /// The request failed and holds nothing, as
    /// ``ODRDevice/beginAccessing(_:tags:priority:optional:requireLatest:at:)`` would have.
    case failed(RequestError)
}
