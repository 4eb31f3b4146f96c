/// Whose packs one step of making room chooses from, and so who removes them.
///
/// ```swift
/// .tier(.appsNotRunning)   // the system purges (ODR): the packs of apps not running, first
/// .app(game)               // the app's own code removes its packs (Background Assets, Play)
/// ```
public enum PurgeScope: Hashable, Sendable {
    /// The system purges the purgeable packs of every app in the tier (ODR-SPEC §3: apps not
    /// running before the running ones).
    case tier(PurgeTier)
    /// The app's own code removes packs: only the packs it may remove are candidates (its
    /// own, stored, neither held nor awaited, and not an initial pack its platform keeps until
    /// uninstall).
    case app(AppID)
}
