import ODRCore

/// Each app's own eviction strategy, where the app removes its packs (Background Assets,
/// Play Asset Delivery): the packs of an app listed in `strategies` are the business of that
/// app's policy alone; every other app's are the run's policy's (`fallback`).
///
/// Every notification about a pack goes to the policy of the pack's app, and a demand for
/// one app's space (a ``PurgeView`` whose `app` is set: a budget, a full disk) to that app's
/// policy, which sees only its own app's packs. A demand with no app (the system removing
/// packs for other data, ``ODRCore/PlatformProfile/systemRemovesForOtherData``) asks the
/// run's policy first, then each app's own, until enough is freed: each chooses only among
/// the packs it has been told of.
public final class AppStrategies: PurgePolicy {
    /// The run's policy's name: summary rows keep it.
    public var name: String { fallback.name }
    let fallback: any PurgePolicy
    /// By `AppID.rawValue`; nil where the app follows the run's policy.
    let strategies: [(any PurgePolicy)?]

    public init(fallback: any PurgePolicy, strategies: [AppID: any PurgePolicy]) {
        self.fallback = fallback
        let count = (strategies.keys.map { Int($0.rawValue) }.max() ?? -1) + 1
        var table = [(any PurgePolicy)?](repeating: nil, count: count)
        for (app, policy) in strategies { table[Int(app.rawValue)] = policy }
        self.strategies = table
    }

    func policy(of app: AppID) -> any PurgePolicy {
        let i = Int(app.rawValue)
        return i < strategies.count ? strategies[i] ?? fallback : fallback
    }

    public func packStored(_ pack: PurgeCandidate) { policy(of: pack.app).packStored(pack) }
    public func packRequested(_ pack: PurgeCandidate) { policy(of: pack.app).packRequested(pack) }
    public func packReleased(_ pack: PurgeCandidate) { policy(of: pack.app).packReleased(pack) }
    public func packRemoved(_ pack: PurgeCandidate) { policy(of: pack.app).packRemoved(pack) }
    public func packPreservationChanged(_ pack: PurgeCandidate) { policy(of: pack.app).packPreservationChanged(pack) }

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        if case .app(let app) = view.scope { return policy(of: app).selectVictims(toFree: bytes, from: view) }
        var victims = fallback.selectVictims(toFree: bytes, from: view)
        var chosen = Set(victims)
        var freed = victims.reduce(Int64(0)) { $0 + view.info($1).size }
        for case let strategy? in strategies where freed < bytes {
            // A policy that picks from the view's candidates may name a pack already chosen.
            for victim in strategy.selectVictims(toFree: bytes - freed, from: view) where chosen.insert(victim).inserted
            {
                victims.append(victim)
                freed += view.info(victim).size
            }
        }
        return victims
    }
}
