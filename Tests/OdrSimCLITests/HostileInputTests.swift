import Foundation
import Metrics
import Testing

/// Each input that once crashed odr-sim, hung it, or let its regression gate pass by
/// accident (issue 15), as a user would give it: a one-line error naming the place, exit
/// status 1, nothing written, within a second; or, for a runaway workload, a warning, a
/// progress line and a clear stop.
@Suite("Hostile and careless input", .serialized)
struct HostileInputTests {
    /// Runs odr-sim in a fresh directory holding `files`; returns the result, the time it
    /// took and the directory (removed by the caller).
    func run(_ arguments: [String], files: [String: String] = [:], environment: [String: String] = [:])
        throws -> (CLI.Result, seconds: Double, dir: URL)
    {
        let dir = try CLI.temporaryDirectory()
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        let start = Date()
        let result = try CLI.run(arguments, in: dir, environment: environment)
        return (result, Date().timeIntervalSince(start), dir)
    }

    /// Exit 1 (64 for a command-line option's value, `--capacity ten`), one line on stderr
    /// that starts with `prefix`, nothing on stdout, no report.
    func expectOneLineError(
        _ result: CLI.Result, startingWith prefix: String, in dir: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == (prefix.hasPrefix("odr-sim: --") ? 64 : 1), sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path),
            sourceLocation: sourceLocation)
    }

    static let baseline = "Reports/baselines/game.csv"

    @Test("a CRLF baseline (Python's csv module) is read in full: an unchanged run passes, a changed one fails")
    func crlfBaseline() throws {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent(Self.baseline), encoding: .utf8)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        let scenario = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let (ok, _, dir) = try run(["check", scenario, "--baseline", "b.csv"], files: ["b.csv": crlf])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(
            ok.stdout.contains(
                "(5 policies × 5 replications × \(SummaryRow.metricColumns.count) metrics, tolerance 2%, pairwise)"))
        // One value changed in a CRLF file is found: apple's requests in replication 1, doubled.
        var rows = crlf.components(separatedBy: "\r\n")
        let column = rows[0].components(separatedBy: ",").firstIndex(of: "requests")!
        var fields = rows[1].components(separatedBy: ",")
        fields[column] = String(Int(fields[column])! * 2)
        rows[1] = fields.joined(separator: ",")
        try Data(rows.joined(separator: "\r\n").utf8).write(to: dir.appendingPathComponent("c.csv"))
        let moved = try CLI.run(["check", scenario, "--baseline", "c.csv"], in: dir)
        #expect(moved.status == 1)
        #expect(moved.stdout.hasPrefix("apple replication 1: requests moved from"))
    }

    @Test("doubling apple's redownload_bytes in every replication fails in every replication")
    func doubledRedownloads() throws {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent(Self.baseline), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let column = lines[0].split(separator: ",").firstIndex(of: "redownload_bytes")!
        for i in 1..<lines.count where lines[i].hasPrefix("apple,") {
            var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[column] = String(Int64(fields[column])! * 2)
            lines[i] = fields.joined(separator: ",")
        }
        let scenario = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let (result, _, dir) = try run(
            ["check", scenario, "--baseline", "b.csv", "--junit", "check.xml"],
            files: ["b.csv": lines.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1)
        let failures = result.stdout.split(separator: "\n").filter { $0.contains("redownload_bytes moved") }
        #expect(failures.count == 5)
        let junit = try String(contentsOf: dir.appendingPathComponent("check.xml"), encoding: .utf8)
        // A coverage case and one case per policy and metric; one failing (apple's redownload_bytes).
        #expect(
            junit.contains(
                """
                <testsuites name=\"odr-sim check\" tests=\"\(1 + 5 * SummaryRow.metricColumns.count)\" \
                failures=\"1\" errors=\"0\">
                """
            ))
    }

    @Test("a baseline with a header and no rows fails, and so does one from another scenario")
    func emptyOrForeignBaseline() throws {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent(Self.baseline), encoding: .utf8)
        let header = String(text.prefix { $0 != "\n" }) + "\n"
        let scenario = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let other = CLI.repository.appendingPathComponent("Scenarios/photo-filters.scn").path
        let (empty, seconds, dir) = try run(["check", scenario, "--baseline", "b.csv"], files: ["b.csv": header])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(empty.status == 1)
        #expect(empty.stdout.contains("the baseline has no rows: there is nothing to compare"))
        #expect(seconds < 1)
        let foreign = try CLI.run([
            "check", other, "--baseline", CLI.repository.appendingPathComponent(Self.baseline).path,
        ])
        #expect(foreign.status == 1)
        #expect(foreign.stdout.contains("the baseline was made from another scenario"))
    }

    @Test("replications: 1000000000 is an error at its place, not an allocation of 64 GB")
    func hugeReplications() throws {
        let (result, seconds, dir) = try run(
            ["run", "s.scn", "--out", "out"],
            files: [
                "s.scn": "duration: 1h\nreplications: 1000000000\ndevice: {capacity: 1000MB}\n"
            ])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectOneLineError(result, startingWith: "s.scn:2:15: replications must be at most 10000", in: dir)
        #expect(seconds < 1)
        let flag = try CLI.run(["run", "s.scn", "--replications", "20000"], in: dir)
        #expect(flag.status != 0)
        #expect(flag.stderr.contains("--replications must be between 1 and 10000"))
    }

    @Test("a sampling interval that would keep millions of rows is refused at its place")
    func tinySample() throws {
        let (result, seconds, dir) = try run(
            ["run", "s.scn", "--out", "out"],
            files: [
                "s.scn": "duration: 3650d\nsample: 1ms\ndevice: {capacity: 1000MB}\n"
            ])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectOneLineError(
            result,
            startingWith: "s.scn:2:9: sample 1ms takes 3.15e+11 samples over the duration; at most 1000000 per run",
            in: dir)
        #expect(seconds < 1)
        try Data("duration: 3650d\ndevice: {capacity: 1000MB}\n".utf8).write(to: dir.appendingPathComponent("t.scn"))
        let flag = try CLI.run(["run", "t.scn", "--sample", "1s", "--out", "out"], in: dir)
        expectOneLineError(
            flag, startingWith: "odr-sim: --sample: '1s' takes 3.15e+08 samples over 10 years; at most 1000000 per run",
            in: dir)
    }

    @Test("a trace whose sizes add up past 2^63 bytes is an error at the line, not a trap")
    func sizesPastInt64() throws {
        let big = "9223372036854775807"
        let (result, seconds, dir) = try run(
            ["replay", "t.csv", "--capacity", "1GB", "--out", "out"],
            files: ["t.csv": "time,obj_id,size\n1,1,\(big)\n2,2,\(big)\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectOneLineError(
            result, startingWith: "t.csv:3: the requests up to this line total more than 9223372036854775807 bytes",
            in: dir)
        #expect(seconds < 1)
        // The same object twice overflows the requested bytes too.
        let twice = try CLI.run(["replay", "t2.csv", "--capacity", "1GB", "--out", "out"], in: dir)
        #expect(twice.status == 1)
        // One such object alone is fine: a miss that stores nothing.
        try Data("time,obj_id,size\n1,1,\(big)\n".utf8).write(to: dir.appendingPathComponent("t3.csv"))
        let one = try CLI.run(["replay", "t3.csv", "--capacity", "1GB", "--out", "out3"], in: dir)
        #expect(one.status == 0, "\(one.stderr)")
    }

    @Test(
        """
        trace layout options: a space-separated trace reads with --columns; contradictory or malformed options are \
        one-line errors
        """
    )
    func traceLayoutOptions() throws {
        let (ok, _, dir) = try run(
            [
                "replay", "t.txt", "--columns", "time=1,id=2,size=3", "--delimiter", "space", "--capacity", "100",
                "--out", "good", "--no-report",
            ],
            files: ["t.txt": "1 7 40\n2 8 40\n3 7 40\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(ok.status == 0, "\(ok.stderr)")
        // 3 requests, the last one a hit: 2 misses.
        let summary = try String(contentsOf: dir.appendingPathComponent("good/summary.csv"), encoding: .utf8)
        #expect(summary.split(separator: "\n").last?.hasPrefix("lru,100,3,2,120,80,") == true, "\(summary)")
        let cases: [([String], String)] = [
            (["--no-header"], "odr-sim: --no-header needs --columns"),
            (["--columns", "id=1,size=0"], "odr-sim: --columns: 'size=0': columns are counted from 1"),
            (["--columns", "id=1,bytes=2"], "odr-sim: --columns: 'bytes=2' is not NAME=N"),
            (["--columns", "id=2,size=2"], "odr-sim: --columns: id and size are both column 2"),
            (["--columns", "time=1"], "odr-sim: --columns: 'time=1' must give id and size"),
            (["--delimiter", "ab"], "odr-sim: --delimiter: 'ab' is not one character"),
            (["--format", "parquet"], "odr-sim: --format: 'parquet' is not a trace format"),
            (
                ["--format", "oracleGeneral", "--delimiter", "space"],
                "odr-sim: --columns, --delimiter and --header describe text traces"
            ),
            (
                ["--columns", "time=1,id=2,size=3", "--delimiter", ","],
                "t.txt:1: found 1 field, but --columns names column 3"
            ),
        ]
        for (options, message) in cases {
            let result = try CLI.run(["replay", "t.txt", "--capacity", "100", "--out", "bad"] + options, in: dir)
            expectOneLineError(result, startingWith: message, in: dir)
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad").path))
        }
    }

    @Test("bound: a trace over FOO's limit gets PFOO-L and a one-line reason; bad capacities are one-line errors")
    func boundLimits() throws {
        let (ok, _, dir) = try run(
            ["bound", "t.csv", "--capacity", "10,50%", "--foo-max-requests", "3", "--out", "good"],
            files: ["t.csv": "time,obj_id,size\n1,1,5\n2,2,5\n3,1,5\n4,2,5\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("FOO: the trace has 4 requests, more than the 3 it takes"), "\(ok.stdout)")
        let csv = try String(contentsOf: dir.appendingPathComponent("good/bounds.csv"), encoding: .utf8).split(
            separator: "\n")
        // 10 bytes hold both objects: PFOO-L allows the 2 cold misses of 4; FOO left empty.
        #expect(csv[1] == "10,4,0.500000,0.500000,0.500000,,,,", "\(csv)")
        let bad = try CLI.run(["bound", "t.csv", "--capacity", "ten", "--out", "out"], in: dir)
        expectOneLineError(bad, startingWith: "odr-sim: --capacity:", in: dir)
        let missing = try CLI.run(["bound", "missing.csv", "--capacity", "10", "--out", "out"], in: dir)
        expectOneLineError(missing, startingWith: "missing.csv: cannot open", in: dir)
    }

    @Test("a 2 GB file of NUL bytes fails at line 1 at once")
    func nulBytes() throws {
        let (_, _, dir) = try run(["--version"])
        defer { try? FileManager.default.removeItem(at: dir) }
        // A sparse file: 2 GB of zeros that take no disk.
        let path = dir.appendingPathComponent("zeros.csv").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 2_000_000_000) == 0)
        let start = Date()
        let result = try CLI.run(["replay", "zeros.csv", "--capacity", "1GB", "--out", "out"], in: dir)
        expectOneLineError(result, startingWith: "zeros.csv:1: binary data (a NUL byte)", in: dir)
        #expect(Date().timeIntervalSince(start) < 1)
        // Text with no line break at all is refused after 1 MiB too.
        try Data(String(repeating: "x", count: 3 << 20).utf8).write(to: dir.appendingPathComponent("long.csv"))
        let long = try CLI.run(["replay", "long.csv", "--capacity", "1GB", "--out", "out"], in: dir)
        expectOneLineError(long, startingWith: "long.csv:1: the line is longer than 1 MiB", in: dir)
    }

    @Test("generate: {tags: 10000000} is refused by the platform's pack limit before anything is generated")
    func hugeGeneratedCatalog() throws {
        let (result, seconds, dir) = try run(
            ["validate", "s.scn"],
            files: [
                "s.scn":
                    """
                duration: 1h\ndevice: {capacity: 1000MB}\napps:\n  - id: a\n    generate: {tags: 10000000, size: \
                {median: 1MB, sigma: 0.5}}\n
                """
            ])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectOneLineError(
            result,
            startingWith:
                """
                s.scn:5:22: tags must be at most 1000 (each generated tag is an asset pack, and ios17 allows 1000 \
                packs per app)
                """,
            in: dir)
        #expect(seconds < 1)
    }

    static let flood = """
        duration: 3650d
        device: {capacity: 64GB}
        apps:
          - id: a
            resources:
              - {name: r, size: 10MB, tags: [t]}
        events:
          - {at: 0, app: a, install: true}
          - {at: 0, app: a, launch: true}
        workload:
          - {kind: popularity, app: a, rate: 1000000/s, alpha: 0.9, hold: {median: 1s, sigma: 0.5}}

        """

    @Test("a workload of 10^14 events: validate warns, run refuses it before running, at once, with no report")
    func runawayWorkload() throws {
        let (validate, seconds, dir) = try run(["validate", "flood.scn"], files: ["flood.scn": Self.flood])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(validate.status == 0)
        #expect(seconds < 1)
        // 10^6/s × 3650 d × (request + end) = 6.3 × 10^14.
        #expect(validate.stdout.contains("about 6.3e+14 workload events per run"))
        #expect(
            validate.stderr.hasPrefix(
                "odr-sim: warning: flood.scn: the workload makes about 6.3e+14 events per run (popularity1: 6.3e+14)"))
        #expect(
            validate.stderr.contains(
                "beyond --max-events 1000000000, so it is refused before running (raise --max-events to run it anyway)")
        )

        // Issue 24: refused up front (the main before it ran until --max-events stopped it).
        let start = Date()
        let run = try CLI.run(
            ["run", "flood.scn", "--out", "out"], in: dir, environment: ["ODR_SIM_PROGRESS": "always"])
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(run.status == 1)
        #expect(
            run.stderr
                == """
                odr-sim: flood.scn: the workload makes about 6.3e+14 events per run (popularity1: 6.3e+14), about \
                10 years per run; beyond --max-events 1000000000, so it is refused before running (raise \
                --max-events to run it anyway)\n
                """
        )
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("replay shows its progress with an estimate")
    func replayProgress() throws {
        let trace = CLI.repository.appendingPathComponent("Tests/Fixtures/traces/cloudphysics.csv").path
        try #require(FileManager.default.fileExists(atPath: trace))
        let (result, _, dir) = try run(
            ["replay", trace, "--capacity", "20297697", "--policy", "lru", "--policy", "fifo", "--out", "out"],
            environment: ["ODR_SIM_PROGRESS": "always"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("/2 policies · "))
        #expect(result.stderr.contains(" left"))
    }

    @Test("a trace line with more or fewer fields than the header is an error naming it")
    func fieldCount() throws {
        let (result, _, dir) = try run(
            ["replay", "t.csv", "--capacity", "1GB", "--out", "out"],
            files: ["t.csv": "time,obj_id,size\n1,1,10\n2,2,10,7\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectOneLineError(result, startingWith: "t.csv:3: found 4 fields, but the header names 3", in: dir)
        // A quoted field may hold a comma: it is one field.
        try Data("time,obj_id,size,app\n1,1,10,\"mail, work\"\n".utf8).write(to: dir.appendingPathComponent("q.csv"))
        #expect(try CLI.run(["replay", "q.csv", "--capacity", "1GB", "--out", "out"], in: dir).status == 0)
    }

    @Test(
        """
        temporary report directories of ended processes are removed, never one of a live process nor one without \
        odr-sim's manifest
        """
    )
    func staleTemporaryDirectories() throws {
        let scenario = smallScenario
        let (_, _, dir) = try run(["--version"], files: ["s.scn": scenario])
        defer { try? FileManager.default.removeItem(at: dir) }
        // A process that has ended: its number is free.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = ended.processIdentifier
        let live = ProcessInfo.processInfo.processIdentifier
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, 255)
        let hostName = String(cString: host).filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
        // Removed: this host's of an ended process (any name), the earlier form for this
        // destination. Kept: a live process's, another host's, another program's look-alike.
        let names = [
            ".out.tmp-\(hostName)-\(dead)", ".other.tmp-\(hostName)-\(dead)", ".out.tmp-\(dead)",
            ".out.old-\(hostName)-\(dead)", ".out.tmp-\(hostName)-\(live)", ".out.tmp-another-host-\(dead)",
            ".cache.tmp-\(dead)",
        ]
        for name in names + [".unmarked.tmp-\(hostName)-\(dead)"] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent(name), withIntermediateDirectories: true)
            try Data(repeating: 7, count: 1000).write(
                to: dir.appendingPathComponent(name).appendingPathComponent("events.csv"))
            // odr-sim's staging folders carry its manifest from the start; the unmarked one
            // has the name of one but is not, and is kept.
            if !name.hasPrefix(".unmarked") {
                try Data(
                    """
                    # odr-sim report: files odr-sim wrote; its next run into this folder replaces them\nfile: \
                    events.csv\n
                    """
                    .utf8
                )
                .write(to: dir.appendingPathComponent(name).appendingPathComponent(".odr-sim-report"))
            }
        }
        let result = try CLI.run(["run", "s.scn", "--out", "out"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") })
        #expect(
            left == [
                ".out.tmp-\(hostName)-\(live)", ".out.tmp-another-host-\(dead)", ".cache.tmp-\(dead)",
                ".unmarked.tmp-\(hostName)-\(dead)",
            ])
    }
}
