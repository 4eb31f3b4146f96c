import Advice
import AdviceOutput
import ArgumentParser
import Experiments
import Foundation
import Metrics
import ODRCore
import ODRPolicies
import Quantities
import Reports
import SafeOutput
import ScenarioFile
import TextInput

/// `odr-sim advise`: the layout of one app's content (packs, and which are prefetched) that
/// does best on the scenario's workload.
struct AdviseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advise",
        abstract:
            """
            Search the layout of one app's content (which resources share a pack, which packs are prefetched) that \
            does best on the scenario.
            """,
        discussion: """
            The app's resources are the material; the scenario's workload says which are
            needed together and when. Every candidate layout is the same scenario with the
            app's tags regrouped, simulated on common random numbers; the objective is the
            app's re-downloaded bytes + --refused-price per byte of the user's data the
            device refused + --over-purge-price per byte the device over-purged +
            --wait-price per second of the app's p95 wait + --install-price per byte of
            initial install + --failure-price per failed request of the app +
            --download-price per download of the app (means over replications). Layouts
            over the platform's limits are rejected unrun. See docs/advise.md.

            Writes DIR/advised.scn (run it as it is), DIR/layout.csv (resource → pack) and
            DIR/layouts.csv (every layout tried, its move and objective terms).

            Examples:
              odr-sim advise Scenarios/game.scn --app odyssey
              odr-sim advise Scenarios/game.scn --app odyssey --wait-price 10MB --max-evaluations 100
              odr-sim advise Scenarios/game.scn --app odyssey --platform play-asset-delivery --policy lru
              odr-sim advise Scenarios/game.scn --app odyssey --population Scenarios/studies/game-devices.study
              odr-sim compare Reports/game-advice/advised.scn --policy apple --replications 30

            On a cluster, N tasks at once (e.g. `srun --ntasks 4`), each with its own K:
              odr-sim advise Scenarios/game.scn --app odyssey --shard K/4 --exchange shared/advise
            """)

    @Argument(help: "The scenario file (.scn).")
    var file: String

    @Option(help: ArgumentHelp("The app whose layout is searched (its id in the scenario).", valueName: "id"))
    var app: String

    @Option(
        help: ArgumentHelp(
            """
            Advise for this platform instead of the scenario's: an ODR preset, or background-assets / \
            play-asset-delivery (the scenario migrated first, as `odr-sim migrate` does, the app evicting with \
            --policy, default lru). See `odr-sim platforms`.
            """,
            valueName: "platform"))
    var platform: String?

    @Option(
        help: ArgumentHelp(
            """
            The policy the runs use: the system's on ODR, the app's strategy where the app evicts. Default: the \
            scenario's first.
            """,
            valueName: "policy"))
    var policy: String?

    @Option(help: "Replications per layout (common seeds). Default: 5.")
    var replications: Int = 5

    @Option(help: "Most layouts tried, the three starting ones included.")
    var maxEvaluations: Int = 60

    @Option(
        help:
            """
            Replications on fresh seeds (after the search's) that check the advice against the winner's curse: the \
            advised layout, the one as written and the next best run again, the advantage measured there \
            reported. 0 skips.
            """
    )
    var confirm: Int = 20

    @Option(
        help: ArgumentHelp(
            """
            Double --confirm's fresh seeds, on the same seeds, until the advantage's 95 % half-width is within P: 5% \
            of the objective as written, or a size (50MB); at most --max-replications seeds.
            """,
            valueName: "p"))
    var precision: String?

    @Option(help: "With --precision or --indifference: the most fresh seeds.") var maxReplications = 1000

    @Option(
        help: ArgumentHelp(
            """
            Compare the finalists on fresh seeds by Kim and Nelson's KN (10 seeds each, then one per survivor at a \
            time, up to --max-replications) instead of --confirm's fixed count: the objective difference not \
            worth telling apart, a size (50MB).
            """,
            valueName: "size"))
    var indifference: String?

    @Flag(
        help:
            """
            Also rerun the advised layout and the one as written under each alternative of each undocumented \
            assumption that applies (odr-sim assumptions): does the advice hold?
            """
    )
    var robustness = false

    @Flag(
        help:
            """
            Evaluate every layout (every grouping of the resources into packs, each pack promoted or not) instead of \
            searching, for an app of at most 5 resources (454 layouts), and say whether the search's pick is \
            within the noise of the best.
            """
    )
    var exhaustive = false

    @Option(help: ArgumentHelp("Bytes one second of p95 wait is worth.", valueName: "size"))
    var waitPrice: String = "1MB"

    @Option(help: ArgumentHelp("What one byte of initial-install content costs, in bytes.", valueName: "number"))
    var installPrice: Double = 0.1

    @Option(help: ArgumentHelp("What one byte of the user's data the device refused costs.", valueName: "number"))
    var refusedPrice: Double = 1

    @Option(help: ArgumentHelp("What one byte the device over-purged costs.", valueName: "number"))
    var overPurgePrice: Double = 0

    @Option(help: ArgumentHelp("Bytes one failed request is worth.", valueName: "size"))
    var failurePrice: String = "100MB"

    @Option(help: ArgumentHelp("Bytes one download is worth beyond its size (its fixed cost).", valueName: "size"))
    var downloadPrice: String = "1MB"

    @Option(
        help: ArgumentHelp(
            """
            A population of devices: each layout runs on the scenario with each of these used spaces \
            (comma-separated, e.g. 56GB,60GB,62GB), the same seeds on each, and is judged over all of them. \
            Default: the scenario's device alone.
            """,
            valueName: "size,…"))
    var used: String?

    @Option(
        help: ArgumentHelp(
            """
            A population of devices from a study's axes: each layout runs on the scenario as each of the study's \
            points sets it (its axes must vary device.* or network.*: free space, bandwidth, offline spells), \
            the same seeds on each. The study's base scenario is not read for anything else.
            """,
            valueName: "study"))
    var population: String?

    @Option(
        help: ArgumentHelp(
            """
            On a cluster: run shard K of N of every round's runs; the N shards run at once (one job of N tasks) and \
            share results through --exchange; shard 1 writes the answer, the same bytes as one machine's.
            """,
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            """
            With --shard: the folder the shards share (on a file system every shard sees); files odr-sim did not \
            write are never touched.
            """,
            valueName: "dir"))
    var exchange: String?

    @Option(
        help: ArgumentHelp(
            "With --shard: how long a shard waits for the others at the end of a round.", valueName: "duration"))
    var shardTimeout: String = "1h"

    @OptionGroup var jobs: JobOptions

    @OptionGroup var limits: RunLimits

    @OptionGroup var output: OutputOptions

    @OptionGroup var printing: FormatOption

    /// Most layouts a search may try: each is replications × devices runs.
    static let maximumEvaluations = 100_000

    func validate() throws {
        try validateReplications(replications)
        if confirm != 0 { try validateReplications(confirm, flag: "--confirm") }
        try validateReplications(maxReplications, flag: "--max-replications")
        if maxEvaluations < 3 || maxEvaluations > Self.maximumEvaluations {
            throw ValidationError(
                "--max-evaluations must be 3 (the three starting layouts) to \(Self.maximumEvaluations)")
        }
        // A --shard that is no K/N is refused by checkedShard, as sweep's is.
        if shard != nil {
            guard exchange != nil else {
                throw ValidationError("--shard needs --exchange DIR, the folder the shards share")
            }
        } else if exchange != nil {
            throw ValidationError("--exchange is for --shard K/N (the folder the shards share)")
        }
        if used != nil && population != nil {
            throw ValidationError(
                """
                --used and --population both give the devices; put the used spaces on an axis of the study (path: \
                device.used)
                """
            )
        }
    }

    func run() throws {
        let (document, text) = try scenarioOnPlatform()
        let appIndex = try appIndex(app, in: document)
        let descriptor = try resolvePolicyFlags([self.policy ?? document.policies[0]], option: "--policy")[0]
        let weights = try prices()
        var advisor = Advisor(
            scenario: document.scenario, resources: document.resources[appIndex], app: appIndex, policy: descriptor,
            policyOptions: document.policyOptions, replications: replications, weights: weights)
        (advisor.jobs, advisor.maxEvaluations, advisor.maxEvents) = (jobs.count, maxEvaluations, limits.maxEvents)
        advisor.population = try population(text: text)
        // Every layout runs the scenario's workload: refused up front beyond --max-events, as
        // `run` refuses it (each device of the population is the same workload).
        try checkWorkload(document.scenario, file: file, maxEvents: limits.maxEvents)
        let (freshPrecision, knDelta): (Advisor.FreshPrecision?, Double?)
        do {
            (freshPrecision, knDelta) = try Advisor.FreshPrecision.options(
                precision: precision, indifference: indifference, confirm: confirm)
        } catch { throw CommandFailure.usage(error.description) }
        let report = try claimOutputs(document, text: text, advisor: &advisor)
        if exhaustive, let refusal = advisor.exhaustiveRefusal(sharded: shard != nil) {
            throw CommandFailure.usage(refusal)
        }
        let question = AdviceAnswer.Question(
            file: file, app: app, scenario: document.name, policy: descriptor.name, replications: replications,
            resources: document.resources[appIndex], population: advisor.population.map(\.label),
            objective: weights.described(app: app))
        let started = Date()
        let answer = try search(&advisor, question, precision: freshPrecision, indifference: knDelta)
        let elapsed = Date().timeIntervalSince(started)
        // A shard other than 1: its runs are in the exchange, and shard 1 writes the answer.
        guard let report else { return say(answer.shardDone(shard!, json: printing.json, elapsed: elapsed)) }
        let advised = try advisedScenario(
            text, layout: answer.result.evaluations[answer.result.best].layout,
            resources: document.resources[appIndex], in: report)
        try report.commit(answer.files(advised: advised, report: !output.noReport))
        say(printing.json ? answer.json(out: report.path) : answer.text(elapsed: elapsed, out: report.path))
    }

    /// The objective's prices (``Advice/Advisor/Weights``); a bad one is a usage error naming its flag.
    private func prices() throws -> Advisor.Weights {
        do {
            return try Advisor.Weights(
                wait: waitPrice, install: installPrice, failure: failurePrice, download: downloadPrice,
                refused: refusedPrice, overPurge: overPurgePrice)
        } catch { throw CommandFailure.usage(error.description) }
    }

    /// The search, then the fresh seeds' check of its answer (KN with `--indifference`, else
    /// `--confirm`'s seeds, doubled to `--precision`), and `--robustness`.
    private func search(
        _ advisor: inout Advisor, _ question: AdviceAnswer.Question, precision: Advisor.FreshPrecision?,
        indifference: Double?
    ) throws -> AdviceAnswer {
        do {
            let searched = exhaustive ? try advisor.searchedPick() : nil
            advisor.exhaustive = exhaustive
            var answer = AdviceAnswer(question, result: try advisor.run())
            answer.searched = searched
            if let indifference {
                answer.confirmation = try advisor.select(
                    answer.result, indifference: indifference, maximum: maxReplications)
            } else if confirm > 0 {
                (answer.confirmation, answer.reached) = try advisor.confirm(
                    answer.result, replications: confirm, precision: precision, maximum: maxReplications)
            }
            answer.robustness = robustness ? try advisor.robustness(answer.result) : nil
            return answer
        } catch { throw CommandFailure("\(error)") }
    }

    /// The scenario as read, or with `--platform`, migrated there first as `odr-sim migrate`
    /// does (the app evicting with `--policy`, lru by default); with its text.
    private func scenarioOnPlatform() throws -> (ScenarioDocument, String) {
        let document = try loadScenario(file)
        let text = try readInput(file)
        guard let platform, platform != document.scenario.platform.name else { return (document, text) }
        guard let target = PlatformProfile.named(platform) else {
            throw CommandFailure.usage(
                "--platform: unknown platform '\(platform)' (\(PlatformProfile.presetNames { _ in true }))"
            )
        }
        do {
            let migrated = try ScenarioMigration.onto(
                target, text: text, fileName: file, strategy: self.policy ?? "lru", knownPolicies: PolicyRegistry.names)
            return (try scenarioParser().parse(migrated, fileName: file), migrated)
        } catch { throw CommandFailure("\(error)", located: true) }
    }

    /// Outputs are claimed before any work: shard 1 (or a single machine) writes the answer
    /// (nil for the other shards), and `--shard` shares runs through `--exchange`, keyed by
    /// every option that changes a result and the version, so that two different advises
    /// sharing a folder never read each other's runs.
    private func claimOutputs(_ document: ScenarioDocument, text: String, advisor: inout Advisor) throws
        -> ReportDirectory?
    {
        // The first round runs the three starting layouts on every device: the most runs any
        // round shares, so the bound on N.
        let devices = max(1, advisor.population.count)
        let position = try ShardPosition.option(
            shard, "--shard", runs: 3 * replications * devices,
            what: "runs in the search's largest round (3 starting layouts × \(replications) replications × "
                + "\(devices) device\(devices == 1 ? "" : "s"))")
        let inputs = [file] + [population].compactMap { $0 }
        let fallback = OutputSafety.defaultReport(document.name, suffix: "-advice")
        if let exchange { try OutputSafety.claimExchange(exchange, report: output.folder ?? fallback, inputs: inputs) }
        let report = (position?.index ?? 1) == 1 ? try output.claim(default: fallback, inputs: inputs) : nil
        if let position, let exchange {
            let timeout: Double
            do { timeout = try DurationSyntax.parse(shardTimeout) } catch {
                throw CommandFailure.usage("--shard-timeout: \(error)")
            }
            let version = ToolVersion.current
            let key = AdviceExchange.key(of: [
                text, app, advisor.policy.name, String(replications), String(maxEvaluations), String(confirm),
                String(robustness), String(exhaustive), precision ?? "", indifference ?? "", String(maxReplications),
                waitPrice, "\(installPrice)", failurePrice, downloadPrice, "\(refusedPrice)", "\(overPurgePrice)",
                advisor.population.map(\.label).joined(separator: "; "), String(position.count), version,
            ])
            advisor.exchange = AdviceExchange(
                shard: position.index, count: position.count, folder: URL(fileURLWithPath: exchange), key: key,
                timeout: timeout, version: version)
        }
        return report
    }

    /// The advised layout written over the file's own text; a telemetry file keeps resolving
    /// from the report folder.
    private func advisedScenario(_ text: String, layout: Layout, resources: [Resource], in report: ReportDirectory)
        throws -> String
    {
        do {
            let (laid, newTags) = layout.resources(from: resources)
            let rewritten = try ScenarioRewrite(text: text, fileName: file).advising(
                app, resources: laid, newTags: newTags, budget: layout.budget, strategy: layout.strategy)
            return try ScenarioRewrite(text: rewritten, fileName: file).relocatingFiles(
                to: report.path + "/advised.scn")
        } catch { throw CommandFailure("\(error)", located: true) }
    }

    /// The devices of `--used` or `--population` (``ScenarioFile/DevicePopulation``).
    private func population(text: String) throws -> [Advisor.Device] {
        let study = try population.map { (study: try readStudy($0), path: $0) }
        do {
            return try DevicePopulation.devices(
                used: used, study: study, text: text, file: file, parser: scenarioParser()
            )
            .map(Advisor.Device.init)
        } catch {
            // --used is a flag (64); a study's point is input, at its own line (1).
            throw error.isFlag
                ? CommandFailure.usage(error.description) : CommandFailure(error.description, located: true)
        }
    }
}
