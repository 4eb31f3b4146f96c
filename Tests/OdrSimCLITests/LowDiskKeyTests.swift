import Foundation
import Testing

/// Issue 50: `migrate` dropped `on_low_disk` of an app moved to Background Assets as meaningless
/// there, while `validate` accepted it and the run used it, so two routes to "my game on
/// Background Assets" disagreed. ODR's low-disk notification reaches no app whose code removes
/// its own packs: the run ignores the key there, and `validate` says so.
@Suite("on_low_disk on an app-evicting platform: one rule")
struct LowDiskKeyTests {
    /// Disk 1 GB with 700 MB of other data. game (Background Assets) holds x (150 MB) from
    /// 1 m; at 10 m maps (ODR) asks for y (200 MB): 150 MB free, 50 MB short, nothing the
    /// system may purge, so one low-disk warning. Were game to hear it with release-all, its
    /// request would end at 10 m (`end …, low-disk` in events.csv); it does not.
    static func scenario(_ response: String) -> String {
        """
        duration: 1h
        platform: ios17
        system_policy: apple
        device: {capacity: 1GB, used: 700MB}
        apps:
          - id: game
            platform: background-assets
            on_low_disk: \(response)
            resources:
              - {name: x, size: 150MB, tags: [t]}
          - id: maps
            resources:
              - {name: y, size: 200MB, tags: [u]}
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: maps, install: true}
          - {at: 0, app: game, launch: true}
          - {at: 0, app: maps, launch: true}
          - {at: 1m, app: game, request: [t], id: r1}
          - {at: 10m, app: maps, request: [u], id: r2}

        """
    }

    @Test("the run of a Background Assets app is the same whatever its on_low_disk says")
    func runIgnoresTheKey() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var events: [String: String] = [:]
        for response in ["release-all", "release-unused", "ignore"] {
            try Data(Self.scenario(response).utf8).write(to: dir.appendingPathComponent("\(response).scn"))
            let result = try CLI.run(["run", "\(response).scn", "--out", response, "--no-report"], in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            events[response] = try String(
                contentsOf: dir.appendingPathComponent("\(response)/events.csv"), encoding: .utf8)
        }
        // The warning was posted (maps was short of room), and game's request did not end on it.
        #expect(events["ignore"]!.contains(",low_disk_warning,"))
        #expect(!events["release-all"]!.contains(",end,game,r1,"))
        #expect(events["release-all"] == events["ignore"])
        #expect(events["release-unused"] == events["ignore"])
    }

    @Test("validate warns that the key does nothing there; on an ODR app it does not")
    func validateWarns() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.scenario("release-all").utf8).write(to: dir.appendingPathComponent("ba.scn"))
        let warned = try CLI.run(["validate", "ba.scn"], in: dir)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(
            warned.stderr
                == """
                odr-sim: warning: ba.scn: app 'game' sets on_low_disk: release-all on background-assets, where the \
                app removes its own packs and no low-disk warning reaches it; the run ignores it (as migrate drops it)\n
                """
        )
        // The same app on ODR (no platform of its own, so no system_policy either): no warning.
        let odr = Self.scenario("release-all").replacingOccurrences(of: "    platform: background-assets\n", with: "")
            .replacingOccurrences(of: "system_policy: apple\n", with: "")
        try Data(odr.utf8).write(to: dir.appendingPathComponent("odr.scn"))
        let quiet = try CLI.run(["validate", "odr.scn"], in: dir)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
