import Foundation
import Testing

/// Issue 24: odr-sim never removes or overwrites a file it did not write, whatever path it is
/// given and whatever an input file says. Each test fails on the main before issue 24, where
/// a report swap deleted whatever was at the destination.
@Suite("Output safety: nothing of the user's is lost", .serialized)
struct OutputSafetyTests {
    /// A working folder as a user has one: inputs and unrelated work side by side.
    static let study = """
        name: tiny
        scenario: s.scn
        axes:
          - {path: device.used, values: [900MB, 950MB]}
        replications: 1

        """
    static let trace = "time,obj_id,size\n1,1,100\n2,2,100\n3,1,100\n4,3,100\n5,2,100\n"

    func workFolder() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        for (name, text) in [
            "s.scn": smallScenario, "tiny.study": Self.study, "t.csv": Self.trace, "thesis.txt": "chapter 1\n",
        ] {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        return dir
    }

    /// Every file under `dir` (relative path → bytes), hidden ones included.
    func snapshot(_ dir: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let base = dir.resolvingSymlinksInPath().path
        if let walker = FileManager.default.enumerator(atPath: base) {
            for case let path as String in walker {
                var isDirectory: ObjCBool = false
                let full = base + "/" + path
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files[path] = FileManager.default.contents(atPath: full)
                }
            }
        }
        return files
    }

    /// Each command that writes a report, with `--out DIR` appended.
    static let commands: [[String]] = [
        ["run", "s.scn", "--no-report"],
        ["compare", "s.scn", "--policy", "apple", "--policy", "lru", "--replications", "2", "--no-report"],
        ["sweep", "tiny.study", "--no-report"],
        ["replay", "t.csv", "--capacity", "200", "--no-report"],
        ["mrc", "t.csv", "--points", "2", "--no-report"],
        ["bound", "t.csv", "--capacity", "200"],
    ]

    @Test(
        """
        --out naming the current folder, its parent, a file or a folder with other work: exit 1, every file kept \
        byte for byte
        """,
        arguments: commands)
    func refusedDestinations(command: [String]) throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("work"), withIntermediateDirectories: true)
        try Data("notes\n".utf8).write(to: dir.appendingPathComponent("work/notes.md"))
        let before = snapshot(dir.deletingLastPathComponent().appendingPathComponent(dir.lastPathComponent))
        for (out, reason) in [
            (".", "is the current folder"), ("..", "is the current folder or one of its ancestors"),
            ("thesis.txt", "is a file, not a folder"),
            ("work", "the folder holds 1 file odr-sim did not write (notes.md)"),
        ] {
            let result = try CLI.run(command + ["--out", out], in: dir)
            #expect(result.status == 1, "\(command) --out \(out): \(result.stderr)")
            #expect(
                result.stderr == "odr-sim: --out \(out): \(reason); choose a new or empty folder\n"
                    || result.stderr.hasPrefix("odr-sim: --out \(out): \(reason)"), "\(result.stderr)")
            #expect(snapshot(dir) == before, "\(command) --out \(out) changed the folder")
        }
    }

    @Test(
        "a path under a file (--out thesis.txt/sub, --junit thesis.txt/j.xml) is refused before any work",
        arguments: commands)
    func underAFile(command: [String]) throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = snapshot(dir)
        let result = try CLI.run(command + ["--out", "thesis.txt/sub"], in: dir)
        #expect(result.status == 1, "\(command): \(result.stderr)")
        #expect(
            result.stderr.hasPrefix("odr-sim: --out thesis.txt/sub: ")
                && result.stderr.contains("thesis.txt is a file, not a folder"),
            "\(result.stderr)")
        #expect(snapshot(dir) == before)
    }

    @Test("a folder holding an input file is refused, even when the input is all it holds")
    func inputFolder() throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sub = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data(smallScenario.utf8).write(to: sub.appendingPathComponent("only.scn"))
        let result = try CLI.run(["run", "in/only.scn", "--out", "in"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("odr-sim: --out in: holds the input file in/only.scn"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sub.path) == ["only.scn"])
    }

    @Test(
        "a report folder is replaced by the next run into it; a file added to it by hand stops the next run, and stays")
    func ownReport() throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try CLI.run(["run", "s.scn", "--out", "r"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = try String(contentsOf: dir.appendingPathComponent("r/.odr-sim-report"), encoding: .utf8)
        #expect(manifest.contains("file: summary.csv\n") && manifest.contains("file: events.csv\n"))
        // The second run, without events.csv: the folder then holds exactly what it wrote.
        let second = try CLI.run(["run", "s.scn", "--out", "r", "--no-events", "--no-report"], in: dir)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("r").path).sorted()
                == [".odr-sim-report", "apps.csv", "summary.csv", "timeseries.csv"])
        try Data("mine\n".utf8).write(to: dir.appendingPathComponent("r/mine.txt"))
        let third = try CLI.run(["run", "s.scn", "--out", "r"], in: dir)
        #expect(third.status == 1)
        #expect(
            third.stderr
                == """
                odr-sim: --out r: the folder holds 1 file odr-sim did not write (mine.txt); choose a new or empty \
                folder\n
                """
        )
        #expect(
            FileManager.default.contents(atPath: dir.appendingPathComponent("r/mine.txt").path) == Data("mine\n".utf8))
        // Nothing odr-sim leaves beside it either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test(
        """
        the default report folder of one scenario is not replaced by another of the same name; the same file through \
        a link is the same scenario
        """
    )
    func defaultFolderOfAnotherScenario() throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("s.scn"), to: dir.appendingPathComponent("other.scn"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("linked").path, withDestinationPath: dir.path)
        #expect(try CLI.run(["run", "s.scn", "--no-report"], in: dir).status == 0)
        let before = snapshot(dir.appendingPathComponent("Reports"))
        // other.scn is also named `small`: its default folder Reports/small/ is s.scn's.
        let other = try CLI.run(["run", "other.scn", "--no-report"], in: dir)
        #expect(other.status == 1)
        #expect(
            other.stderr.hasPrefix("odr-sim: Reports/small: holds the report of ")
                && other.stderr.contains("/s.scn, not of other.scn (two scenarios of one name); give --out"),
            "\(other.stderr)")
        #expect(snapshot(dir.appendingPathComponent("Reports")) == before)
        // The same file again, or through a link to its folder, replaces its own report.
        #expect(try CLI.run(["run", "linked/s.scn", "--no-report"], in: dir).status == 0)
        #expect(try CLI.run(["run", "other.scn", "--no-report", "--out", "elsewhere"], in: dir).status == 0)
    }

    @Test(
        "a scenario's name cannot choose a path: traversal names become one component under Reports/",
        arguments: [
            "../../victim", "..", ".", "/victim", "a/../../victim", ".hidden", "..\\..\\victim", "victim\u{0}x",
        ])
    func traversalNames(name: String) throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let project = root.appendingPathComponent("a/b/project")
        let victim = root.appendingPathComponent("a/victim")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("precious\n".utf8).write(to: victim.appendingPathComponent("data.txt"))
        let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\u{0}", with: "\\0")
        let scenario = smallScenario.replacingOccurrences(of: "name: small", with: "name: \"\(quoted)\"")
        try Data(scenario.utf8).write(to: project.appendingPathComponent("s.scn"))
        let before = snapshot(root)
        let result = try CLI.run(["run", "s.scn", "--no-report"], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        var after = snapshot(root)
        // Everything new is under project/Reports/<one component>/.
        for key in before.keys { #expect(after[key] == before[key], "\(key) changed") }
        after = after.filter { before[$0.key] == nil }
        #expect(!after.isEmpty)
        for path in after.keys {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            #expect(
                parts.count == 6 && parts[0] == "a" && parts[1] == "b" && parts[2] == "project" && parts[3] == "Reports"
                    && !parts[4].hasPrefix("."), "\(path)")
        }
    }

    @Test("--junit, check --update and a shard file replace only files odr-sim wrote")
    func singleFiles() throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = snapshot(dir)
        let junit = try CLI.run(
            ["check", "s.scn", "--baseline", "b.csv", "--update", "--junit", "thesis.txt"], in: dir)
        #expect(junit.status == 1)
        #expect(
            junit.stderr.hasPrefix("odr-sim: --junit thesis.txt: holds a file odr-sim did not write"), "\(junit.stderr)"
        )
        let update = try CLI.run(["check", "s.scn", "--baseline", "thesis.txt", "--update"], in: dir)
        #expect(update.status == 1)
        #expect(
            update.stderr.hasPrefix("odr-sim: --baseline thesis.txt: holds a file odr-sim did not write"),
            "\(update.stderr)")
        let overInput = try CLI.run(["check", "s.scn", "--baseline", "s.scn", "--update"], in: dir)
        #expect(overInput.status == 1)
        try Data("not a shard\n".utf8).write(to: dir.appendingPathComponent("shard-0001-of-0002.csv"))
        let shard = try CLI.run(["sweep", "tiny.study", "--shard", "1/2", "--out", "."], in: dir)
        #expect(shard.status == 1)
        #expect(shard.stderr.hasPrefix("odr-sim: --out .: holds a file odr-sim did not write"), "\(shard.stderr)")
        try FileManager.default.removeItem(at: dir.appendingPathComponent("shard-0001-of-0002.csv"))
        #expect(snapshot(dir) == before)
        // Its own files it replaces: a baseline written by --update, rewritten by --update.
        for _ in 0..<2 {
            let written = try CLI.run(["check", "s.scn", "--baseline", "b.csv", "--update"], in: dir)
            #expect(written.status == 0, "\(written.stderr)")
        }
    }
}

