import ArgumentParser
import Metrics
import ODRCore
import Reports
import SafeOutput
import ScenarioFile
import Simulation

/// `odr-sim platforms`: what each platform does, and its limits.
struct PlatformsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platforms",
        abstract: "List the platforms a scenario may run on: who removes packs, what each category does, the limits.",
        discussion: """
            A scenario picks one with `platform:` (a name below, or {base: NAME, max_pack_size: …}
            for a what-if). On On-Demand Resources the system purges under the run's policy; on
            Background Assets and Play Asset Delivery the app removes its own packs, so the
            run's policy is the app's eviction strategy and `apps[].budget` its storage budget.
            Every platform accepts ODR's category names (initial-install, prefetch, on-demand),
            so one scenario runs on all of them.

            Examples:
              odr-sim platforms
              odr-sim platforms --markdown                  # docs/platforms.md's table
              odr-sim migrate Scenarios/game.scn --to background-assets
            """)

    @Flag(help: "Print a Markdown table (docs/platforms.md's platform table is this output).")
    var markdown = false

    func run() {
        if markdown { return say(PlatformDescription.markdownTable(), terminator: "") }
        for line in PlatformDescription.listing() { say(line) }
    }
}
