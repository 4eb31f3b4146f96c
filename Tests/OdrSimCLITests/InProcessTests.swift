import ArgumentParser
import Foundation
import OdrSimCLI
import Testing

/// Commands run in this process, as `OdrSim.main()` runs them: a command throws a
/// `CommandFailure` instead of exiting, so its reason can be read here, and the process
/// (the test runner) goes on.
@Suite("Commands in process")
struct InProcessTests {
    /// Parses and runs `arguments` in this process; the failure it threw, if any.
    func failure(of arguments: [String]) throws -> CommandFailure? {
        var command = try OdrSim.parseAsRoot(arguments)
        do {
            try command.run()
            return nil
        } catch let failure as CommandFailure {
            return failure
        }
    }

    @Test("a scenario error is thrown as its FILE:LINE:COLUMN line, printed as it is")
    func scenarioError() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.scn")
        try Data("duration: 1h\ndevice: {capacity: 10GB, used: lots}\n".utf8).write(to: file)
        let failure = try #require(try failure(of: ["validate", file.path]))
        #expect(failure.located)
        #expect(failure.description.hasPrefix("\(file.path):2:"), "\(failure)")
        #expect(!failure.description.contains("\n"))
    }

    @Test("an option error is thrown with the odr-sim: prefix, and nothing is written")
    func optionError() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.txt")
        try Data("1 7 40\n".utf8).write(to: trace)
        let out = dir.appendingPathComponent("out")
        let failure = try #require(try failure(of: ["replay", trace.path, "--capacity", "100", "--no-header", "--out", out.path]))
        #expect(!failure.located)
        #expect(failure.description.hasPrefix("odr-sim: --no-header needs --columns"), "\(failure)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a good command returns, and a second one runs in the same process")
    func success() throws {
        let scenario = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        #expect(try failure(of: ["validate", scenario]) == nil)
        #expect(try failure(of: ["validate", scenario]) == nil)
    }
}
