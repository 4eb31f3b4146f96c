import Foundation
import Testing

/// Issue 29: a scenario whose app is never installed validated "ok" and ran with every
/// request failing, and no word of why.
@Suite("An app never installed")
struct NeverInstalledTests {
    static let scenario = """
    duration: 1h
    device: {capacity: 1GB}
    apps:
      - id: game
        resources:
          - {name: a, size: 10MB, tags: [t]}
      - id: maps
        resources:
          - {name: b, size: 10MB, tags: [u]}
    events:
      - {at: 0, app: maps, install: true}
      - {at: 1m, app: game, request: [t], id: r1}

    """

    @Test("validate and run warn, naming the app; an installed app gets no warning", arguments: ["validate", "run"])
    func warned(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.scenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run([command, "s.scn"] + (command == "run" ? ["--out", "o", "--no-report"] : []), in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "odr-sim: warning: s.scn: app 'game' is never installed (no {at: …, app: game, install: true} event): every request of it fails with app-not-installed\n")
    }
}
