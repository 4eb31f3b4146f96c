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
/// replay) the table is the system's policy alone, and routing reads nothing more.
struct PolicyTable {
    /// The policy the system purges under (ODR's order, Android's cache clearing), and the
    /// strategy of every app that evicts without one of its own.
    let system: any PurgePolicy
    /// By ``AppID``: the app's own strategy, or nil where its packs are ``system``'s business.
    private var own: [(any PurgePolicy)?] = []
    /// Whether any app has a strategy of its own. Performance: routing reads the per-app
    /// table only then.
    private(set) var routes = false

    init(system: any PurgePolicy) { self.system = system }

    /// Registers the next app's own strategy (nil: it follows ``system``); apps are added in
    /// ``AppID`` order.
    mutating func add(_ strategy: (any PurgePolicy)?) {
        own.append(strategy)
        if strategy != nil { routes = true }
    }

    /// The policy that hears of, and chooses among, the packs of `app`.
    @inline(__always)
    func policy(of app: AppID) -> any PurgePolicy {
        guard routes, let strategy = own[app.index] else { return system }
        return strategy
    }

    /// Victims for `view`: its app's policy for an app's demand; for the system's, ``system``
    /// first, then each app's own strategy among the packs it knows, until `bytes` are freed.
    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        if case .app(let app) = view.scope { return policy(of: app).selectVictims(toFree: bytes, from: view) }
        var victims = system.selectVictims(toFree: bytes, from: view)
        guard routes else { return victims }
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

    /// The name a wrong answer for `view` is blamed on.
    func name(for view: PurgeView) -> String {
        if case .app(let app) = view.scope { return policy(of: app).name }
        return system.name
    }
}
