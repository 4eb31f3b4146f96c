import ArgumentParser
import Metrics
import ODRCore
import ODRPolicies
import Reports
import SafeOutput

/// `odr-sim policies`: lists the purge policies, one line each, with their options.
struct PoliciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policies", abstract: "List the purge policies odr-sim can compare, and the options they take.",
        discussion: """
            Each line gives a policy's name, as --policy takes it, and what it purges first.
            Policies marked (offline) need the future request stream; the simulator provides it.
            Options are set in a scenario's policy_options (docs/policies.md).

            Examples:
              odr-sim policies
              odr-sim policies --markdown        # docs/policies.md's table
              odr-sim replay trace.csv --capacity 200MB --policy lru --policy sieve
            """)

    @Flag(help: "Print a Markdown table (docs/policies.md's policy table is this output).")
    var markdown = false

    func run() {
        if markdown { return say(PolicyRegistry.markdownTable(), terminator: "") }
        for line in PolicyRegistry.listing() { say(line) }
    }
}
