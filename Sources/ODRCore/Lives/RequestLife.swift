/// Where a request is in its life on an ``ODRDevice``, and what moves it.
///
/// | life ↓ event → | `begin` | `pause` | `resume` | `grant` | `end` | `cancel` |
/// |---|---|---|---|---|---|---|
/// | `free` | waiting(paused: false) | — | — | — | — | — |
/// | `waiting(paused: false)` | — | waiting(paused: true) | — | granted | — | free |
/// | `waiting(paused: true)` | — | — | waiting(paused: false) | granted | — | free |
/// | `granted` | — | — | — | — | free | — |
///
/// "—": the event does nothing in that life (``after(_:)`` returns nil); the public call that
/// asked for it (``ODRDevice/pause(_:at:)``, ``ODRDevice/cancel(_:at:)``, …) returns false.
/// `free` is a record slot with no request in it (the slot is reused, under a new generation
/// of ``RequestID``). A hit is `begin` then `grant` at one instant; `cancel` also ends a
/// request that failed before its downloads started. ``ODRDevice``'s request steps,
/// `allocate`, `grant`, `setPaused` and `release`, are the only writers of a request's life.
enum RequestLife: Hashable, BitwiseCopyable {
    case free
    case waiting(paused: Bool)
    case granted

    /// What happens to a request.
    enum Event: Hashable {
        /// `beginAccessingResources`.
        case begin
        case pause
        case resume
        /// Every pack it includes is on the device.
        case grant
        /// `endAccessingResources` of a granted request, or its app's end.
        case end
        /// Ended while waiting, or failed before its downloads started.
        case cancel
    }

    /// The life after `event`, or nil if `event` does nothing in this life (the table above).
    func after(_ event: Event) -> RequestLife? {
        switch (self, event) {
        case (.free, .begin): .waiting(paused: false)
        case (.waiting(paused: false), .pause): .waiting(paused: true)
        case (.waiting(paused: true), .resume): .waiting(paused: false)
        case (.waiting, .grant): .granted
        case (.granted, .end): .free
        case (.waiting, .cancel): .free
        default: nil
        }
    }

    /// Begun and not yet ended: waiting or granted.
    var isLive: Bool { self != .free }
    var isGranted: Bool { self == .granted }
    var isPaused: Bool { self == .waiting(paused: true) }
}

extension ODRDevice {
    /// Moves the request in `slot` on `event` (``RequestLife``); false if the event does
    /// nothing in its life. The one writer of a request's life.
    @discardableResult
    func move(request slot: Int, _ event: RequestLife.Event) -> Bool {
        guard let next = state.requests[slot].life.after(event) else { return false }
        state.requests[slot].life = next
        return true
    }
}
