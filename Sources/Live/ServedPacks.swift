import Simulation

/// The packs a server serves: every pack of every app of a scenario, by app ID and pack
/// name, with its size (the same size in every version).
public struct ServedPacks: Sendable {
    private var sizes: [String: [String: Int64]] = [:]
    /// Every pack, as (app, pack) in the scenario's order.
    public private(set) var all: [(app: String, pack: String)] = []

    public init(_ scenario: Scenario) {
        for app in scenario.apps {
            for pack in app.catalog.packs {
                if sizes[app.id, default: [:]].updateValue(pack.size, forKey: pack.name) == nil {
                    all.append((app.id, pack.name))
                }
            }
        }
    }

    /// The size of `pack` of `app`; nil if the scenario has no such pack.
    public func size(app: String, pack: String) -> Int64? { sizes[app]?[pack] }

    /// The content of `version` of `pack` of `app`; nil if the scenario has no such pack.
    public func content(app: String, pack: String, version: Int) -> PackContent? {
        size(app: app, pack: pack).map { PackContent(app: app, pack: pack, version: version, size: $0) }
    }
}
