/// One option a purge policy takes from a scenario's `policy_options:`, as its descriptor
/// declares it: the scenario reader checks every given option against these declarations
/// (unknown keys, wrong kinds and values the policy refuses are `FILE:LINE:COLUMN` errors),
/// and `odr-sim policies` and docs/policies.md list them.
public struct PolicyOption: Sendable {
    /// How the value is written.
    public enum Kind: String, Sendable {
        /// Bytes, as sizes are written everywhere in a scenario (`64MB`, `1.5GiB`).
        case size
        /// A plain number.
        case number
    }

    /// Where the option is given.
    public enum Scope: String, Sendable {
        /// Once for the policy: `policy_options: {lru: {key: value}}`.
        case policy
        /// Per app: `policy_options: {android-quota: {apps: {game: {key: value}}}}`.
        case app
    }

    public let key: String
    public let kind: Kind
    public let scope: Scope
    /// One line for `odr-sim policies` and docs/policies.md, with the default.
    public let summary: String
    /// Why a value is refused (shown after the value in the error), or nil if it is fine.
    public let check: @Sendable (Double) -> String?

    public init(
        _ key: String, _ kind: Kind, scope: Scope = .policy, summary: String,
        check: @escaping @Sendable (Double) -> String? = { _ in nil }
    ) {
        self.key = key
        self.kind = kind
        self.scope = scope
        self.summary = summary
        self.check = check
    }
}

/// The options a scenario gives one purge policy, parsed and checked against its
/// ``PolicyOption`` declarations. A policy reads them when it is made; any option not given
/// has the policy's default.
///
/// Apps are named by their scenario id (`game`), not by device ``AppID``: a policy learns an
/// app's name from ``PurgeCandidate/appName`` when it first sees one of its packs.
public struct PolicyOptions: Sendable, Hashable {
    /// Policy-wide values, by key. Sizes are in bytes.
    public var values: [String: Double]
    /// Per-app values: app id, then key.
    public var apps: [String: [String: Double]]

    public init(values: [String: Double] = [:], apps: [String: [String: Double]] = [:]) {
        self.values = values
        self.apps = apps
    }

    public var isEmpty: Bool { values.isEmpty && apps.isEmpty }

    /// The policy-wide value of `key`, if given.
    public func value(_ key: String) -> Double? { values[key] }

    /// The value of `key` for the app named `app`, if given.
    public func value(_ key: String, app: String) -> Double? { apps[app]?[key] }
}
