/// Where an app is in its life on an ``ODRDevice``, and what moves it.
///
/// Each phase, with the events that move it and the phase they lead to (the table of
/// ``after(_:)``, row by row):
///
/// - `absent`: `install` → installing(launchPending: false).
/// - `installing(launchPending: p)`: `installFailed` → absent; `initialPacksStored` →
///   installed(running: p); `launch` → installing(launchPending: true); `terminate` →
///   installing(launchPending: false); `uninstall` → absent.
/// - `installed(running: false)`: `launch` → installed(running: true); `terminate` →
///   installed(running: false); `uninstall` → absent; `update` → installing(launchPending: false).
/// - `installed(running: true)`: `terminate` → installed(running: false); `uninstall` → absent.
///
/// Any other event does nothing in that phase (``after(_:)`` returns nil), and the public
/// call that asked for it (``ODRDevice/install(_:at:)``, ``ODRDevice/launch(_:at:)``, …)
/// returns false. A launch during the install is remembered and takes effect when the
/// initial-install packs are on the device (ODR-SPEC §2: the app cannot run before). An
/// update installs over a stopped app (the device terminates a running one first) and, like
/// an install, holds launches until its initial-install packs are there.
@usableFromInline
enum AppPhase: Hashable, Sendable, BitwiseCopyable {
    case absent
    case installing(launchPending: Bool)
    case installed(running: Bool)

    /// What happens to an app.
    enum Event {
        /// The user installs it: its initial-install packs start downloading.
        case install
        /// Its initial-install packs could not get their space.
        case installFailed
        /// Its last initial-install pack is on the device.
        case initialPacksStored
        case launch
        case terminate
        /// The app and its packs leave the device.
        case uninstall
        /// A new version of the app installs over the old one.
        case update
    }

    /// The phase after `event`, or nil if `event` does nothing in this phase (the table above).
    func after(_ event: Event) -> AppPhase? {
        switch (self, event) {
        case (.absent, .install): .installing(launchPending: false)
        case (.installing, .installFailed): .absent
        case (.installing(let pending), .initialPacksStored): .installed(running: pending)
        case (.installing, .launch): .installing(launchPending: true)
        case (.installed(running: false), .launch): .installed(running: true)
        case (.installing, .terminate): .installing(launchPending: false)
        case (.installed, .terminate): .installed(running: false)
        case (.installing, .uninstall), (.installed, .uninstall): .absent
        case (.installed(running: false), .update): .installing(launchPending: false)
        default: nil
        }
    }

    /// Installing or installed: its packs belong on the device.
    var isPresent: Bool { self != .absent }
    var isInstalling: Bool { if case .installing = self { true } else { false } }
    var isInstalled: Bool { if case .installed = self { true } else { false } }
    @inlinable var isRunning: Bool {
        if case .installed(running: true) = self { true } else { false }
    }
    var launchPending: Bool { self == .installing(launchPending: true) }
}
