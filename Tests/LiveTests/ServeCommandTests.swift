import Foundation
import Testing

/// `odr-sim serve` as a user runs it: through odr-sim's launcher, stopped by a signal.
@Suite("odr-sim serve, from odr-sim")
struct ServeCommandTests {
    @Test("odr-sim serve runs odr-sim-live's, prints its URL, answers, and stops cleanly on SIGTERM and SIGINT")
    func stopsOnSignals() throws {
        for signal in [SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = LiveHarness.binary("odr-sim")
            process.arguments = ["serve", "Scenarios/live/rehearsal.scn", "--port", "0"]
            process.currentDirectoryURL = LiveHarness.repository
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first line names the port the system chose.
            var text = ""
            let reader = out.fileHandleForReading
            while !text.contains("\n") {
                let data = reader.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            #expect(text.hasPrefix("odr-sim serve: 7 packs of 1 app at http://127.0.0.1:"), "\(text)")
            let port = Int(text.split(separator: ":")[3].prefix { $0.isNumber }) ?? 0
            let pack = try LiveHarness.get(port: port, "/packs/game/level-1/v1", headers: ["Range": "bytes=0-9"])
            #expect(pack.status == 206 && pack.body.count == 10)
            kill(process.processIdentifier, signal)
            let rest = reader.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            #expect(
                String(decoding: rest, as: UTF8.self).contains("odr-sim serve: stopped; 10 bytes served in 1 requests"))
        }
    }

    @Test("scripts/live-demo, the README's example: live and run print the same table, and it leaves nothing behind")
    func demo() throws {
        let process = Process()
        process.executableURL = LiveHarness.repository.appendingPathComponent("scripts/live-demo")
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["ODR_SIM": LiveHarness.binary("odr-sim").path, "TMPDIR": try LiveHarness.temporaryDirectory().path]
        ) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        let started = Date()
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(Date().timeIntervalSince(started) < 60, "the README promises under a minute")
        // The two tables' lru rows: the same numbers, wait p95 aside (the last column).
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("lru ") }.map {
            $0.split(separator: " ", omittingEmptySubsequences: true).dropLast(2).joined(separator: " ")
        }
        #expect(rows.count == 2 && rows[0] == rows[1], "\(text)")
        #expect(text.contains("game/level-1%2Blevel-2%2Blevel-5"))
        let temporary = process.environment!["TMPDIR"]!
        #expect((try FileManager.default.contentsOfDirectory(atPath: temporary)).isEmpty)
        try? FileManager.default.removeItem(atPath: temporary)
    }

    @Test("odr-sim serve --help and odr-sim live --help are odr-sim-live's, with examples")
    func help() throws {
        for command in ["serve", "live"] {
            let help = try LiveHarness.run(LiveHarness.binary("odr-sim"), [command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: odr-sim \(command) <file>"), "\(help.stdout)")
            #expect(help.stdout.contains("odr-sim \(command) Scenarios/live/rehearsal.scn"))
        }
    }
}
