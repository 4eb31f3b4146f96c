import Metrics
import ODRPolicies
import Quantities

extension RegressionCheck {
    /// Why a baseline's runs cannot be made again: a one-line reason at the baseline's path.
    public struct RerunRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The runs a baseline holds, to make again on its seeds: its policies (with `change`, the
    /// scenario's replacement in the place of the one it lost), resolved by the registry, and
    /// its replications (at most ``Quantities/ModelLimits/replications``). `path` names the
    /// baseline in a refusal.
    public static func rerun(
        of baseline: BaselineFile, at path: String, replacing change: PolicyChange? = nil
    ) throws(RerunRefusal) -> (policies: [PolicyDescriptor], replications: Int) {
        let plan = plan(of: baseline)
        guard !plan.policies.isEmpty else { return ([], 0) }
        let descriptors: [PolicyDescriptor]
        do { descriptors = try PolicyRegistry.resolve(change?.policies(plan.policies) ?? plan.policies) } catch {
            throw RerunRefusal(description: "\(path): \(error)")
        }
        guard plan.replications <= ModelLimits.replications else {
            throw RerunRefusal(
                description: "\(path): replication \(plan.replications) is more than the \(ModelLimits.replications) "
                    + "odr-sim runs")
        }
        return (descriptors, plan.replications)
    }

    /// The gate's runs (`check --max-increase`): the baseline's, with the scenario's policy in
    /// the place of one it replaced (``Metrics/PolicyChange``), and the baseline's rows labelled
    /// to match, so that what ships is what is gated.
    ///
    /// Under a focus on an app that runs its own strategy (`app`, with `apps[].strategy`), a
    /// row's identity is that strategy: where the baseline names another (its `strategy`
    /// column) the change is the app's, and with one run policy every row is named by the
    /// strategy (`label`, for the current rows too).
    public static func gatePlan(
        of baseline: BaselineFile, at path: String, scenarioPolicies: [String],
        app: (id: String, strategy: String?)? = nil
    ) throws(RerunRefusal) -> (
        policies: [PolicyDescriptor], replications: Int, change: PolicyChange?, baselineRows: [SummaryRow],
        label: String?
    ) {
        var change: PolicyChange?
        do {
            change = try PolicyChange.between(baseline: plan(of: baseline).policies, scenario: scenarioPolicies)
        } catch {
            throw RerunRefusal(description: "\(path): \(error)")
        }
        let (policies, replications) = try rerun(of: baseline, at: path, replacing: change)
        var rows = change?.relabel(baseline.rows) ?? baseline.rows
        guard let app, let strategy = app.strategy else { return (policies, replications, change, rows, nil) }
        if change == nil, let before = baseline.strategy, before != strategy {
            change = PolicyChange(lost: before, replacement: strategy, app: app.id)
        }
        let label = policies.count == 1 ? strategy : nil
        rows = SummaryRow.labelled(rows, as: label)
        return (policies, replications, change, rows, label)
    }
}
