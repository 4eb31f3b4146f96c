/// Internal per-request record of an ``ODRDevice``; slots are reused. Plain data: the packs
/// of a multi-pack request live beside it, in the device's `requestPackArrays`.
struct RequestRecord: BitwiseCopyable {
    var generation: UInt32 = 0
    /// Written only by ``ODRDevice/move(request:_:)`` (``RequestLife``).
    var life = RequestLife.free
    var app = AppID(rawValue: 0)
    /// The request's only pack, or ``PackID/none`` when it has several (or none).
    var single = PackID.none
    var priority = LoadingPriority.normal
    var optional = false
    var begunAt: Double = 0
    var missing: Int32 = 0

    var live: Bool { life.isLive }
    var granted: Bool { life.isGranted }
    var paused: Bool { life.isPaused }
}
