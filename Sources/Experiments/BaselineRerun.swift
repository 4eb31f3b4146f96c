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
    public static func gatePlan(of baseline: BaselineFile, at path: String, scenarioPolicies: [String])
        throws(RerunRefusal) -> (
            policies: [PolicyDescriptor], replications: Int, change: PolicyChange?, baselineRows: [SummaryRow]
        )
    {
        let change: PolicyChange?
        do {
            change = try PolicyChange.between(baseline: plan(of: baseline).policies, scenario: scenarioPolicies)
        } catch {
            throw RerunRefusal(description: "\(path): \(error)")
        }
        let (policies, replications) = try rerun(of: baseline, at: path, replacing: change)
        return (policies, replications, change, change?.relabel(baseline.rows) ?? baseline.rows)
    }
}
