import Foundation
import Testing

/// Issue 25: `odr-sim migrate` rewrites an ODR scenario for a platform where the app evicts.
@Suite("odr-sim migrate")
struct MigrateCommandTests {
    static let strategies = [
        "--strategy", "lru", "--strategy", "gdsf", "--strategy", "largest-first", "--strategy", "fifo",
    ]

    @Test(
        "the shipped migrated scenarios are what migrate makes of game.scn",
        arguments: ["background-assets", "play-asset-delivery"])
    func shippedAreGenerated(platform: String) throws {
        let result = try CLI.run(
            ["migrate", "Scenarios/game.scn", "--to", platform, "--budget", "1GB"] + Self.strategies,
            in: CLI.repository)
        #expect(result.status == 0, "\(result.stderr)")
        let shipped = try String(
            contentsOf: CLI.repository.appendingPathComponent("Scenarios/game-\(platform).scn"), encoding: .utf8)
        #expect(
            result.stdout == shipped,
            """
            regenerate it with: odr-sim migrate Scenarios/game.scn --to \(platform) --budget 1GB --strategy lru \
            --strategy gdsf --strategy largest-first --strategy fifo --out Scenarios/game-\(platform).scn
            """
        )
    }

    @Test("a telemetry file still resolves from where the migrated scenario is written")
    func telemetryRelocated() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("deep/er/ba.scn").path
        let source = CLI.repository.appendingPathComponent("Scenarios/odyssey-telemetry.scn").path
        let migrated = try CLI.run(["migrate", source, "--to", "background-assets", "--out", out])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        // From deep/er/ back to the repository's Scenarios/traces/, not "traces/…" beside the output.
        #expect(text.contains("file: ../") && text.contains("Scenarios/traces/odyssey-week.csv}"), "\(text)")
        let validated = try CLI.run(["validate", out])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stdout.contains("79 scripted events"), "\(validated.stdout)")
    }

    @Test("a migrated scenario keeps the workload, renames the categories, and runs")
    func migratedRuns() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("game-pad.scn").path
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let migrated = try CLI.run(["migrate", game, "--to", "play-asset-delivery", "--budget", "25%", "--out", out])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("# odr-sim migrate"))
        #expect(text.contains("platform: play-asset-delivery"))
        #expect(text.contains("{category: install-time}") && text.contains("{category: fast-follow, order: 1}"))
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(!body.contains("initial-install") && !body.contains("on_low_disk"))
        #expect(text.contains("budget: 25%"))
        // The same requests as the source: the workload moved unchanged.
        let source = try String(contentsOfFile: game, encoding: .utf8)
        #expect(text.components(separatedBy: "request:").count == source.components(separatedBy: "request:").count)
        let run = try CLI.run(["run", out, "--out", dir.appendingPathComponent("r").path, "--no-report"])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try String(contentsOfFile: dir.appendingPathComponent("r/summary.csv").path, encoding: .utf8)
        #expect(
            summary.hasPrefix("policy,")
                && summary.contains(
                    ",launch_blocked_s,pack_updates,update_bytes,budget_exceeded_bytes,budget_exceeded_s,"
                        + "download_failures,failed_download,cleared_bytes\n")
                && summary.contains("\nlru,1,"))
        // Migrating again replaces the file it wrote.
        #expect(try CLI.run(["migrate", game, "--to", "background-assets", "--out", out]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("platform: background-assets"))
    }

    @Test("migrate never writes over a file it did not write, nor over its input")
    func neverOverwrites() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.scn")
        try Data("my notes\n".utf8).write(to: notes)
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let result = try CLI.run(["migrate", game, "--to", "background-assets", "--out", notes.path])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes\n")
        let copy = dir.appendingPathComponent("game.scn")
        try FileManager.default.copyItem(atPath: game, toPath: copy.path)
        #expect(try CLI.run(["migrate", copy.path, "--to", "background-assets", "--out", copy.path]).status == 1)
        #expect(try String(contentsOf: copy, encoding: .utf8) == (try String(contentsOfFile: game, encoding: .utf8)))
    }

    @Test(
        """
        migrate --app moves only that app: its own platform and budget, the others on ODR under system_policy, the \
        name <name>-<platform>; it runs
        """
    )
    func oneApp() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("game-ba.scn").path
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let result = try CLI.run([
            "migrate", game, "--app", "odyssey", "--to", "background-assets", "--budget", "1GB", "--out", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            text.contains("\nname: game-background-assets\n") && text.contains("\nplatform: ios17\n")
                && text.contains("\nsystem_policy: apple\n"), "\(text)")
        #expect(text.contains("- id: odyssey\n  platform: background-assets\n  budget: 1GB\n"), "\(text)")
        // Only the game's tags are renamed; atlas keeps ODR's initial-install.
        #expect(
            text.contains("level-1: {category: essential}")
                && text.contains("region-europe: {category: initial-install"), "\(text)")
        let validated = try CLI.run(["validate", out])
        #expect(
            validated.stdout.contains("on ios17; odyssey on background-assets: 3 app(s)"),
            "\(validated.stdout) \(validated.stderr)")
        // Play is Android's: one app of an iPhone cannot move there.
        let play = try CLI.run([
            "migrate", game, "--app", "odyssey", "--to", "play-asset-delivery", "--out",
            dir.appendingPathComponent("p.scn").path,
        ])
        #expect(
            play.status == 1
                && play.stderr.contains(
                    """
                    one app cannot move to play-asset-delivery (Android devices) on ios17's device (Apple's); \
                    migrate every app (without --app), or the whole device with the budget for this app only \
                    (--others unlimited)
                    """
                ), "\(play.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("p.scn").path))
    }

    @Test(
        """
        migrate --app --others unlimited (issue 50): the whole phone moves to Play, the budget is the game's \
        alone, the neighbours have none; every app moved gives them the game's budget; without --app it is refused
        """
    )
    func othersUnlimited() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        func migrate(_ flags: [String], _ name: String) throws -> (CLI.Result, String) {
            let out = dir.appendingPathComponent(name).path
            let result = try CLI.run(
                ["migrate", game, "--to", "play-asset-delivery", "--budget", "1GB", "--out", out] + flags)
            return (result, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
        }
        let (one, text) = try migrate(["--app", "odyssey", "--others", "unlimited"], "u.scn")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.contains("game.scn on play-asset-delivery, the budget for odyssey only"), "\(one.stderr)")
        #expect(text.contains("\nplatform: play-asset-delivery\n") && !text.contains("system_policy"), "\(text)")
        #expect(text.contains("- id: odyssey\n  budget: 1GB\n"), "\(text)")
        #expect(text.contains("- id: atlas\n") && !text.contains("- id: atlas\n  budget"), "\(text)")
        #expect(text.components(separatedBy: "  budget: 1GB\n").count == 2, "one budget only: \(text)")
        #expect(text.contains("atlas, snapfilter with no budget (--others unlimited)"), "\(text)")
        let validated = try CLI.run(["validate", dir.appendingPathComponent("u.scn").path])
        #expect(validated.status == 0, "\(validated.stderr)")
        // The whole phone migrated as before: every app with the game's budget.
        let (every, all) = try migrate([], "w.scn")
        #expect(every.status == 0, "\(every.stderr)")
        #expect(all.components(separatedBy: "  budget: 1GB\n").count == 4, "\(all)")
        let refused = try CLI.run(["migrate", game, "--to", "play-asset-delivery", "--others", "unlimited"])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(
            refused.stderr.hasPrefix("odr-sim: --others unlimited: give --app, the one app that keeps --budget"),
            "\(refused.stderr)")
    }

    @Test(
        """
        migrate replaces its own file while unedited; once edited by hand it is the user's: exit 1 and the file \
        byte-identical
        """
    )
    func editedIsTheUsers() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("m.scn")
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let arguments = ["migrate", game, "--app", "odyssey", "--to", "background-assets", "--out", out.path]
        #expect(try CLI.run(arguments).status == 0)
        // Unedited: a second run replaces it (here with a budget).
        #expect(try CLI.run(arguments + ["--budget", "2GB"]).status == 0)
        var text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.contains("budget: 2GB"))
        // One character changed by hand: never replaced again.
        text = text.replacingOccurrences(of: "budget: 2GB", with: "budget: 3GB")
        try Data(text.utf8).write(to: out)
        let again = try CLI.run(arguments)
        #expect(
            again.status == 1 && again.stderr.contains("was written by odr-sim but edited since"), "\(again.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8) == text)
    }

    @Test(
        """
        a catalog over the target's limits, an unknown target, a scenario already migrated: one line each, nothing \
        written
        """
    )
    func refusals() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.scn")
        // A 1.6 GB pack: fine on ios18 (8 GB per pack), over Play's 1.5 GB.
        try Data(
            """
            duration: 1d
            platform: ios18
            device: {capacity: 64GB}
            apps:
              - id: game
                resources: [{name: world, size: 1.6GB, tags: [world]}]

            """.utf8
        ).write(to: big)
        let out = dir.appendingPathComponent("out.scn").path
        let over = try CLI.run(["migrate", big.path, "--to", "play-asset-delivery", "--out", out])
        #expect(over.status == 1)
        #expect(
            over.stderr.contains(
                "on play-asset-delivery: asset pack 'world' is 1.6 GB, over the 1.5 GB per-pack limit"),
            "\(over.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let unknown = try CLI.run(["migrate", big.path, "--to", "ios17"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("background-assets"))
        #expect(try CLI.run(["migrate", big.path, "--to", "background-assets", "--out", out]).status == 0)
        let again = try CLI.run(["migrate", out, "--to", "play-asset-delivery"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already on background-assets"), "\(again.stderr)")
    }

    @Test("the migration study runs from the repository root, with the platform metrics' columns")
    func migrationStudy() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("m").path
        let result = try CLI.run(
            ["sweep", "Scenarios/studies/migration.study", "--no-report", "--out", out], in: CLI.repository)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: out + "/results.csv", encoding: .utf8).split(separator: "\n")
        #expect(
            lines[0].hasPrefix("budget,budget_bytes,platform,policy,")
                && lines[0].hasSuffix(
                    ",blocked_launches,launch_blocked_s,pack_updates,update_bytes,"
                        + "budget_exceeded_bytes,budget_exceeded_s,download_failures,failed_download,cleared_bytes"
                ))
        // (4 budgets × 2 platforms + the ODR point) × 6 policies × 5 replications.
        #expect(lines.count == 1 + 270)
        #expect(lines[1].hasPrefix("500MB,500000000,background-assets,apple,1,"))
        #expect(lines[241].hasPrefix(",,ios17,apple,1,"))
    }
}

