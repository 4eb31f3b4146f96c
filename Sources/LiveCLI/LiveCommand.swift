import ArgumentParser
import Experiments
import Foundation
import Live
import Metrics
import OdrSimCLI
import Quantities
import Reports
import SafeOutput
import ScenarioFile

/// `odr-sim live`: the scenario through the unchanged core, its downloads real transfers from
/// a pack server into a folder, its clock real.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live", abstract: "Run a scenario with real downloads from a pack server into a folder.",
        discussion: """
            The core runs the scenario as `run` does, but each download is an HTTP transfer from --server (odr-sim \
            serve, or any server of the same paths) into --folder, each purge a file removed, and the disk's \
            free space the folder's file system's: on a tmpfs of the device's free space, a full disk is a real \
            one. Time runs at --speed virtual seconds a real one, and jumps while nothing downloads. Killed, a \
            second live on the same folder adopts its complete packs and resumes its partial ones. Reports as \
            run's (summary.csv, apps.csv, events.csv, packs.csv, report.html), for one policy. docs/live.md.

            Examples:
              odr-sim serve Scenarios/live/rehearsal.scn --port 8437 --throttle --speed 60 &
              odr-sim live Scenarios/live/rehearsal.scn --server http://127.0.0.1:8437 --folder /tmp/packs --speed 60
            """)

    @Argument(help: "The scenario file (.scn).")
    var file: String

    @Option(help: "The pack server's URL, on this machine (http://127.0.0.1:PORT).")
    var server: String

    @Option(help: "The folder the packs go to: made if missing; odr-sim touches only the files it wrote there.")
    var folder: String

    @Option(help: "The purge policy. Default: the scenario's first.")
    var policy: String?

    @Option(help: "Virtual seconds a real one (60: a minute of the scenario a second).")
    var speed: Double = 1

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard ModelLimits.clockSpeeds.contains(speed) else {
            throw ValidationError("--speed must be between 0.001 and 1000000 (virtual seconds a real one)")
        }
    }

    func run() throws {
        let address = try Self.loopback(server)
        guard address.isListening else {
            throw CommandFailure("--server \(server): nothing listens there; start odr-sim serve first (docs/live.md)")
        }
        let document = try loadScenario(file)
        guard let descriptor = try resolvePolicies(policy.map { [$0] } ?? [], scenario: document).first else {
            throw CommandFailure.usage("the scenario names no policy; give one with --policy")
        }
        let report = try output.claim(
            default: OutputSafety.defaultReport(document.name, suffix: "-live"), inputs: [file])
        let started = Date()
        let point = ExperimentPlan.Point(document)
        let result: ExperimentRunner.RunResult
        let failures: [String]
        do {
            let live = try LiveRun(scenario: document.scenario, server: address, folder: folder, speed: speed)
            result = try ExperimentRunner.drivenRun(
                point, descriptor, seed: document.scenario.seed, sampleInterval: document.sampleInterval,
                watcher: live.watcher
            ) { simulator throws(LiveError) in try live.drive(simulator) }
            failures = live.failures
        } catch let error as LiveError {
            throw CommandFailure(error.description)
        }
        let source = ScenarioSource(
            name: document.name, description: document.description, file: file, scenario: document.scenario)
        let files = RunFiles(
            source, results: [result], policies: [descriptor.name], baseline: descriptor.name, app: nil,
            replications: 1, warmup: 0, bound: false, report: !output.noReport, events: true)
        try report.commit(files.files + [("events.csv", RunRecorder.eventsHeader + result.eventRows)])
        for failure in failures { note("odr-sim live: a transfer failed: \(failure)") }
        say(files.text(missed: nil, elapsed: Date().timeIntervalSince(started), out: report.path))
    }

    /// `--server` as a host and port on this machine; anything else is refused.
    static func loopback(_ url: String) throws -> LiveRun.Server {
        guard let parts = URLComponents(string: url), parts.scheme == "http", let host = parts.host,
            let port = parts.port, parts.path.isEmpty || parts.path == "/"
        else { throw CommandFailure.usage("--server: '\(url)' is not http://HOST:PORT") }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard bare == "localhost" || bare == "::1" || bare.hasPrefix("127.") else {
            throw CommandFailure.usage(
                "--server: \(host) is not this machine; odr-sim live fetches over loopback only (docs/live.md)")
        }
        return LiveRun.Server(host: bare == "localhost" ? "127.0.0.1" : bare, port: port)
    }
}