/// Issue 24: a run stopped by a signal (a cluster's time limit, Ctrl-C, a closed terminal)
/// removes its staging folder, leaves the previous report as it was, and exits 128 + the
/// signal. On the main before issue 24 the staging folder stayed behind.
@Suite("Signals: a stopped run leaves no debris", .serialized)
struct SignalTests {
    /// Long enough (about a minute in a debug build) to be caught mid-run.
    static let long = """
        name: long
        duration: 60d
        device: {capacity: 64GB, used: 63GB}
        network: [{at: 0, bandwidth: 100Mbps, kind: wifi}]
        apps:
          - id: g
            generate: {tags: 200, size: {median: 20MB, sigma: 0.5}, prefix: t-}
        workload:
          - {kind: popularity, app: g, rate: 30/m, alpha: 0.8, hold: {median: 5m, sigma: 1}}
        events:
          - {at: 0, app: g, install: true}
          - {at: 0, app: g, launch: true}

        """

    @Test(
        "SIGTERM, SIGINT and SIGHUP mid-run: exit 128 + signal, no staging folder, the earlier report intact",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func stopped(signal number: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("small.scn"))
        try Data(Self.long.utf8).write(to: dir.appendingPathComponent("long.scn"))
        let first = try CLI.run(["run", "small.scn", "--out", "r"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let report = dir.appendingPathComponent("r")
        func contents() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: report.path) {
                files[name] = FileManager.default.contents(atPath: report.appendingPathComponent(name).path)
            }
            return files
        }
        let before = try contents()

        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["run", "long.scn", "--out", "r", "--policy", "lru"]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the run is writing (its staging folder exists), then stop it.
        let deadline = Date().addingTimeInterval(30)
        func staging() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".r.tmp-") }
        }
        while staging().isEmpty && Date() < deadline && process.isRunning { usleep(20_000) }
        #expect(!staging().isEmpty, "the run never started writing")
        usleep(200_000)
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + number)
        #expect(staging().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty)
        #expect(try contents() == before)
    }
}

