import Foundation
import Metrics
import ODRCore
import ODRPolicies
import Simulation
import TestSupport
import Testing

@testable import Experiments

/// A study's serial end reads its runs' rows as made on the runs' threads
/// (``SweepResults/RunLines``), not parsed back from its lines: the same numbers, files and
/// comparisons as the lines give, at any `--jobs`.
@Suite("Study lines")
struct StudyLinesTests {
    /// Two apps that outgrow a small disk, on three points whose labels need quoting or not;
    /// waits are fractions of a second, so seconds are written at six decimals. With
    /// `overfillsLastPoint`, the last point's script grows other data past the disk at 100 s:
    /// a notice in each of its runs.
    static func plan(seed: UInt64 = 7, overfillsLastPoint: Bool = false) throws -> (
        plan: ExperimentPlan, values: [[String]]
    ) {
        var random = SplitMix64(seed: seed)
        let values = [["plain"], ["with, comma"], ["say \"hi\""]]
        let points = try values.indices.map { p in
            let catalogs = try (0..<2).map { a in
                try Catalog(
                    resources: (0..<6).map {
                        Resource(name: "r\(a)-\($0)", size: 7_000_000 + Int64($0 + a) * 3_333_333, tags: ["t\($0)"])
                    }, profile: .unlimited)
            }
            var events = (0..<2).flatMap {
                [ScenarioEvent(time: 0, action: .install($0)), ScenarioEvent(time: 0, action: .launch($0))]
            }
            for k in 0..<60 {
                let app = random.below(2)
                let time = Double(k) * 7.3 + Double(random.below(1_000)) / 997
                let tag = catalogs[app].tagID(named: "t\(random.below(6))")!
                events.append(
                    ScenarioEvent(
                        time: time,
                        action: .request(
                            app, tags: RequestTags([tag]), key: RequestKey(k), priority: .normal, optional: false)))
                events.append(ScenarioEvent(time: time + 3.1, action: .end(app, key: RequestKey(k))))
            }
            if overfillsLastPoint && p == values.count - 1 {
                events.append(ScenarioEvent(time: 100, action: .disk(150_000_000)))
            }
            return ExperimentPlan.Point(
                Scenario(
                    duration: 600, platform: .unlimited,
                    device: DeviceSpec(capacity: 100_000_000, used: Int64(p) * 20_000_000),
                    network: [NetworkPhase(at: 0, bandwidth: 30e6)],
                    apps: catalogs.enumerated().map { AppSpec(id: "app\($0.offset)", catalog: $0.element) },
                    events: events.sorted { $0.time < $1.time }, requestLabels: (0..<60).map { "q\($0)" }))
        }
        return (
            ExperimentPlan(points: points, policies: [ApplePolicy.descriptor, LRUPolicy.descriptor], replications: 3),
            values
        )
    }

    static func runs(
        _ plan: ExperimentPlan, values: [[String]], jobs: Int, keepsRunNumbers: Bool = false
    ) throws -> [ExperimentRunner.RunResult] {
        try ExperimentRunner.study(
            plan, values: values, platformMetrics: false, jobs: jobs, keepsRunNumbers: keepsRunNumbers
        ).run()
    }

    /// `results.csv`'s lines and `apps.csv`'s (with their run index) of the runs `indices`, kept
    /// whole: the lines each run made on its own thread, in canonical order.
    static func lines(_ runs: [ExperimentRunner.RunResult], indices: [Int]) -> (runs: [String], apps: [(Int, String)]) {
        let made = runs.map { $0.lines! }
        return (made.map(\.result), zip(indices, made).flatMap { index, lines in lines.apps.map { (index, $0) } })
    }

    /// The written files as they were made before the rows came from the runs: the whole
    /// text parsed with the reader, each record written again with the axis's numbers.
    static func rewritten(_ header: String, _ lines: [String], numbers: [String: Double]) throws -> String {
        try CSVReader.records(header + lines.joined()).dropFirst().map { record in
            let label = record.fields[0]
            return CSV.row([label, numbers[label].map { String(Int64($0)) } ?? ""] + record.fields[1...])
        }.joined()
    }

