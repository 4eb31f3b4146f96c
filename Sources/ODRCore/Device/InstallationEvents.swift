/// When an initial-install (essential) or prefetch tag downloads without being asked for:
/// at the app's first installation, at its later updates, or both (Background Assets'
/// `installationEventTypes`, `firstInstallation` and `subsequentUpdate`). On-demand tags
/// ignore it. Both by default, which is what ODR does with initial-install and prefetch tags.
public struct InstallationEvents: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The app is installed for the first time (``ODRDevice/install(_:at:)``).
    public static let firstInstallation = InstallationEvents(rawValue: 1)
    /// A new version of the app is installed over the old (``ODRDevice/updateApp(_:at:)``).
    public static let subsequentUpdate = InstallationEvents(rawValue: 2)
    public static let all: InstallationEvents = [.firstInstallation, .subsequentUpdate]

    /// The names scenario files use, Background Assets' and a kebab-case spelling.
    public static let names: [(name: String, event: InstallationEvents)] = [
        ("first-installation", .firstInstallation), ("firstInstallation", .firstInstallation),
        ("subsequent-update", .subsequentUpdate), ("subsequentUpdate", .subsequentUpdate),
    ]
}
