import ArgumentParser
import CommandShell

/// `odr-sim serve`: ``LiveTools``.
struct ServeLauncher: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve a scenario's packs over HTTP on this machine (for odr-sim live).",
        discussion: """
            Runs odr-sim-live serve (built apart: it needs SwiftNIO). Its --help: odr-sim serve --help. \
            docs/live.md.

            Example:
              odr-sim serve Scenarios/live/rehearsal.scn --port 8437 --throttle --speed 60
            """, helpNames: [])

    @Argument(parsing: .allUnrecognized, help: "odr-sim-live serve's arguments.")
    var arguments: [String] = []

    func run() throws { try LiveTools.exec("serve", arguments) }
}
