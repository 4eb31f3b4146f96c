/// Who chooses which of a device's packs go: the system's purge policy, and the own
/// strategy of each app whose code removes its packs and runs one of its own (Background
/// Assets, Play Asset Delivery: `apps[].strategy`).
///
/// Every notification about a pack goes to the policy of the pack's app, so each policy
/// hears only of the packs it may be asked to choose among. A demand for one app's space (a
/// ``PurgeView`` whose scope is `.app`: its budget, a full disk) asks that app's policy. A
/// purge by the system (a tier's scope: ODR's demands, other data growing) asks the system's
/// policy first, then each app's own in the order the apps were added, until enough is
/// freed: each chooses only among the packs it has been told of.
///
/// On a device where no app has a strategy of its own (every ODR scenario, every trace
/// replay) the table is empty, and the device's policy is called as it always was.
struct PolicyTable {
    /// By ``AppID``: the app's own strategy, or nil where its packs are the system policy's.
    private var own: [(any PurgePolicy)?] = []
    /// Whether any app has a strategy of its own. Performance: routing reads the per-app
    /// table only then (the system's policy is the device's `let`, called with no retain).
    private(set) var routes = false

    /// Registers the next app's own strategy (nil: it follows the system's policy); apps are
    /// added in ``AppID`` order.
    mutating func add(_ strategy: (any PurgePolicy)?) {
        own.append(strategy)
        if strategy != nil { routes = true }
    }

    /// The app's own strategy; nil where the system's policy chooses for it.
    @inline(__always)
    func strategy(of app: AppID) -> (any PurgePolicy)? { routes ? own[app.index] : nil }

    /// Victims for `view`: its app's policy for an app's demand; for the system's, `system`
    /// first, then each app's own strategy among the packs it knows, until `bytes` are freed.
    func selectVictims(toFree bytes: Int64, from view: PurgeView, system: any PurgePolicy) -> [PackID] {
        if case .app(let app) = view.scope {
            return (strategy(of: app) ?? system).selectVictims(toFree: bytes, from: view)
        }
        var victims = system.selectVictims(toFree: bytes, from: view)
        var chosen = Set(victims)
        var freed = victims.reduce(Int64(0)) { $0 + view.info($1).size }
        for case let strategy? in own where freed < bytes {
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
