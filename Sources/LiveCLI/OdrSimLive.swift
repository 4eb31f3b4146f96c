import ArgumentParser
import CommandShell

/// `odr-sim-live`: the commands that need SwiftNIO, `serve` and `live`, in an executable of
/// their own (odr-sim's `serve` and `live` run it), so that odr-sim's own build compiles no
/// NIO.
public struct OdrSimLive: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "odr-sim",
        abstract: "odr-sim's live commands: serve a scenario's packs, and drive the core with real downloads.",
        subcommands: [ServeCommand.self, LiveCommand.self])

    public init() {}

    public static func main() { CommandLineMain.run(OdrSimLive.self) }
}
