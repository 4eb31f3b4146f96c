import ArgumentParser
import Foundation
import Metrics
import ODRCore
import ODRPolicies
import SafeOutput
import ScenarioFile

/// `odr-sim migrate`: an On-Demand Resources scenario rewritten for Background Assets or Play
/// Asset Delivery, where the app owns eviction.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Rewrite an ODR scenario for Background Assets or Play Asset Delivery: same content and workload, the app evicting.",
        discussion: """
            The apps, resources, tags and workload stay; the platform changes, each tag's
            category takes the target's name (initial-install → essential / install-time,
            prefetch → prefetch / fast-follow, on-demand → onDemand / on-demand), each app gets
            --budget, and the run's policies become the app's eviction strategies (--strategy).
            A comment header says what was mapped and what has no counterpart. The result is
            checked against the target's limits before it is written.

            Examples:
              odr-sim migrate Scenarios/game.scn --to background-assets
              odr-sim migrate Scenarios/game.scn --to play-asset-delivery --budget 2GB --strategy lru --strategy gdsf --out game-pad.scn
              odr-sim run game-pad.scn
            """)

    @Argument(help: "The ODR scenario file (.scn).")
    var file: String

    @Option(help: ArgumentHelp("The target platform: \(MigrateCommand.targets.joined(separator: ", ")).", valueName: "platform"))
    var to: String

    @Option(help: ArgumentHelp("Each app's storage budget: a size (2GB) or a share of free space at the start (25%). Default: none (the app removes packs only when the disk is full).", valueName: "size"))
    var budget: String?

    @Option(name: .customLong("strategy"), help: ArgumentHelp("The app's eviction strategy, a policy name (repeatable; see `odr-sim policies`). Default: lru.", valueName: "policy"))
    var strategies: [String] = []

    @Option(help: ArgumentHelp("Write the scenario here instead of to standard output (never over a file odr-sim did not write).", valueName: "file"))
    var out: String?

    static var targets: [String] { PlatformProfile.presets.filter { $0.evictor == .app }.map(\.name) }

    func run() throws {
        guard let target = PlatformProfile.named(to), target.evictor == .app else {
            throw CommandFailure.usage("--to: '\(to)' is not a platform where the app evicts; choose \(Self.targets.joined(separator: " or "))")
        }
        if let budget {
            do {
                _ = try BudgetSyntax.parse(budget)
            } catch {
                throw CommandFailure.usage("--budget: \(error.message(subject: "the budget"))")
            }
        }
        let strategies = try resolvePolicyFlags(self.strategies.isEmpty ? ["lru"] : self.strategies, option: "--strategy").map(\.name)
        if let out {
            try OutputSafety.checkFile(out, label: "--out \(out)", inputs: [file]) { head in head.hasPrefix("# " + ScenarioMigration.marker) }
        }
        let migration = ScenarioMigration(target: target, budget: budget, strategies: strategies, knownPolicies: PolicyRegistry.names)
        let migrated: String
        do {
            // A telemetry file keeps resolving from where the result is written.
            migrated = try ScenarioRewrite(text: try migration.migrateFile(atPath: file), fileName: file)
                .relocatingFiles(to: out ?? FileManager.default.currentDirectoryPath + "/-")
        } catch {
            throw CommandFailure("\(error)", located: true)
        }
        guard let out else {
            say(migrated, terminator: "")
            return
        }
        try writeAtomically(migrated, to: out)
        note("\(out): \(file) on \(target.name) (run it with: odr-sim run \(out))")
    }
}
