import ArgumentParser
import ODRPolicies

/// `odr-sim policies`: lists the purge policies, one line each.
struct PoliciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policies",
        abstract: "List the purge policies odr-sim can compare.",
        discussion: """
            Each line gives a policy's name, as --policy takes it, and what it purges first.
            Policies marked (offline) need the future request stream; the simulator provides it.

            Example:
              odr-sim policies
              odr-sim replay trace.csv --capacity 200MB --policy lru --policy sieve
            """)

    func run() {
        let width = PolicyRegistry.names.map(\.count).max() ?? 0
        for policy in PolicyRegistry.all {
            let pad = String(repeating: " ", count: width - policy.name.count)
            print("\(policy.name)\(pad)  \(policy.summary)\(policy.needsFuture ? " (offline)" : "")")
        }
    }
}
