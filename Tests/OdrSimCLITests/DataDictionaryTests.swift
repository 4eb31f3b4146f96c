import Foundation
import Testing

/// Issue 29: every CSV odr-sim writes reads in a script as it is. Python's `csv` module loads
/// each file every command writes (`scripts/check-csv-types.py`); every column must be in
/// `docs/data-dictionary.md` and every value of its type there. Before the issue, a sweep's
/// axis columns were unit strings only (`15MB`), which sort as text.
@Suite("CSV outputs against the data dictionary", .serialized)
struct DataDictionaryTests {
    static let checker = CLI.repository.appendingPathComponent("scripts/check-csv-types.py").path

    /// A study with an axis of sizes, one of rates and a zip group (tag count with tag size).
    static let study = """
        name: dictionary
        policies: [apple, lru]
        replications: 2
        scenario:
          duration: 1d
          seed: 3
          platform: unlimited
          device: {capacity: 64GB, used: 62GB}
          network: [{at: 0, bandwidth: 40Mbps, kind: wifi}]
          apps:
            - id: game
              generate: {tags: 10, size: {median: 64MB, sigma: 0.5}}
          events:
            - {at: 0, app: game, install: true}
            - {at: 0, app: game, launch: true}
          workload:
            - {kind: popularity, app: game, rate: 20/d, alpha: 0.8, hold: {median: 5m, sigma: 1}}
        axes:
          - {name: tags, path: apps.game.generate.tags, values: [5, 20], zip: content}
          - {name: tag_median, path: apps.game.generate.size.median, values: [256MB, 64MB], zip: content}
          - {name: rate, path: workload.popularity.rate, values: [10/d, 40/d]}

        """

    static func python(_ arguments: [String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }

    @Test("every CSV of run, compare, sweep, replay, mrc, bound and advise: documented columns, typed values")
    func everyOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let trace = CLI.repository.appendingPathComponent("Scenarios/traces/zipf-20k.csv").path
        let studyFile = dir.appendingPathComponent("dictionary.study")
        try Data(Self.study.utf8).write(to: studyFile)
        let out = dir.appendingPathComponent("out")
        let commands: [[String]] = [
            [
                "run", game, "--policy", "apple", "--policy", "lru", "--replications", "2", "--bound", "--no-report",
                "--out", out.appendingPathComponent("run").path,
            ],
            [
                "compare", game, "--policy", "lru", "--policy", "lfu", "--replications", "2", "--robustness",
                "--no-report", "--out", out.appendingPathComponent("compare").path,
            ],
            ["sweep", studyFile.path, "--no-report", "--out", out.appendingPathComponent("sweep").path],
            [
                "replay", trace, "--capacity", "10%", "--policy", "lru", "--bound", "--no-report", "--out",
                out.appendingPathComponent("replay").path,
            ],
            ["mrc", trace, "--points", "5", "--no-report", "--out", out.appendingPathComponent("mrc").path],
            ["bound", trace, "--capacity", "10%", "--out", out.appendingPathComponent("bound").path],
            [
                "advise", game, "--app", "odyssey", "--replications", "2", "--max-evaluations", "3", "--no-report",
                "--out", out.appendingPathComponent("advise").path,
            ],
        ]
        for command in commands {
            let result = try CLI.run(command)
            #expect(result.status == 0, "\(command.joined(separator: " ")): \(result.stderr)")
        }
        let check = try Self.python([Self.checker, out.path])
        #expect(check.status == 0, "\(check.stdout)")
        // run 8 (summary, apps, events, packs, timeseries, comparison, comparison-long, bounds), compare 5
        // (with robustness and per app), sweep 5 (results, comparison, comparison-long, and per app apps,
        // comparison-apps), replay 2, mrc 1, bound 1, advise 2.
        #expect(check.stdout.hasPrefix("24 files"), "\(check.stdout)")
        // And as a notebook reads them: pandas.read_csv with no options gives numbers in every
        // numeric column (pandas is installed by `scripts/bootstrap --tests`).
        #expect(
            check.stdout.contains("\npandas ") && check.stdout.contains(": 24 files read as they are"),
            "\(check.stdout)")

