import ODRCore

/// The purge policies of one run, made by the caller (the kernel knows policies only by the
/// names a scenario gives them): the one the system purges under, and the own strategy of
/// each app whose code runs one (`apps[].strategy`, or the run's policy on a device whose
/// system purges under `system_policy`).
///
/// The kernel hands each app's strategy to the device with the app's budget and kept tags
/// (``ODRCore/EvictionRules``), where the device routes the app's packs to it; an app
/// without one follows ``system``.
public struct RunPolicies {
    /// The policy the system purges under (and every app's, where none has its own).
    public var system: any PurgePolicy
    /// By ``AppIndex`` of the scenario; nil where the app follows ``system``.
    public var strategies: [AppIndex: any PurgePolicy]

    public init(system: any PurgePolicy, strategies: [AppIndex: any PurgePolicy] = [:]) {
        self.system = system
        self.strategies = strategies
    }

    /// The policies of a run of `scenario` under the run's policy `run`, each made by `make`
    /// from its name. The system purges under the scenario's `system_policy` where it names
    /// one, else under `run`; an app with a strategy of its own (`apps[].strategy`) runs it,
    /// and where the system's order is fixed every other app that evicts runs `run` (the
    /// run's policy is then the evicting apps' strategy).
    public init(for scenario: Scenario, run: String, make: (String) -> any PurgePolicy) {
        var strategies: [AppIndex: any PurgePolicy] = [:]
        for (index, app) in scenario.apps.enumerated() {
            if let own = app.eviction.strategy {
                strategies[index] = make(own)
            } else if scenario.systemPolicy != nil && scenario.platform(of: index).appRemovesPacks {
                strategies[index] = make(run)
            }
        }
        self.init(system: make(scenario.systemPolicy ?? run), strategies: strategies)
    }
}
