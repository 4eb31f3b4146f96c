import ArgumentParser
import CommandShell

/// `odr-sim live`: ``LiveTools``.
struct LiveLauncher: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live", abstract: "Run a scenario with real downloads from a pack server into a folder.",
        discussion: """
            Runs odr-sim-live live (built apart: it needs SwiftNIO). Its --help: odr-sim live --help. \
            docs/live.md.

            Example:
              odr-sim live Scenarios/live/rehearsal.scn --server http://127.0.0.1:8437 --folder /tmp/packs --speed 60
            """, helpNames: [])

    @Argument(parsing: .allUnrecognized, help: "odr-sim-live live's arguments.")
    var arguments: [String] = []

    func run() throws { try LiveTools.exec("live", arguments) }
}
