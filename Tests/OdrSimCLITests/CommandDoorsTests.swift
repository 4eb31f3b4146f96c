import Foundation
import Testing

/// Issue 42: the commands added after issue 24 (advise, migrate, telemetry workloads, JSON on
/// standard output) join the safe class: standard output checked to its end, shards bounded
/// before anything is allocated, staging folders never left behind, one reader for every
/// text input, one set of rules for a value wherever it is written, and errors that name the
/// flag they come from.
@Suite("Every command's doors: standard output checked, inputs read alike, flags named")
struct CommandDoorsTests {
    static let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path

    /// Runs odr-sim with its standard output on `/dev/full`, where every write fails.
    static func toFullDisk(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? CLI.repository
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(
        "standard output that cannot be written is an error, exit 1, for every command that prints",
        arguments: [
            ["migrate", "Scenarios/game.scn", "--to", "background-assets"], ["policies"], ["platforms"],
            ["policies", "--markdown"], ["--help"], ["run", "--help"], ["validate", "Scenarios/game.scn"],
        ])
    func fullStandardOutput(_ arguments: [String]) throws {
        let result = try Self.toFullDisk(arguments)
        #expect(result.status == 1, "\(arguments): exit \(result.status)")
        #expect(
            result.stderr
                == "odr-sim: cannot write to standard output: No space left on device; the output is incomplete\n",
            "\(arguments): \(result.stderr)")
    }

