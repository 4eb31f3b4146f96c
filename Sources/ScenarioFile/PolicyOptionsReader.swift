import ODRCore
import Simulation
import Yams

/// Reads `policy_options:`, each policy's options checked against what its descriptor
/// declares (``PolicyOption``): the keys it takes, their kinds, and the values it accepts.
///
/// ```yaml
/// policy_options:
///   android-quota:
///     default_quota: 32MB          # a policy-wide option
///     apps:
///       game: {cache_quota: 128MB} # an option per app, by app id
/// ```
///
/// The declarations come from the policy registry through ``ScenarioParser`` (this module
/// does not import the policies), so a policy gets a new option by declaring it, with no
/// change here.
struct PolicyOptionsReader {
    let reader: NodeReader
    /// Declared options by policy name; every known policy has an entry, maybe empty.
    let declarations: [String: [PolicyOption]]
    let knownPolicies: [String]
    let appIDs: [String]

    func read(_ node: Node) throws(ScenarioError) -> [String: PolicyOptions] {
        var result: [String: PolicyOptions] = [:]
        for (policy, keyNode, value) in try reader.namedMapping(node, "policy_options") {
            guard knownPolicies.contains(policy) else {
                throw reader.error(
                    at: keyNode,
                    "unknown policy '\(policy)'"
                        + NameSuggestion.hint(
                            for: policy, among: knownPolicies, noneText: "no policies are registered"))
            }
            result[policy] = try readPolicy(policy, value)
        }
        return result
    }

    private func readPolicy(_ policy: String, _ node: Node) throws(ScenarioError) -> PolicyOptions {
        let declared = declarations[policy] ?? []
        let policyWide = declared.filter { $0.scope == .policy }
        let perApp = declared.filter { $0.scope == .app }
        var allowed = policyWide.map(\.key)
        if !perApp.isEmpty { allowed.append("apps") }
        var options = PolicyOptions()
        for (key, keyNode, value) in try reader.namedMapping(node, "policy_options.\(policy)") {
            guard allowed.contains(key) else {
                throw reader.error(
                    at: keyNode,
                    "policy '\(policy)' has no option '\(key)'"
                        + NameSuggestion.hint(for: key, among: allowed, noneText: "it takes none"))
            }
            if key == "apps" {
                for (app, appKeyNode, appOptions) in try reader.namedMapping(value, "policy_options.\(policy).apps") {
                    guard appIDs.contains(app) else {
                        throw reader.error(
                            at: appKeyNode,
                            "unknown app '\(app)'"
                                + NameSuggestion.hint(for: app, among: appIDs, noneText: "the scenario has no apps"))
                    }
                    var values: [String: Double] = [:]
                    for (appKey, optionKeyNode, appValue) in try reader.namedMapping(
                        appOptions, "policy_options.\(policy).apps.\(app)")
                    {
                        guard let option = perApp.first(where: { $0.key == appKey }) else {
                            throw reader.error(
                                at: optionKeyNode,
                                "policy '\(policy)' has no option '\(appKey)' per app"
                                    + NameSuggestion.hint(for: appKey, among: perApp.map(\.key)))
                        }
                        values[appKey] = try self.value(appValue, option, policy: policy)
                    }
                    options.apps[app, default: [:]].merge(values) { $1 }
                }
            } else {
                options.values[key] = try self.value(value, policyWide.first { $0.key == key }!, policy: policy)
            }
        }
        return options
    }

    /// The value of `option` written at `node`, checked by the policy.
    func value(_ node: Node, _ option: PolicyOption, policy: String) throws(ScenarioError) -> Double {
        let subject = "\(policy) \(option.key)"
        let value: Double
        switch option.kind {
        case .size: value = Double(try reader.size(node, subject))
        case .number:
            let text = try reader.scalar(node, subject, kind: "a number")
            guard let number = Double(text), number.isFinite else {
                throw reader.error(at: node, "\(subject) must be a number, not '\(text)'")
            }
            value = number
        }
        if let reason = option.check(value) {
            throw reader.error(at: node, "\(subject) \(node.string ?? "") \(reason)")
        }
        return value
    }
}