    @Test("rows made on the runs' threads are the lines read back, at --jobs 1 and 3")
    func rowsAreTheLinesReadBack() throws {
        let (plan, values) = try Self.plan()
        let indices = Array(plan.runs.indices)
        let one = try Self.runs(plan, values: values, jobs: 1)
        let three = try Self.runs(plan, values: values, jobs: 3)
        #expect(one.allSatisfy { $0.lines != nil && $0.waitDistribution.isEmpty && $0.purgeEpisodes.isEmpty })
        let (lines, apps) = Self.lines(one, indices: indices)
        let (lines3, apps3) = Self.lines(three, indices: indices)
        #expect(lines == lines3 && apps.map(\.1) == apps3.map(\.1))
        var parsed = try SweepResults(axisNames: ["x"], baseline: "apple", lines: lines, appLines: apps.map(\.1))
            .prepared(jobs: 1, app: "app1")
        // Purges happened and waits are fractions of a second: the numbers are worth comparing.
        let rows = try parsed.groups().flatMap(\.rows)
        #expect(rows.contains { $0[.purgedBytes] > 0 } && rows.contains { $0[.waitMean] != $0[.waitMean].rounded() })
        let numbers = ["plain": 1.0, "with, comma": 2, "say \"hi\"": 3]
        parsed.axisNumbers = [SweepResults.AxisNumbers(column: "x_n", values: numbers)]
        // Row for row, bit for bit (no summary metric is NaN here): so a fold of the runs'
        // rows is a fold of the lines (`StudyFoldTests` holds the files of the two alike).
        #expect(three.map { $0.lines!.row } == rows)
        let head = String(CSV.row(["x", "x_n"]).dropLast()) + ","
        #expect(
            try parsed.resultsFile() == head + SummaryRow.header(platformMetrics: false)
                + Self.rewritten(parsed.resultsHeader, lines, numbers: numbers))
        #expect(
            try parsed.appsFile() == head + AppRow.header(platformMetrics: false)
                + Self.rewritten(parsed.appsHeader, apps.map(\.1), numbers: numbers))
    }

    @Test(
        """
        a plain study's runs keep only the numbers their lines hold, bit for bit; one that an objective reads keeps \
        them as run
        """)
    func runsKeepTheWrittenNumbers() throws {
        let (plan, values) = try Self.plan()
        let runs = try Self.runs(plan, values: values, jobs: 2)
        let asRun = try Self.runs(plan, values: values, jobs: 2, keepsRunNumbers: true)
        let (lines, apps) = Self.lines(runs, indices: Array(plan.runs.indices))
        let parsed = try SweepResults(axisNames: ["x"], baseline: "apple", lines: lines, appLines: apps.map(\.1))
            .prepared(jobs: 1)
        func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }
        // What an objective, --precision and --robustness read: the run's own rows.
        #expect(try runs.map { bits($0.summary.values) } == parsed.groups().flatMap(\.rows).map { bits($0.values) })
        #expect(
            try runs.flatMap(\.apps).map { bits($0.values) }
                == parsed.appGroups().flatMap(\.rows).map { bits($0.values) })
        // The numbers as run carry the platform metrics too, which this study's files do not.
        let written = Metric.columns(platformMetrics: false).count
        #expect(written < Metric.allCases.count && runs.allSatisfy { $0.summary.values.count == written })
        #expect(asRun.allSatisfy { $0.summary.values.count == Metric.allCases.count })
        #expect(zip(runs, asRun).allSatisfy { $0.lines?.result == $1.lines?.result })
    }

    @Test("results.csv and apps.csv are handed over in pieces of 4,096 lines, in order, at any --jobs")
    func filesStreamInPieces() throws {
        let labels = ["plain", "with, comma", "say \"hi\""]
        let metrics = Metric.columns(platformMetrics: false).count
        let lines = (0..<10_000).map {
            SweepResults.line(
                values: [labels[$0 % 3]],
                summary: SummaryRow(
                    policy: "lru", replication: $0 + 1, seed: 7, values: Array(repeating: Double($0), count: metrics)))
        }
        let numbers = ["plain": 1.0, "with, comma": 2, "say \"hi\"": 3]
        for jobs in [1, 3] {
            var results = SweepResults(axisNames: ["x"], baseline: "lru", lines: lines, appLines: lines)
            results = try results.prepared(jobs: jobs)
            var pieces: [String] = []
            try results.writeResultsFile { pieces.append($0) }
            // The header, then 4,096 + 4,096 + 1,808 lines.
            #expect(
                pieces.count == 4 && pieces.dropFirst().map { $0.filter { $0 == "\n" }.count } == [4_096, 4_096, 1_808])
            #expect(pieces.joined() == results.resultsCSV)
            results.axisNumbers = [SweepResults.AxisNumbers(column: "x_n", values: numbers)]
            pieces = []
            try results.writeAppsFile { pieces.append($0) }
            let head = String(CSV.row(["x", "x_n"]).dropLast()) + "," + AppRow.header(platformMetrics: false)
            #expect(pieces.count == 4)
            #expect(pieces.joined() == head + (try Self.rewritten("x\n", lines, numbers: numbers)))
        }
    }

    @Test("lines are cut into points where their axis values change, quoted or not; an empty line stays put")
    func pointRanges() throws {
        let lines = ["a,1\n", "\n", "a,2\n", "\"b,c\",1\n", "\"b,c\",2\n", "a,3\n"]
        let ranges = try SweepResults.pointRanges(lines, axes: 1)
        #expect(ranges.map(\.values) == [["a"], ["b,c"], ["a"]])
        #expect(ranges.map(\.range) == [0..<3, 3..<5, 5..<6])
    }

    @Test("a line is split as the CSV reader reads it, quoted or not")
    func fieldsAreTheReadersFields() throws {
        var random = SplitMix64(seed: 11)
        let pieces = ["", "a", "12.500000", "x,y", "say \"hi\"", "two\nlines", "cr\r", "é", "-0.000001"]
        for _ in 0..<2_000 {
            let fields = (0..<(1 + random.below(6))).map { _ in pieces[random.below(pieces.count)] }
            let line = CSV.row(fields)
            #expect(
                try SweepResults.fields(of: line) == CSVReader.records(line).map(\.fields), "\(line.debugDescription)")
        }
    }

    struct Failure: Error, Equatable { let at: Int }

    @Test("ordered parallel work gives the serial result at any thread count, and the first chunk's error")
    func orderedParallel() throws {
        let serial = (0..<10_000).map { $0 * $0 % 7_919 }
        for jobs in 1...5 {
            #expect(
                try OrderedParallel.map(10_000, jobs: jobs, grain: 100) { range in range.map { $0 * $0 % 7_919 } }
                    == serial)
            #expect(throws: Failure(at: 3_000)) {
                try OrderedParallel.map(10_000, jobs: jobs, grain: 100) { range in
                    for bad in [3_000, 7_000] where range.contains(bad) { throw Failure(at: bad) }
                    return Array(range)
                }
            }
        }
        let tasks: [@Sendable () throws -> String] = (0..<9).map { k in { String(k) } }
        #expect(try OrderedParallel.each(tasks, jobs: 4) == (0..<9).map(String.init))
    }
}