    @Test("JSON on a full disk fails too, and the report it describes is still written whole")
    func jsonToFullDisk() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try Self.toFullDisk(["run", "s.scn", "--format", "json", "--out", "r", "--no-report"], in: dir)
        #expect(result.status == 1 && result.stderr.contains("cannot write to standard output"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r/summary.csv").path))
    }

    @Test("a reader that goes away (a pipe closed early, `| head`) is not an error")
    func closedPipe() throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["migrate", "Scenarios/game.scn", "--to", "background-assets"]
        process.currentDirectoryURL = CLI.repository
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try out.fileHandleForReading.close()
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.isEmpty, "\(text)")
    }

    @Test(
        "advise --shard: N beyond the work is refused at once, before anything is allocated or waited for",
        arguments: ["1/9223372036854775807", "1/4294967296", "1/1000000", "16/16", "0/2", "3/2"])
    func adviseShards(_ shard: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let started = Date()
        // The first round runs 3 starting layouts × 5 replications: at most 15 shards.
        let result = try CLI.run(
            ["advise", Self.game, "--app", "odyssey", "--shard", shard, "--exchange", "ex", "--out", "a"], in: dir)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 64, "\(shard): \(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").count == 1 && result.stderr.hasPrefix("odr-sim: --shard"),
            "\(shard): \(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "\(shard): something was written")
    }

    @Test(
        """
        advise's exchange folder: never the report folder or inside it, never a folder of someone else's files; \
        checked before any work
        """
    )
    func exchangeClaim() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = [
            "advise", Self.game, "--app", "odyssey", "--shard", "1/2", "--shard-timeout", "1s", "--replications", "1",
            "--max-evaluations", "3",
        ]
        for (exchange, out) in [("r", "r"), ("r/ex", "r"), ("ex", "ex/r")] {
            let result = try CLI.run(base + ["--exchange", exchange, "--out", out], in: dir)
            #expect(
                result.status == 64
                    && result.stderr.contains("the shards' exchange and the report must be separate folders"),
                "\(exchange), \(out): \(result.stderr)")
        }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: dir.appendingPathComponent("notes/todo.txt"))
        let foreign = try CLI.run(base + ["--exchange", "notes", "--out", "r"], in: dir)
        #expect(foreign.status == 1 && foreign.stderr.contains("odr-sim did not write (todo.txt)"), "\(foreign.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("notes").path) == [
                "todo.txt"
            ])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r").path))
    }

    @Test(
        """
        advise's numbers through one door: prices as scenario sizes (1PiB included), --install-price bounded, --used \
        checked entry by entry
        """,
        arguments: [
            (["--install-price", "1e300"], 64, "--install-price must be a number from 0 to 1000000"),
            (["--install-price", "nan"], 64, "--install-price"),
            (["--wait-price", "2PiB"], 64, "--wait-price: value '2PiB' is too large for a size (at most 1PiB)"),
            (["--failure-price=-1MB"], 64, "--failure-price: value '-1MB' is negative"),
            (["--used", ","], 64, "--used: an empty entry"),
            (["--used", "57GB,57GB"], 64, "--used lists a size twice"),
            (["--used", "57XB"], 64, "--used: value must be a size, not '57XB'"),
            (["--max-evaluations", "100001"], 64, "--max-evaluations must be 3"),
            (["--max-events", "10"], 1, "beyond --max-events 10, so it is refused before running"),
            (["--policy", "lruu"], 64, "--policy: unknown policy 'lruu'"),
        ])
    func adviseNumbers(_ options: [String], _ status: Int32, _ message: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["advise", Self.game, "--app", "odyssey", "--out", "a"] + options, in: dir)
        #expect(result.status == status, "\(options): \(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").filter { !$0.contains("warning:") }.count == 1
                && result.stderr.contains(message), "\(options): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path))
    }

    @Test("prices of exactly 1PiB are accepted, as a scenario's sizes are")
    func adviseLargestPrice() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(
            [
                "advise", Self.game, "--app", "odyssey", "--out", "a", "--no-report", "--replications", "1",
                "--max-evaluations", "3",
                "--wait-price", "1PiB", "--failure-price", "1PiB", "--download-price", "1PiB", "--install-price",
                "1000000",
            ], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(
        """
        a resource named \"null\" and a tag \"~\", valid in a scenario, are valid to advise too, and advised.scn \
        reads back the same
        """
    )
    func yamlWordsAsNames() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = smallScenario.replacingOccurrences(
            of: "{name: map, size: 64MB, tags: [level-1]}",
            with: "{name: \"null\", size: 64MB, tags: [\"~\"]}\n      - {name: \"true\", size: 10MB, tags: [level-1]}"
        )
        .replacingOccurrences(of: "request: [level-1], id: r1", with: "request: [\"~\"], id: r1")
        try Data(scenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        #expect(try CLI.run(["validate", "s.scn"], in: dir).status == 0)
        let advised = try CLI.run(
            [
                "advise", "s.scn", "--app", "game", "--out", "a", "--no-report", "--replications", "1",
                "--max-evaluations", "4",
            ], in: dir)
        #expect(advised.status == 0, "\(advised.stderr)")
        let back = try CLI.run(["validate", "a/advised.scn"], in: dir)
        #expect(back.status == 0, "\(back.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("a/advised.scn"), encoding: .utf8)
        #expect(text.contains("name: \"null\"") && text.contains("\"~\""), "\(text)")
    }

    @Test("a newline in an input file's name stays in one comment line of what migrate and advise write")
    func newlineInFileName() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "g\nduration: 1s\n#.scn"
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent(name))
        let migrated = try CLI.run(["migrate", name, "--to", "background-assets", "--out", "m.scn"], in: dir)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("m.scn"), encoding: .utf8)
        #expect(
            text.hasPrefix("# odr-sim migrate g\\nduration: 1s\\n#.scn --to background-assets"), "\(text.prefix(200))")
        #expect(!text.contains("\nduration: 1s\n"))
        let advised = try CLI.run(
            [
                "advise", name, "--app", "game", "--out", "a", "--no-report", "--replications", "1",
                "--max-evaluations", "3",
            ], in: dir)
        #expect(advised.status == 0, "\(advised.stderr)")
        let header = try String(contentsOf: dir.appendingPathComponent("a/advised.scn"), encoding: .utf8)
        #expect(!header.contains("\nduration: 1s\n"), "\(header.prefix(300))")
        #expect(try CLI.run(["validate", "m.scn"], in: dir).status == 0)
    }

    @Test(
        "migrate --budget: one reader with the scenario's budget; bad values are usage errors naming --budget",
        arguments: ["0%", "1e-300%", "101%", "-5%", "abc", "nan%", "2PiB", ".inf%", "0.001%"])
    func migrateBudget(_ budget: String) throws {
        let result = try CLI.run(["migrate", Self.game, "--to", "background-assets", "--budget=\(budget)"])
        #expect(result.status == 64, "\(budget): \(result.stderr)")
        #expect(
            result.stderr.hasPrefix("odr-sim: --budget: ") && result.stderr.split(separator: "\n").count == 1,
            "\(budget): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("the budget's range is the same in a scenario: 0.01 % to 100 % of free space, a plain decimal")
    func budgetInScenario() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (budget, ok) in [
            ("0.01%", true), ("100%", true), ("12.5%", true), ("0%", false), ("1e-300%", false), ("100.5%", false),
        ] {
            let migrated = try CLI.run(
                ["migrate", Self.game, "--to", "background-assets", "--budget", "1GB", "--out", "m.scn"], in: dir)
            #expect(migrated.status == 0)
            let text = try String(contentsOf: dir.appendingPathComponent("m.scn"), encoding: .utf8)
                .replacingOccurrences(of: "budget: 1GB", with: "budget: \(budget)")
            try Data(text.utf8).write(to: dir.appendingPathComponent("b.scn"))
            let result = try CLI.run(["validate", "b.scn"], in: dir)
            #expect((result.status == 0) == ok, "\(budget): \(result.stderr)")
            if !ok {
                #expect(
                    result.stderr.hasPrefix("b.scn:") && result.stderr.contains("0.01%…100%"),
                    "\(budget): \(result.stderr)")
            }
        }
    }

    @Test("migrate --out inside a report folder is refused: that folder's next run would refuse or remove it")
    func migrateIntoReport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        #expect(try CLI.run(["run", "s.scn", "--out", "r", "--no-report"], in: dir).status == 0)
        let result = try CLI.run(["migrate", "s.scn", "--to", "background-assets", "--out", "r/g.scn"], in: dir)
        #expect(result.status == 1 && result.stderr.contains("is inside the report folder"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r/g.scn").path))
        #expect(try CLI.run(["run", "s.scn", "--out", "r", "--no-report"], in: dir).status == 0)
    }

    @Test(
        "errors name the flag they come from",
        arguments: [
            (
                ["migrate", "Scenarios/game.scn", "--to", "background-assets", "--strategy", "lruu"],
                "odr-sim: --strategy: unknown policy 'lruu'"
            ),
            (["compare", "Scenarios/game.scn", "--baseline", "nope"], "odr-sim: --baseline: unknown policy 'nope'"),
            (["run", "Scenarios/game.scn", "--policy", "lruu"], "odr-sim: --policy: unknown policy 'lruu'"),
            (
                ["replay", "Scenarios/traces/zipf-20k.csv", "--capacity", "10%", "--policy", "lruu"],
                "odr-sim: --policy: unknown policy 'lruu'"
            ),
        ])
    func flagNames(_ arguments: [String], _ prefix: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
    }

    @Test(
        "inputs that are not files are named as what they are, for every command that reads one",
        arguments: [
            ["run"], ["validate"], ["compare"], ["sweep"], ["migrate", "--to", "background-assets"],
            ["advise", "--app", "x"],
            ["check", "--baseline", "b.csv"],
        ])
    func notFiles(_ command: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("pipe").path, 0o600) == 0)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("folder"), withIntermediateDirectories: true)
        for (input, what) in [
            ("/dev/zero", "is a device, not a file"), ("pipe", "is a named pipe (FIFO), not a file"),
            ("folder", "is a directory, not a file"),
        ] {
            let writes = !["validate", "check"].contains(command[0])
            let arguments = [command[0], input] + command.dropFirst() + (writes ? ["--out", "o"] : [])
            let result = try CLI.run(arguments, in: dir)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr == "\(input):1:1: \(what)\n" || result.stderr.hasPrefix("\(input):1:1: \(what)"),
                "\(arguments): \(result.stderr)")
        }
    }

    @Test("a pack update must raise its version: the same version again, or an older one, is a located error")
    func packVersions() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let migrated = try CLI.run(
            ["migrate", "s.scn", "--to", "background-assets", "--out", "m.scn"],
            in: {
                try? Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
                return dir
            }())
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let base = try String(contentsOf: dir.appendingPathComponent("m.scn"), encoding: .utf8)
        for (versions, error) in [
            ([2, 3], nil), ([2, 2], "version 2 of pack 'level-1' is not newer than its version 2 (an earlier update)"),
            ([1], "version 1 of pack 'level-1' is not newer than its version 1 (as installed)"),
            ([3, 2], "version 2 of pack"),
        ] as [([Int], String?)] {
            let last = "- {at: 4m, app: game, request: [level-1], id: r2}\n"
            #expect(base.contains(last))
            let updates = versions.enumerated().map {
                "- {at: \(10 + $0.offset)m, app: game, update: map, version: \($0.element)}\n"
            }.joined()
            let text = base.replacingOccurrences(of: last, with: last + updates)
            try Data(text.utf8).write(to: dir.appendingPathComponent("u.scn"))
            let result = try CLI.run(["validate", "u.scn"], in: dir)
            if let error {
                #expect(
                    result.status == 1 && result.stderr.hasPrefix("u.scn:") && result.stderr.contains(error),
                    "\(versions): \(result.stderr)")
            } else {
                #expect(result.status == 0, "\(versions): \(result.stderr)")
            }
        }
    }

    @Test("an app updated before it is installed is warned about, once, with the time")
    func updateBeforeInstall() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = smallScenario.replacingOccurrences(
            of: "  - {at: 0, app: game, install: true}\n",
            with: "  - {at: 0, app: game, app-update: true}\n  - {at: 0, app: game, install: true}\n")
        try Data(text.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(["run", "s.scn", "--out", "r", "--no-report"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: s.scn: app 'game' is updated at 0 s while it is not installed; the update does nothing"),
            "\(result.stderr)")
    }

    @Test(
        "a study axis cannot set what a scenario refuses: an app's strategy that reads the future, at the study's line")
    func axisStrategy() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            try CLI.run(["migrate", Self.game, "--to", "background-assets", "--out", "ba.scn"], in: dir).status == 0)
        let text = try String(contentsOf: dir.appendingPathComponent("ba.scn"), encoding: .utf8)
            .replacingOccurrences(of: "  - id: odyssey\n", with: "  - id: odyssey\n    strategy: lru\n")
        try Data(text.utf8).write(to: dir.appendingPathComponent("ba.scn"))
        try Data("scenario: ba.scn\naxes:\n  - {path: apps.odyssey.strategy, values: [lru, belady]}\n".utf8).write(
            to: dir.appendingPathComponent("x.study"))
        let result = try CLI.run(["sweep", "x.study", "--out", "o"], in: dir)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("x.study:3:") && result.stderr.contains("strategy 'belady' reads the future"),
            "\(result.stderr)")
    }

    @Test("SIGTERM while workers write their parts, at several moments: exit 143, no staging folder left")
    func terminatedWhileWriting() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for delay in [0.3, 0.8, 1.5] {
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = [
                "run", CLI.repository.appendingPathComponent("Scenarios/photo-filters.scn").path,
                "--replications", "400", "--out", "r", "--jobs", "2", "--no-report",
            ]
            process.currentDirectoryURL = dir
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationStatus == 143, "after \(delay) s: \(process.terminationStatus)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left.isEmpty, "after \(delay) s: \(left)")
        }
    }

    @Test(
        """
        a staging folder a killed run left before its manifest (only run parts in it) is removed by the next run \
        into the same --out; one holding anything else stays
        """
    )
    func staleUnmarkedStaging() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        let host = try #require(
            try CLI.run(["run", "s.scn", "--out", "probe", "--no-report"], in: dir).status == 0 ? hostName() : nil)
        // Process numbers that cannot be running (above Linux's pid_max).
        let parts = dir.appendingPathComponent(".r.tmp-\(host)-99999998")
        let other = dir.appendingPathComponent(".r.tmp-\(host)-99999999")
        for folder in [parts, other] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data("1,2\n".utf8).write(to: parts.appendingPathComponent(".events-3.part"))
        try Data().write(to: parts.appendingPathComponent(".odr-sim-report"))
        try Data("mine\n".utf8).write(to: other.appendingPathComponent("notes.txt"))
        #expect(try CLI.run(["run", "s.scn", "--out", "r", "--no-report"], in: dir).status == 0)
        #expect(!FileManager.default.fileExists(atPath: parts.path))
        #expect(FileManager.default.fileExists(atPath: other.appendingPathComponent("notes.txt").path))
    }

    /// Every file kind odr-sim reads, with the command that reads it: written with CRLF line
    /// ends and a byte-order mark it reads as the LF file does; with a NUL byte on its second
    /// line it is refused at that line and column.
    @Test(
        "CRLF, a byte-order mark and NUL, alike in scenarios, studies, baselines, telemetry traces and shard files",
        arguments: ["scenario", "study", "baseline", "telemetry", "shard"])
    func textInputs(_ kind: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        try write("s.scn", smallScenario)
        try write(
            "x.study", "scenario: s.scn\naxes:\n  - {path: device.used, values: [900MB, 950MB]}\nreplications: 1\n")
        try write(
            "t.csv",
            "time,app,event,tags,id\n0,game,install,,\n0,game,launch,,\n1m,game,request,level-1,r1\n2m,game,end,,r1\n")
        try write(
            "t.scn",
            smallScenario.replacingOccurrences(
                of: "events:\n", with: "workload: [{kind: trace, file: t.csv}]\nevents:\n"
            )
            .components(separatedBy: "\n").filter { !$0.contains("app: game") }.joined(separator: "\n"))
        #expect(try CLI.run(["check", "s.scn", "--baseline", "b.csv", "--update"], in: dir).status == 0)
        for k in 1...2 {
            #expect(try CLI.run(["sweep", "x.study", "--shard", "\(k)/2", "--out", "sh"], in: dir).status == 0)
        }
        let (file, command): (String, [String]) =
            switch kind {
            case "scenario": ("s.scn", ["validate", "s.scn"])
            case "study": ("x.study", ["sweep", "x.study", "--out", "o", "--no-report"])
            case "baseline": ("b.csv", ["check", "s.scn", "--baseline", "b.csv"])
            case "telemetry": ("t.csv", ["validate", "t.scn"])
            default: ("sh/shard-0001-of-0002.csv", ["sweep", "merge", "sh", "--out", "o", "--no-report"])
            }
        let lf = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        let plain = try CLI.run(command, in: dir)
        #expect(plain.status == 0, "\(kind): \(plain.stderr)")
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("o"))
        try Data([0xEF, 0xBB, 0xBF] + Array(lf.replacingOccurrences(of: "\n", with: "\r\n").utf8)).write(
            to: dir.appendingPathComponent(file))
        let crlf = try CLI.run(command, in: dir)
        #expect(crlf.status == 0, "\(kind) with CRLF: \(crlf.stderr)")
        #expect(
            crlf.stdout.replacing(#/ in [0-9.]+ s/#, with: "") == plain.stdout.replacing(#/ in [0-9.]+ s/#, with: ""),
            "\(kind)")
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("o"))
        var lines = lf.components(separatedBy: "\n")
        lines[1] = String(lines[1].prefix(3)) + "\u{0}" + lines[1].dropFirst(3)
        try Data(lines.joined(separator: "\n").utf8).write(to: dir.appendingPathComponent(file))
        let nul = try CLI.run(command, in: dir)
        #expect(nul.status == 1, "\(kind) with NUL: \(nul.stderr)")
        #expect(
            nul.stderr == "\(file):2:4: a NUL byte: the file is not text\n"
                || nul.stderr.hasSuffix("\(file):2:4: a NUL byte: the file is not text\n"),
            "\(kind) with NUL: \(nul.stderr)")
        #expect(!nul.stderr.contains("\u{0}"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
    }

    /// Runs odr-sim in `directory` with every file it writes limited to `kilobytes` (a full
    /// disk, as far as its writes can tell: each write past the limit fails).
    static func withFileLimit(_ kilobytes: Int, _ arguments: [String], in directory: URL) throws -> CLI.Result {
        let quoted = ([CLI.binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        return try CLI.run(
            executable: URL(fileURLWithPath: "/bin/bash"), ["-c", "ulimit -f \(kilobytes); exec \(quoted)"],
            in: directory)
    }

    @Test(
        """
        a full disk under every report command: exit 1 in one line, no staging folder or temporary file left, \
        nothing half-written
        """,
        arguments: [
            ["run", "s.scn", "--out", "o", "--replications", "3"],
            ["compare", "s.scn", "--policy", "lru", "--policy", "fifo", "--replications", "3", "--out", "o"],
            ["sweep", "x.study", "--out", "o"], ["sweep", "x.study", "--shard", "1/2", "--out", "o"],
            ["replay", "t.csv", "--capacity", "10%", "--out", "o"], ["mrc", "t.csv", "--out", "o"],
            ["bound", "t.csv", "--capacity", "10%", "--out", "o"],
            ["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3", "--out", "o"],
            ["migrate", "s.scn", "--to", "background-assets", "--out", "o"],
            [
                "check", "s.scn", "--baseline", "o", "--update", "--policy", "apple", "--policy", "lru", "--policy",
                "fifo",
            ],
        ])
    func fullDisk(_ arguments: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A scenario whose every output is larger than the limit (a long padded description
        // and events.csv), a study of it and a trace.
        let padded = smallScenario.replacingOccurrences(
            of: "name: small\n", with: "name: small\ndescription: \(String(repeating: "x", count: 8000))\n")
        try Data(padded.utf8).write(to: dir.appendingPathComponent("s.scn"))
        try Data("scenario: s.scn\naxes:\n  - {path: device.used, values: [900MB, 950MB]}\nreplications: 20\n".utf8)
            .write(to: dir.appendingPathComponent("x.study"))
        var trace = "time,obj_id,size\n"
        for i in 0..<3000 { trace += "\(i),\(i % 97),\(100 + i % 13)\n" }
        try Data(trace.utf8).write(to: dir.appendingPathComponent("t.csv"))
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        // No byte can be written (the first write fails), then 1 KiB (a write fails part-way
        // through, or the outputs fit and the command succeeds, whole).
        for kilobytes in [0, 1] {
            let result = try Self.withFileLimit(kilobytes, arguments, in: dir)
            let after = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
            let lines = result.stderr.split(separator: "\n").filter { !$0.contains("warning:") }
            if kilobytes == 0 || result.status != 0 {
                #expect(result.status == 1, "\(arguments) at \(kilobytes) KiB: exit \(result.status), \(result.stderr)")
                #expect(lines.count == 1, "\(arguments) at \(kilobytes) KiB: \(result.stderr)")
                // Nothing new beside the inputs: no report, no staging folder, no temporary file.
                #expect(
                    after.subtracting(before).isEmpty,
                    "\(arguments) at \(kilobytes) KiB: left \(after.subtracting(before).sorted())")
            } else {
                #expect(
                    after.subtracting(before) == ["o"],
                    "\(arguments) at \(kilobytes) KiB: \(after.subtracting(before).sorted())")
            }
            for name in after.subtracting(before) {
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
            }
        }
    }

    @Test(
        """
        every extreme number in a telemetry row's time and priority: success, or exit 1 at the trace's line and \
        column
        """
    )
    func telemetryExtremes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(
            smallScenario.replacingOccurrences(
                of: "events:\n", with: "workload: [{kind: trace, file: t.csv}]\nevents:\n"
            )
            .components(separatedBy: "\n").filter { !$0.contains("app: game") }.joined(separator: "\n").utf8
        ).write(to: dir.appendingPathComponent("s.scn"))
        for value in ExtremeValueTests.values {
            for (column, row) in [(1, "\(value),game,launch,,,"), (30, "2m,game,request,level-1,r1,\(value)")] {
                let text = "time,app,event,tags,id,priority\n0,game,install,,,\n\(row)\n"
                try Data(text.utf8).write(to: dir.appendingPathComponent("t.csv"))
                let result = try CLI.run(["run", "s.scn", "--out", "o", "--no-report", "--no-events"], in: dir)
                #expect([0, 1].contains(result.status), "\(row): exit \(result.status)")
                if result.status == 1 {
                    let lines = result.stderr.split(separator: "\n").filter { !$0.contains("warning:") }
                    #expect(
                        lines.count == 1
                            && lines[0].hasPrefix("t.csv:3:\(column == 1 ? 1 : row.count - value.count + 1):"),
                        "\(row): \(result.stderr)")
                }
                try? FileManager.default.removeItem(at: dir.appendingPathComponent("o"))
            }
        }
    }

    @Test(
        "every extreme number as a baseline's value: check passes, fails or refuses the file in one line, never traps")
    func baselineExtremes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        #expect(try CLI.run(["check", "s.scn", "--baseline", "b.csv", "--update"], in: dir).status == 0)
        let original = try String(contentsOf: dir.appendingPathComponent("b.csv"), encoding: .utf8)
        var lines = original.split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let column = try #require(header.firstIndex(of: "redownload_bytes"))
        for value in ExtremeValueTests.values {
            var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[column] = value
            lines[1] = fields.joined(separator: ",")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("b.csv"))
            let result = try CLI.run(["check", "s.scn", "--baseline", "b.csv"], in: dir)
            #expect([0, 1].contains(result.status), "\(value): exit \(result.status)\n\(result.stderr.prefix(300))")
        }
    }

    @Test("advise of a workload run refuses (6.3e14 events a run) is refused before any layout runs, as run refuses it")
    func adviseFlood() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(HostileInputTests.flood.utf8).write(to: dir.appendingPathComponent("flood.scn"))
        let result = try CLI.run(["advise", "flood.scn", "--app", "a", "--out", "o"], in: dir)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("odr-sim: flood.scn: the workload makes about 6.3e+14 events per run"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
    }

    /// This host's name as odr-sim writes it into temporary names.
    func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
    }
}