        // The sweep's axes of quantities have their numbers beside them; the zip moved tags
        // and tag size together: 2 points of it × 2 rates, not 8.
        let results = try String(contentsOf: out.appendingPathComponent("sweep/results.csv"), encoding: .utf8)
        #expect(results.hasPrefix("tags,tag_median,tag_median_bytes,rate,rate_per_s,policy,"))
        let lines = results.split(separator: "\n")
        #expect(lines.count == 1 + 4 * 2 * 2)
        #expect(lines[1].hasPrefix("5,256MB,256000000,10/d,0.00011574074074074075,apple,1,"))  // 10 / 86,400
        #expect(lines.last!.hasPrefix("20,64MB,64000000,40/d,0.000462962962962963,lru,2,"))  // 40 / 86,400

        // The checker can fail: a unit string in a byte column, and a column it does not know.
        let copy = dir.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let broken = results.replacingOccurrences(of: "5,256MB,256000000,", with: "5,256MB,256MB,")
        try Data(broken.utf8).write(to: copy.appendingPathComponent("results.csv"))
        let summary = try String(contentsOf: out.appendingPathComponent("run/summary.csv"), encoding: .utf8)
        try Data(summary.replacingOccurrences(of: "policy,replication,", with: "policy,round,").utf8)
            .write(to: copy.appendingPathComponent("summary.csv"))
        let failed = try Self.python([Self.checker, copy.path])
        #expect(failed.status == 1)
        #expect(
            failed.stdout.contains("results.csv:2: 'tag_median_bytes' is '256MB', not an integer"), "\(failed.stdout)")
        #expect(failed.stdout.contains("summary.csv: column 'round' is not in"), "\(failed.stdout)")
        // (object in pandas 2, str in pandas 3: text either way)
        #expect(failed.stdout.contains("results.csv: pandas reads 'tag_median_bytes' as "), "\(failed.stdout)")
        #expect(failed.stdout.contains(", not as numbers\npandas: 1 problems in 2 files"), "\(failed.stdout)")
    }

    @Test("comparison-long.csv holds comparison.csv's numbers, one per row")
    func longForm() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "compare", CLI.repository.appendingPathComponent("Scenarios/game.scn").path, "--policy", "lru",
            "--policy", "fifo", "--replications", "2", "--no-report", "--out", dir.appendingPathComponent("c").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let wide = try String(contentsOf: dir.appendingPathComponent("c/comparison.csv"), encoding: .utf8).split(
            separator: "\n")
        let long = try String(contentsOf: dir.appendingPathComponent("c/comparison-long.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(long[0] == "policy,baseline,metric,unit,statistic,value")
        // Every number of the wide file is a row of the long one: per metric 4 statistics for the
        // baseline (lru), 7 for fifo (with its differences), less the bounds of intervals without
        // any (bytes or seconds the same in every replication), which are empty in the wide file.
        let numbers = wide.dropFirst().map { row in
            row.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).filter { !$0.isEmpty }.count
        }.reduce(0, +)
        let metrics = (wide[0].split(separator: ",").count - 2) / 7
        #expect(numbers > metrics * 4 && long.count == 1 + numbers)
        // fifo's mean re-download bytes and its paired difference, in both forms.
        let header = wide[0].split(separator: ",").map(String.init)
        let fifo = wide[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(fifo[0] == "fifo")
        let mean = fifo[header.firstIndex(of: "redownload_bytes_mean")!]
        let diff = fifo[header.firstIndex(of: "redownload_bytes_diff_vs_lru")!]
        #expect(long.contains("fifo,lru,redownload_bytes,bytes,mean,\(mean)"))
        #expect(long.contains("fifo,lru,redownload_bytes,bytes,diff,\(diff)"))
        #expect(!long.contains { $0.hasPrefix("lru,lru,redownload_bytes,bytes,diff,") })
    }
}
