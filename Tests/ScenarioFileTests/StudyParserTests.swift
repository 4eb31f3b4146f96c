import Foundation
import Quantities
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
        return try StudyParser(knownPolicies: ["apple", "lru", "gdsf"]).parse(
            text, fileName: dir.appendingPathComponent("s.study").path)
    }

    @Test(
        "malformed studies: line, column and message",
        arguments: [
            (
                "axes: [{path: device.used, values: [70GB]}]",
                "3:37: axis 'device.used' value '70GB': used (70 GB) is more than the capacity (64 GB)"
            ),
            (
                "axes: [{path: device.usde, values: [1GB]}]",
                "3:37: axis 'device.usde' value '1GB': unknown device key 'usde'; did you mean 'used'?"
            ),
            (
                "axes: [{path: device.used, values: {from: 1GB, to: 8MB, steps: 3}}]",
                "3:52: from and to must have the same unit ('GB' and 'MB')"
            ),
            (
                "axes: [{path: device.used, values: {from: 1GB, to: 8GB, steps: 1}}]",
                "3:64: steps must be at least 2, not 1"
            ),
            (
                "axes: [{path: workload.sessions.rate, values: [1/d]}]",
                """
                3:15: path 'workload.sessions.rate' does not resolve: no item of 'workload' has id, kind or name \
                'sessions'
                """
            ),
            (
                "axes: [{path: apps.3.id, values: [x]}]",
                "3:15: path 'apps.3.id' does not resolve: 'apps' has 1 item, numbered from 1"
            ),
            (
                "axes: [{path: device, values: [x]}]",
                "3:15: path 'device' is a mapping; an axis varies a single value, such as device.capacity"
            ),
            ("axes: [{path: device.used, values: []}]", "3:36: axis 'device.used' has no values"),
            ("axes: []", "3:7: a study needs at least one axis"),
            ("axes: [{path: device.used, values: [1GB, 1GB]}]", "3:42: axis 'device.used' lists '1GB' twice"),
            ("axes: [{path: device.used, valus: [1GB]}]", "3:28: unknown axis key 'valus'; did you mean 'values'?"),
            (
                "axes: [{path: device.used, values: [1GB]}, {path: device.used, name: u2, values: [2GB]}]",
                "3:51: axis 'u2' varies the same place as axis 'device.used'"
            ),
            (
                "axes: [{path: workload.popularity.rate, values: {from: 0/d, to: 8/d, steps: 3, scale: log}}]",
                "3:87: a log scale needs from and to above 0"
            ),
            (
                "axes: [{path: device.capacity, values: [50GB]}, {path: device.used, values: [40GB, 55GB]}]",
                "3:7: the point device.capacity=50GB, device.used=55GB: used (55 GB) is more than the capacity (50 GB)"
            ),
            (
                "axes: [{path: device..used, values: [1GB]}]",
                """
                3:15: path 'device..used' has an empty step; steps are keys, list numbers (from 1) or names, joined \
                by dots
                """
            ),
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

    @Test(
        """
        points beside the grid: an axis left out keeps the base scenario's value; a baseline point and policy is one \
        of the points
        """
    )
    func explicitPoints() throws {
        let study = try Self.parse(
            """
            axes: [{path: device.used, values: [50GB, 55GB]}, {name: rate, path: workload.popularity.rate, values: \
            [5/d, 20/d]}]
            points: [{rate: 40/d}]
            baseline: {point: {rate: 40/d}, policy: lru}
            """)
        #expect(study.points.count == 5)
        #expect(study.points[4].values == ["", "40/d"])
        #expect(study.points[4].scenario.device.used == 60_000_000_000)  // the base's
        #expect(study.baselinePoint == 4 && study.baseline == "lru")
        // A baseline point may be a grid point too, named by every axis.
        let grid = try Self.parse(
            "axes: [{path: device.used, values: [50GB, 55GB]}]\nbaseline: {point: {device.used: 55GB}, policy: apple}")
        #expect(grid.baselinePoint == 1)
    }

    @Test(
        "explicit points and baseline points: line, column and message",
        arguments: [
            (
                "axes: [{path: device.used, values: [50GB]}]\npoints: [{used: 40GB}]",
                "4:11: no axis is named 'used'; expected one of: device.used"
            ),
            (
                "axes: [{path: device.used, values: [50GB]}]\npoints: [{device.used: 50GB}]",
                "4:10: the point is already in the study"
            ),
            (
                "axes: [{path: device.used, values: [50GB]}]\npoints: [{device.used: 70GB}]",
                "4:10: the point: used (70 GB) is more than the capacity (64 GB)"
            ),
            (
                "axes: [{path: device.used, values: [50GB]}]\nbaseline: {point: {device.used: 40GB}, policy: apple}",
                "4:19: the baseline point is not one of the study's points (its axes' values, or one of `points`)"
            ),
            (
                "axes: [{path: device.used, values: [50GB]}]\nbaseline: {point: {device.used: 50GB}}",
                "4:11: a baseline point names its policy too: {point: {platform: ios17}, policy: apple}"
            ),
            (
                "axes: [{path: device.used, values: [50GB]}]\nbaseline: {point: {device.used: 50GB}, policy: gdsf}",
                "4:48: baseline 'gdsf' is not among the study's policies (apple, lru)"
            ),
        ])
    func explicitPointErrors(text: String, expected: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            let message = "\(error)"
            #expect(message.split(separator: ":", maxSplits: 1).last.map(String.init) == expected, "\(message)")
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
        let study = try Self.parse(
            """
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
        #expect(large > 8 * small)  // medians 16× apart, the same draws
        #expect(study.baseline == "apple" && study.policies == ["apple", "lru"])
    }

    @Test("zip groups: axes of one group move together, value by value; the groups form the product")
    func zipGroups() throws {
        let study = try Self.parse(
            """
            axes:
              - {name: tags, path: apps.game.generate.tags, values: [5, 10, 20], zip: budget}
              - {name: used, path: device.used, values: [50GB, 60GB]}
              - {name: median, path: apps.game.generate.size.median, values: [128MB, 64MB, 32MB], zip: budget}
            """)
        // 3 (tags with median) × 2 (used), not 3 × 2 × 3; the group is at its first axis's
        // place, so it varies slowest, and its axes keep their own columns.
        #expect(
            study.points.map(\.values) == [
                ["5", "50GB", "128MB"], ["5", "60GB", "128MB"],
                ["10", "50GB", "64MB"], ["10", "60GB", "64MB"],
                ["20", "50GB", "32MB"], ["20", "60GB", "32MB"],
            ])
        // The generated catalogs follow the tags axis through the zip.
        let tagCounts = study.points.map { $0.scenario.apps[0].catalog.tags.count }
        #expect(tagCounts == [5, 5, 10, 10, 20, 20])
    }

    @Test("a zip group's axes need as many values each, and the error is at the one that differs")
    func zipMismatch() {
        do {
            _ = try Self.parse(
                """
                axes: [{path: device.used, values: [50GB, 60GB], zip: z}, {path: device.capacity, values: [64GB], \
                zip: z}]
                """
            )
            Issue.record("accepted a zip group of 2 and 1 values")
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    """
                    3:91: axis 'device.capacity' moves with 'device.used' (zip: z), so it needs 2 values, as \
                    'device.used' has, not 1
                    """
                ))
        }
    }

    @Test("axis quantities: the number behind each label, the column named by the kind")
    func axisQuantities() throws {
        #expect(AxisQuantity.numbers(of: ["8MB", "1.5GiB"])?.suffix == "_bytes")
        #expect(AxisQuantity.numbers(of: ["8MB", "1.5GiB"])?.values == [8_000_000, 1.5 * 1_073_741_824])
        #expect(AxisQuantity.numbers(of: ["40Mbps", "1Gbps"])?.values == [40e6, 1e9])
        #expect(AxisQuantity.numbers(of: ["90s", "2m", "1d8h"])?.values == [90, 120, 115_200])
        #expect(AxisQuantity.numbers(of: ["90s", "2m"])?.suffix == "_s")
        #expect(AxisQuantity.numbers(of: ["24/d", "1/h"])?.values == [24.0 / 86_400, 1.0 / 3_600])
        #expect(AxisQuantity.numbers(of: ["25%", "50%"])?.values == [0.25, 0.5])
        #expect(AxisQuantity.numbers(of: ["1", "2.5"]) == nil)  // already numbers
        #expect(AxisQuantity.numbers(of: ["lru", "gdsf"]) == nil)  // names
        #expect(AxisQuantity.numbers(of: ["1GB", "25%"]) == nil)  // no one kind reads both
    }
}
