import ArgumentParser
import Foundation
import Metrics
import ODRCore
import ODRPolicies
import Quantities
import SafeOutput
import ScenarioFile
import TextInput

/// `odr-sim migrate`: an On-Demand Resources scenario rewritten for Background Assets or Play
/// Asset Delivery, where the app owns eviction.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract:
            """
            Rewrite an ODR scenario for Background Assets or Play Asset Delivery: same content and workload, the app \
            evicting.
            """,
        discussion: """
            Content and workload stay; each tag's category takes the target's name (essential,
            install-time, fast-follow …), each app gets --budget, and the run's policies become
            its eviction strategies (--strategy). With --app only that app moves (its own
            `platform:`; the others stay, under `system_policy`); with --others unlimited
            too, the whole device moves but only that app gets --budget, the others none
            (one game of an iPhone on an Android phone). The header says what was mapped;
            a file edited since odr-sim wrote it is never replaced.

            Examples:
              odr-sim migrate Scenarios/game.scn --to background-assets
              odr-sim migrate Scenarios/game.scn --app odyssey --to background-assets --budget 1GB --out game-ba.scn
              odr-sim migrate Scenarios/photo-filters.scn --app lumen --others unlimited \
            --to play-asset-delivery --budget 500MB
              odr-sim migrate Scenarios/game.scn --to play-asset-delivery --budget 2GB --strategy lru --strategy gdsf \
            --out game-pad.scn
            """)

    @Argument(help: "The ODR scenario file (.scn).")
    var file: String

    @Option(
        help: ArgumentHelp(
            "The target platform: \(MigrateCommand.targets.joined(separator: ", ")).", valueName: "platform"))
    var to: String

    @Option(
        help: ArgumentHelp(
            """
            Each app's storage budget: a size (2GB) or a share of free space at the start (25%). Default: none (the \
            app removes packs only when the disk is full).
            """,
            valueName: "size"))
    var budget: String?

    @Option(
        name: .customLong("strategy"),
        help: ArgumentHelp(
            "The app's eviction strategy, a policy name (repeatable; see `odr-sim policies`). Default: lru.",
            valueName: "policy"))
    var strategies: [String] = []

    @Option(
        help: ArgumentHelp(
            "Move only this app (an id of the scenario); the device and the other apps stay.", valueName: "id"))
    var app: String?

    @Option(
        help: ArgumentHelp(
            """
            With --app, where the other apps go: stay (on the device's platform, purged by the system) or \
            unlimited (the whole device moves, the others with no budget).
            """,
            valueName: "stay|unlimited"))
    var others: ScenarioMigration.Neighbours = .stay

    @Option(
        help: ArgumentHelp(
            "Write the scenario here instead of to standard output (never over a file odr-sim did not write).",
            valueName: "file"))
    var out: String?

    static var targets: [String] { PlatformProfile.presets.filter { $0.evictor == .app }.map(\.name) }

    func validate() throws {
        if others == .unlimited && app == nil {
            throw ValidationError("--others unlimited: give --app, the one app that keeps --budget")
        }
    }

    /// `--budget` as the scenario will write it, refused here when it is not a size or a share.
    private func checkBudget() throws {
        guard let budget else { return }
        do { _ = try BudgetSyntax.parse(budget) } catch {
            throw CommandFailure.usage("--budget: \(error.message(subject: "the budget"))")
        }
    }

    func run() throws {
        guard let target = PlatformProfile.named(to), target.evictor == .app else {
            throw CommandFailure.usage(
                "--to: '\(to)' is not a platform where the app evicts; choose "
                    + "\(Self.targets.joined(separator: " or "))"
            )
        }
        try checkBudget()
        let strategies = try resolvePolicyFlags(
            self.strategies.isEmpty ? ["lru"] : self.strategies, option: "--strategy"
        ).map(\.name)
        if let app { _ = try appIndex(app, in: try loadScenario(file)) }
        if let out {
            try OutputSafety.checkFile(out, label: "--out \(out)", inputs: [file], signed: true) {
                $0.hasPrefix("# " + ScenarioMigration.marker)
            }
        }
        let migration = ScenarioMigration(
            target: target, budget: budget, strategies: strategies, knownPolicies: PolicyRegistry.names,
            offlinePolicies: PolicyRegistry.offline, app: app, neighbours: others)
        let migrated: String
        do {
            // A telemetry file keeps resolving from where the result is written.
            migrated = SignedText.sign(
                try ScenarioRewrite(text: try migration.migrateFile(atPath: file), fileName: file)
                    .relocatingFiles(to: out ?? PathBytes.workingFolder() + "/-"))
        } catch { throw CommandFailure("\(error)", located: true) }
        guard let out else { return say(migrated, terminator: "") }
        try writeAtomically(migrated, to: out)
        note("\(out): \(migration.moved(file)) (run it with: odr-sim run \(out))")
    }
}

extension ScenarioMigration.Neighbours: ExpressibleByArgument {}
