import ArgumentParser
import Dispatch
import Live
import OdrSimCLI
import Quantities
import SafeOutput
import Simulation

/// `odr-sim serve`: a scenario's packs over HTTP on this machine, for `odr-sim live`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve a scenario's packs over HTTP on this machine (for odr-sim live).",
        discussion: """
            Every pack of every app, each version at /packs/APP/PACK/vN, as deterministic bytes of the pack's \
            exact size (names percent-encoded): byte ranges (Range, If-Range), an ETag per version (the \
            content's digest), and GET /stats with bytes_served in all and per pack. It listens on 127.0.0.1 \
            unless --bind names another address, prints its URL, and stops on Ctrl-C or SIGTERM, printing \
            what it served. docs/live.md.

            Examples:
              odr-sim serve Scenarios/live/rehearsal.scn --port 8437
              odr-sim serve Scenarios/live/rehearsal.scn --port 0 --throttle --speed 60
            """)

    @Argument(help: "The scenario file (.scn).")
    var file: String

    @Option(help: "Port to listen on; 0 lets the system choose (the URL printed says which).")
    var port: Int = 8437

    @Option(help: "Address to listen on. Default 127.0.0.1: other machines cannot reach it unless you name one.")
    var bind: String = "127.0.0.1"

    @Flag(help: "Pace all transfers together to the scenario's first link bandwidth × --speed, as one link.")
    var throttle = false

    @Option(help: "With --throttle: virtual seconds a real one (as odr-sim live --speed).")
    var speed: Double = 1

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard ModelLimits.clockSpeeds.contains(speed) else {
            throw ValidationError("--speed must be between 0.001 and 1000000 (virtual seconds a real one)")
        }
    }

    func run() throws {
        let document = try loadScenario(file)
        let rate = throttle ? document.scenario.network.first.map { $0.bandwidth / 8 * speed } : nil
        if throttle, rate ?? 0 <= 0 { throw CommandFailure.usage("--throttle: the scenario's first link is offline") }
        let server: PackServer
        do { server = try PackServer(packs: ServedPacks(document.scenario), host: bind, port: port, rate: rate) } catch
        {
            throw CommandFailure(error.description)
        }
        let stopped = DispatchSemaphore(value: 0)
        Interruption.onSignal { _ in stopped.signal() }
        let packs = document.scenario.apps.reduce(0) { $0 + $1.catalog.packs.count }
        let apps = document.scenario.apps.count
        say(
            "odr-sim serve: \(packs) pack\(packs == 1 ? "" : "s") of \(apps) app\(apps == 1 ? "" : "s") at "
                + "\(server.url) (Ctrl-C stops)")
        stopped.wait()
        server.stop()
        say("odr-sim serve: stopped; \(server.stats.bytesServed) bytes served in \(server.stats.requests) requests")
    }
}