/// Issue 26: `odr-sim advise` from the command line.
@Suite("odr-sim advise")
struct AdviseCommandTests {
    @Test("advise writes the same files at any job count, and advised.scn runs")
    func identicalAndRunnable() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        var outputs: [[String]] = []
        for jobs in ["1", "2"] {
            let out = dir.appendingPathComponent("a\(jobs)").path
            let result = try CLI.run([
                "advise", game, "--app", "odyssey", "--replications", "2", "--max-evaluations", "12",
                "--jobs", jobs, "--out", out,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(
                try ["advised.scn", "layout.csv", "layouts.csv", "report.html"].map {
                    try String(contentsOfFile: out + "/" + $0, encoding: .utf8)
                })
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0][2].split(separator: "\n").count == 1 + 12)
        // The header says how far the re-downloads are from what no purge order could avoid.
        #expect(
            outputs[0][0].contains(" advised; no purge order could re-download less than ")
                && outputs[0][0].contains(" (the offline bound)\n"))
        #expect(outputs[0][3].contains("(the offline bound)"))
        let run = try CLI.run([
            "run", dir.appendingPathComponent("a1/advised.scn").path, "--policy", "apple",
            "--out", dir.appendingPathComponent("r").path, "--no-report",
        ])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("three shards in lockstep write what one machine writes; shards 2 and 3 write no report")
    func shardsInLockstep() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let options = ["--app", "odyssey", "--replications", "2", "--max-evaluations", "12", "--jobs", "1"]
        let alone = try CLI.run(["advise", game] + options + ["--out", dir.appendingPathComponent("alone").path])
        #expect(alone.status == 0, "\(alone.stderr)")
        let exchange = dir.appendingPathComponent("exchange").path
        // The three shards must run at once: each waits for the others at the end of a round.
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var all = [CLI.Result?](repeating: nil, count: 3)
            subscript(k: Int) -> CLI.Result? {
                get { lock.withLock { all[k] } }
                set { lock.withLock { all[k] = newValue } }
            }
        }
        let results = Results()
        let out = dir.path
        // One thread each (a pool of two cores' width would start the third only when one
        // of the first two ended, and they wait for it), and a timeout that ends a hang.
        let finished = DispatchGroup()
        for k in 0..<3 {
            finished.enter()
            Thread.detachNewThread {
                results[k] = try? CLI.run(
                    ["advise", game] + options + [
                        "--shard", "\(k + 1)/3", "--exchange", exchange,
                        "--shard-timeout", "2m", "--out", out + "/shard\(k + 1)",
                    ])
                finished.leave()
            }
        }
        finished.wait()
        for k in 0..<3 { #expect(results[k]?.status == 0, "shard \(k + 1): \(results[k]?.stderr ?? "did not run")") }
        #expect(results[1]?.stdout.hasPrefix("advise shard 2/3: 12 layouts searched with the other shards") == true)
        for file in ["advised.scn", "layout.csv", "layouts.csv", "report.html"] {
            let one = try String(contentsOfFile: dir.appendingPathComponent("alone/\(file)").path, encoding: .utf8)
            let sharded = try String(contentsOfFile: dir.appendingPathComponent("shard1/\(file)").path, encoding: .utf8)
            #expect(one == sharded, "\(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("shard2").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("shard3").path))
        // Each round left one file per shard (12 layouts: the 3 starts, then rounds of moves, then the bound).
        // (and the folder's manifest, which claims it for odr-sim)
        let files = try FileManager.default.contentsOfDirectory(atPath: exchange).filter { $0 != ".odr-sim-exchange" }
        #expect(files.count >= 9 && files.count % 3 == 0, "\(files)")
        #expect(files.allSatisfy { $0.hasPrefix("advise-") && $0.hasSuffix("-of-3.csv") })
    }

    @Test(
        """
        a shard alone gives up after --shard-timeout, naming the shard it waited for; a file not its own is never \
        overwritten
        """
    )
    func shardAloneAndForeignFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let exchange = dir.appendingPathComponent("exchange")
        let options = [
            "--app", "odyssey", "--replications", "2", "--max-evaluations", "3", "--exchange", exchange.path,
        ]
        let alone = try CLI.run(
            ["advise", game] + options + [
                "--shard", "1/2", "--shard-timeout", "1s", "--out", dir.appendingPathComponent("a").path,
            ])
        #expect(alone.status == 1)
        #expect(alone.stderr.contains("waited 1 s for shard 2's round 0"), "\(alone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path))
        // Shard 2's file of round 0, taken by a user's file of the same name: left as it is.
        let mine = try FileManager.default.contentsOfDirectory(atPath: exchange.path).filter {
            $0 != ".odr-sim-exchange"
        }
        #expect(mine.count == 1 && mine[0].hasSuffix("-round-0-shard-1-of-2.csv"), "\(mine)")
        let theirs = exchange.appendingPathComponent(
            mine[0].replacingOccurrences(of: "shard-1-of-2", with: "shard-2-of-2"))
        try Data("notes\n".utf8).write(to: theirs)
        let second = try CLI.run(["advise", game] + options + ["--shard", "2/2", "--shard-timeout", "1s"])
        #expect(second.status == 1)
        // Refused before any work: the exchange folder is claimed as a report folder is (issue 42).
        #expect(
            second.stderr.contains("the folder holds 1 file odr-sim did not write (\(theirs.lastPathComponent))"),
            "\(second.stderr)")
        #expect(try String(contentsOf: theirs, encoding: .utf8) == "notes\n")
        // Usage: --shard without --exchange, --exchange without --shard.
        #expect(try CLI.run(["advise", game, "--app", "odyssey", "--shard", "1/2"]).status == 64)
        #expect(try CLI.run(["advise", game, "--app", "odyssey", "--exchange", exchange.path]).status == 64)
    }

    @Test("an unknown app is a usage error naming the apps; nothing is written")
    func unknownApp() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let result = try CLI.run(["advise", game, "--app", "odysey", "--out", dir.appendingPathComponent("x").path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("odyssey, atlas, snapfilter"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x").path))
    }

    @Test(
        """
        --population takes a study's device and network axes; other axes, both --used and --population, a path the \
        scenario lacks: one line each, nothing written
        """
    )
    func population() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        func study(_ name: String, _ axes: String) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try "scenario: \(game)\naxes:\n\(axes)\n".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let devices = try study(
            "devices.study",
            """
              - {name: used, path: device.used, values: [57GB, 60GB], zip: phone}
              - {name: wifi, path: network.1.bandwidth, values: [10Mbps, 40Mbps], zip: phone}
            """)
        let out = dir.appendingPathComponent("a").path
        let result = try CLI.run([
            "advise", game, "--app", "odyssey", "--replications", "2", "--max-evaluations", "4",
            "--population", devices, "--out", out, "--no-report", "--jobs", "1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("2 devices (used=57GB, wifi=10Mbps; used=60GB, wifi=40Mbps) × 2 replications"),
            "\(result.stdout)")
        // advised.scn is the scenario's own device; its header says what the advice was judged on.
        let advised = try String(contentsOfFile: out + "/advised.scn", encoding: .utf8)
        #expect(
            advised.contains(
                "\n# judged over 2 devices, the same seeds on each: used=57GB, wifi=10Mbps; used=60GB, wifi=40Mbps\n"))
        #expect(advised.contains("used: 58.5GB"))
        // The same bytes at another job count.
        let two = dir.appendingPathComponent("a2").path
        let again = try CLI.run([
            "advise", game, "--app", "odyssey", "--replications", "2", "--max-evaluations", "4",
            "--population", devices, "--out", two, "--no-report", "--jobs", "2",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        for file in ["advised.scn", "layout.csv", "layouts.csv"] {
            #expect(
                try String(contentsOfFile: out + "/" + file, encoding: .utf8)
                    == String(contentsOfFile: two + "/" + file, encoding: .utf8), "\(file)")
        }
        let layout = try study("layout.study", "  - {path: apps.odyssey.cellular, values: [true, false]}")
        let refusals: [([String], String)] = [
            (["--population", layout], "varies only device.* and network.*"),
            (["--population", devices, "--used", "57GB"], "--used and --population both give the devices"),
            // game.scn has 8 network phases, odyssey-telemetry.scn one.
            (
                ["--population", try study("far.study", "  - {path: network.8.bandwidth, values: [1Mbps]}")],
                "does not resolve"
            ),
        ]
        let telemetry = CLI.repository.appendingPathComponent("Scenarios/odyssey-telemetry.scn").path
        for (options, message) in refusals {
            let refused = try CLI.run(
                ["advise", telemetry, "--app", "odyssey", "--out", dir.appendingPathComponent("x").path] + options)
            #expect(refused.status != 0)
            #expect(
                refused.stderr.contains(message) && refused.stderr.split(separator: "\n").count == 1,
                "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x").path))
        }
    }

    @Test("--platform advises for another platform: the scenario migrated first; layouts.csv ranks the layouts")
    func otherPlatform() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let game = CLI.repository.appendingPathComponent("Scenarios/game.scn").path
        let out = dir.appendingPathComponent("ba").path
        let result = try CLI.run([
            "advise", game, "--app", "odyssey", "--platform", "background-assets", "--replications", "2",
            "--max-evaluations", "6", "--out", out, "--no-report",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let advised = try String(contentsOfFile: out + "/advised.scn", encoding: .utf8)
        #expect(advised.contains("\nplatform: background-assets\n") && advised.contains("\npolicies: [lru]\n"))
        let layouts = try String(contentsOfFile: out + "/layouts.csv", encoding: .utf8).split(separator: "\n")
        #expect(layouts[0].hasSuffix(",pareto_rank"))
        // Some layout is on the first front, and the file says why a rank is what it is.
        #expect(layouts.dropFirst().contains { $0.hasSuffix(",1") })
        #expect(!FileManager.default.fileExists(atPath: out + "/report.html"))
        let unknown = try CLI.run(["advise", game, "--app", "odyssey", "--platform", "symbian"])
        #expect(unknown.status == 64)
    }
}