/// Issue 24: one voice. ArgumentParser's own checks read like every other error: one line
/// `odr-sim: …`, exit 64. On the main before issue 24 they read `Error: …` with a usage
/// block.
@Suite("One voice for command-line errors")
struct CommandLineErrorTests {
    @Test(
        "misuse of the command line: one line `odr-sim: …`, exit 64",
        arguments: [
            (["run"], "odr-sim: Missing expected argument '<file>'"),
            (["run", "s.scn", "--jobs", "0"], "odr-sim: --jobs must be at least 1"),
            (["run", "s.scn", "--frobnicate"], "odr-sim: Unknown option '--frobnicate'"),
            (["sweep", "s.study", "--shard", "0/4", "--out", "x"], "odr-sim: --shard must be K/N with 1 ≤ K ≤ N"),
            (["run", "s.scn", "--sample", "soon"], "odr-sim: --sample: 'soon' is not a positive duration"),
            (["frobnicate"], "odr-sim: "),
        ])
    func usage(arguments: [String], prefix: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(arguments, in: dir)
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--help still teaches, with exit 0 and the exit statuses")
    func help() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("64 for a misuse of the command line"))
    }
}

/// Issue 29: `--baseline`. Without apple among the policies, compare took its paired
/// differences against apple all the same, so every difference was empty.
@Suite("The baseline of paired differences")
struct BaselineOptionTests {
    @Test(
        "without apple the first policy is the baseline, and says so; --baseline chooses; a policy not run is refused")
    func baseline() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let first = try CLI.run(
            [
                "compare", "s.scn", "--policy", "lru", "--policy", "lfu", "--replications", "3", "--no-report", "--out",
                "a",
            ], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains(
                "Paired differences against lru, the first policy run (apple was not; --baseline chooses another)."))
        let csv = try String(contentsOf: dir.appendingPathComponent("a/comparison.csv"), encoding: .utf8).split(
            separator: "\n")
        let header = csv[0].split(separator: ",", omittingEmptySubsequences: false)
        let column = try #require(header.firstIndex(of: "requests_diff_vs_lru"))
        // lfu's row has its difference (0: the same workload), lru's (the baseline) none.
        #expect(csv[2].split(separator: ",", omittingEmptySubsequences: false)[column] == "0.000000")
        #expect(csv[1].split(separator: ",", omittingEmptySubsequences: false)[column] == "")
        let chosen = try CLI.run(
            [
                "run", "s.scn", "--policy", "lru", "--policy", "lfu", "--replications", "2", "--baseline", "lfu",
                "--no-report", "--out", "b",
            ], in: dir)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(
            try String(contentsOf: dir.appendingPathComponent("b/comparison.csv"), encoding: .utf8).contains(
                "requests_diff_vs_lfu"))
        let refused = try CLI.run(["compare", "s.scn", "--policy", "lru", "--baseline", "gdsf", "--out", "c"], in: dir)
        #expect(refused.status == 64)
        #expect(refused.stderr == "odr-sim: --baseline: 'gdsf' is not among the policies run (lru)\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("c").path))
    }
}
