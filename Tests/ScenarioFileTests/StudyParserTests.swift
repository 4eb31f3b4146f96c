import Foundation
import ScenarioFile
import Testing

@Suite("Study files")
struct StudyParserTests {
    static let base = """
        duration: 1d
        device: {capacity: 64GB, used: 60GB}
        apps:
          - id: game
            generate: {tags: 10, size: {median: 64MB, sigma: 0.5}}
        workload:
          - {kind: popularity, app: game, rate: 10/d, alpha: 0.8, hold: {median: 5m, sigma: 1}}

        """

    /// A study over the base scenario (written beside it) whose third line is `axes`.
    static func parse(_ axes: String, head: String = "policies: [apple, lru]") throws -> Study {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("study-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(base.utf8).write(to: dir.appendingPathComponent("base.scn"))
        let text = "scenario: base.scn\n\(head)\n\(axes)\n"
        return try StudyParser(knownPolicies: ["apple", "lru", "gdsf"]).parse(text, fileName: dir.appendingPathComponent("s.study").path)
    }

    @Test("malformed studies: line, column and message", arguments: [
        ("axes: [{path: device.used, values: [70GB]}]",
         "3:37: axis 'device.used' value '70GB': used (70 GB) is more than the capacity (64 GB)"),
        ("axes: [{path: device.usde, values: [1GB]}]",
         "3:37: axis 'device.usde' value '1GB': unknown device key 'usde'; did you mean 'used'?"),
        ("axes: [{path: device.used, values: {from: 1GB, to: 8MB, steps: 3}}]",
         "3:52: from and to must have the same unit ('GB' and 'MB')"),
        ("axes: [{path: device.used, values: {from: 1GB, to: 8GB, steps: 1}}]", "3:64: steps must be at least 2, not 1"),
        ("axes: [{path: workload.sessions.rate, values: [1/d]}]",
         "3:15: path 'workload.sessions.rate' does not resolve: no item of 'workload' has id, kind or name 'sessions'"),
        ("axes: [{path: apps.3.id, values: [x]}]", "3:15: path 'apps.3.id' does not resolve: 'apps' has 1 item, numbered from 1"),
        ("axes: [{path: device, values: [x]}]", "3:15: path 'device' is a mapping; an axis varies a single value, such as device.capacity"),
        ("axes: [{path: device.used, values: []}]", "3:36: axis 'device.used' has no values"),
        ("axes: []", "3:7: a study needs at least one axis"),
        ("axes: [{path: device.used, values: [1GB, 1GB]}]", "3:42: axis 'device.used' lists '1GB' twice"),
        ("axes: [{path: device.used, valus: [1GB]}]", "3:28: unknown axis key 'valus'; did you mean 'values'?"),
        ("axes: [{path: device.used, values: [1GB]}, {path: device.used, name: u2, values: [2GB]}]",
         "3:51: axis 'u2' varies the same place as axis 'device.used'"),
        ("axes: [{path: workload.popularity.rate, values: {from: 0/d, to: 8/d, steps: 3, scale: log}}]",
         "3:87: a log scale needs from and to above 0"),
        ("axes: [{path: device.capacity, values: [50GB]}, {path: device.used, values: [40GB, 55GB]}]",
         "3:7: the point device.capacity=50GB, device.used=55GB: used (55 GB) is more than the capacity (50 GB)"),
        ("axes: [{path: device..used, values: [1GB]}]",
         "3:15: path 'device..used' has an empty step; steps are keys, list numbers (from 1) or names, joined by dots"),
    ])
    func malformed(axes: String, expected: String) {
        do {
            _ = try Self.parse(axes)
            Issue.record("accepted: \(axes)")
        } catch {
            let text = "\(error)"
            let location = text.split(separator: ":", maxSplits: 1).last.map(String.init) ?? text
            #expect(location == expected)
        }
    }

    @Test("a baseline must be one of the study's policies")
    func baseline() {
        #expect(throws: ScenarioError.self) {
            try Self.parse("axes: [{path: device.used, values: [1GB]}]", head: "policies: [apple]\nbaseline: gdsf")
        }
    }

    @Test("ranges: log from 8MB to 128MB in 5 steps doubles; linear splits evenly; points vary the last axis fastest")
    func ranges() throws {
        let study = try Self.parse("""
            axes:
              - {name: tag, path: apps.game.generate.size.median, values: {from: 8MB, to: 128MB, steps: 5, scale: log}}
              - {name: rate, path: workload.1.rate, values: {from: 1/d, to: 2/d, steps: 3}}
            """)
        #expect(study.axes[0].values == ["8MB", "16MB", "32MB", "64MB", "128MB"])
        #expect(study.axes[1].values == ["1/d", "1.5/d", "2/d"])
        #expect(study.points.count == 15)
        #expect(study.points[0].values == ["8MB", "1/d"] && study.points[1].values == ["8MB", "1.5/d"])
        // The value reached the scenario: the generated catalog's median follows the axis.
        let small = study.points[0].scenario.apps[0].catalog.packs.map(\.size).reduce(0, +)
        let large = study.points[14].scenario.apps[0].catalog.packs.map(\.size).reduce(0, +)
        #expect(large > 8 * small)   // medians 16× apart, the same draws
        #expect(study.baseline == "apple" && study.policies == ["apple", "lru"])
    }
}
