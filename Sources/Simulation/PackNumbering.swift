import ODRCore

/// The device-wide ``PackID`` of every app's packs, from the scenario's catalogs alone: an
/// ``ODRDevice`` numbers the packs of the apps it is given consecutively, in the order they
/// are added, and the kernel adds the scenario's apps in their order. So what a pack will be
/// called on the device is known without making one (Belady's future needs it before the run).
public struct PackNumbering: Sendable {
    /// Each app's first pack, by ``AppIndex``.
    private let firstPack: [Int32]

    public init(_ scenario: Scenario) {
        var first: [Int32] = []
        var next: Int32 = 0
        for app in scenario.apps {
            first.append(next)
            next += Int32(app.catalog.packs.count)
        }
        firstPack = first
    }

    /// The device's ID of pack `local` of app `app`'s catalog.
    public func pack(_ local: Int32, of app: AppIndex) -> PackID {
        PackID(rawValue: firstPack[app] + local)
    }
}
