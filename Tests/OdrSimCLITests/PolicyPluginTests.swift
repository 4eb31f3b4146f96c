import Foundation
import Testing

/// Issue 41: purge policies loaded without a rebuild, from a C shared library
/// (`odrsim_policy.h`) or a Python class, checked against the same contract as a built-in
/// policy. The shipped examples reproduce the built-ins they copy exactly: the same misses and
/// bytes on a trace, the same rows on a scenario.
@Suite("Policy plug-ins in C and Python")
struct PolicyPluginTests {
    static let include = CLI.repository.appendingPathComponent("Sources/COdrSimPolicy/include").path

    /// Runs scripts/build-plugin on `file` and returns the path it prints last.
    static func build(_ file: String) throws -> String {
        let result = try CLI.run(executable: CLI.repository.appendingPathComponent("scripts/build-plugin"), [file])
        #expect(result.status == 0, "build-plugin \(file): \(result.stderr)")
        return result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// The C example and the Python host, built once for the suite.
    static let fifo = Result { try build("examples/plugins/fifo.c") }
    static let host = Result { try build("examples/plugins/lru.py") }

    /// Rows of a summary CSV without their policy column, keyed by policy.
    static func rows(_ csv: URL) throws -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for line in try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            rows[String(cells[0]), default: []].append(String(cells[1]))
        }
        return rows
    }

    @Test(
        "fifo.c and lru.py give fifo's and lru's misses and bytes on zipf-20k at 1, 5, 10 and 25 %",
        arguments: ["1%", "5%", "10%", "25%"])
    func traceIdentical(_ capacity: String) throws {
        let fifo = try Self.fifo.get()
        _ = try Self.host.get()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "replay", "Scenarios/traces/zipf-20k.csv", "--capacity", capacity, "--policy-plugin", fifo,
            "--policy-plugin", "examples/plugins/lru.py:LRU", "--policy", "c-fifo", "--policy", "fifo",
            "--policy", "LRU", "--policy", "lru", "--no-report", "--out", dir.appendingPathComponent("o").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try Self.rows(dir.appendingPathComponent("o/summary.csv"))
        #expect(rows["c-fifo"] != nil && rows["c-fifo"] == rows["fifo"], "\(rows)")
        #expect(rows["LRU"] != nil && rows["LRU"] == rows["lru"], "\(rows)")
        // Not trivially equal: the two orders differ on this trace.
        #expect(rows["fifo"] != rows["lru"])
    }

    @Test("on game.scn, 3 replications on 2 threads: every column of summary.csv as the built-ins'")
    func scenarioIdentical() throws {
        let fifo = try Self.fifo.get()
        _ = try Self.host.get()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "compare", "Scenarios/game.scn", "--replications", "3", "--jobs", "2", "--policy-plugin", fifo,
            "--policy-plugin", "examples/plugins/lru.py:LRU", "--policy", "c-fifo", "--policy", "fifo",
            "--policy", "LRU", "--policy", "lru", "--no-report", "--out", dir.appendingPathComponent("o").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try Self.rows(dir.appendingPathComponent("o/summary.csv"))
        #expect(rows["c-fifo"]?.count == 3 && rows["c-fifo"] == rows["fifo"])
        #expect(rows["LRU"]?.count == 3 && rows["LRU"] == rows["lru"])
        #expect(rows["fifo"] != rows["lru"])
    }

    @Test("a plug-in is an app's strategy: c-fifo removes what fifo removes, not what lru does")
    func asStrategy() throws {
        let fifo = try Self.fifo.get()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func purged(_ strategy: String) throws -> [String] {
            try Data(OwnStrategyTests.scenario(strategy: strategy).utf8).write(
                to: dir.appendingPathComponent("\(strategy).scn"))
            let result = try CLI.run(
                ["run", "\(strategy).scn", "--policy-plugin", fifo, "--no-report", "--out", strategy], in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try String(contentsOf: dir.appendingPathComponent("\(strategy)/events.csv"), encoding: .utf8)
                .split(separator: "\n")
            return rows.filter { $0.contains(",purge,") }.map {
                String($0.split(separator: ",", omittingEmptySubsequences: false)[6])
            }
        }
        // The suite's hand-worked case: lru removes a2, fifo removes a1 (stored first).
        #expect(try purged("c-fifo") == ["a1"])
        #expect(try purged("lru") == ["a2"])
    }

    /// Compiles Tests/Fixtures/plugins/broken.c with one defect switched on.
    static func broken(_ defect: String, in dir: URL) throws -> String {
        let out = dir.appendingPathComponent("\(defect).so").path
        let cc = try CLI.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["cc", "-shared", "-fPIC", "-D\(defect)", "-I", include, "Tests/Fixtures/plugins/broken.c", "-o", out])
        #expect(cc.status == 0, "\(cc.stderr)")
        return out
    }

    @Test(
        "a plug-in that cannot be used, or answers wrong: one line naming it, exit 1, nothing written",
        arguments: [
            ("WRONG_VERSION", "speaks plug-in interface version 99; this odr-sim speaks 1"),
            ("CRASH_IN_CREATE", "crashed in create (signal 11)"),
            ("FAIL_CREATE", "create failed: needs a licence file"),
            ("NOT_A_CANDIDATE", "chose pack 1000000, which is not a candidate of this demand"),
            ("TWICE", "twice"),
            ("TOO_FEW", "freed 0 of the 276450 bytes needed while other candidates remain"),
        ])
    func brokenPlugins(_ defect: String, _ message: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plugin = try Self.broken(defect, in: dir)
        let out = dir.appendingPathComponent("o")
        let result = try CLI.run([
            "replay", "Scenarios/traces/zipf-20k.csv", "--capacity", "10%", "--policy-plugin", plugin,
            "--policy", "broken", "--no-report", "--out", out.path,
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("odr-sim: ") && result.stderr.contains(plugin) && result.stderr.contains(message),
            "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test(
        "the file given is missing, not a library, or its name is taken: one line, exit 1",
        arguments: [
            ("/nonexistent/p.so", "/nonexistent/p.so: no such file"),
            ("README.md", "README.md: not a plug-in odr-sim can load"),
            ("examples/plugins/lru.py", "name the Python class to load: examples/plugins/lru.py:CLASS"),
            ("examples/plugins/lru.py:lru", "a policy named 'lru' exists already"),
        ])
    func unusable(_ spec: String, _ message: String) throws {
        _ = try Self.host.get()
        let result = try CLI.run([
            "run", "Scenarios/game.scn", "--policy-plugin", spec, "--no-report", "--out", "/nonexistent/o",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("odr-sim: ") && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test(
        "a Python policy that raises: the exception's message, with the policy's name",
        arguments: [
            (
                "RaisesInSelect",
                """
                purge policy 'RaisesInSelect' (Tests/Fixtures/plugins/raising.py): select_victims: raised \
                ValueError: no victim today
                """
            ),
            (
                "RaisesOnAccess",
                "purge policy 'RaisesOnAccess' (Tests/Fixtures/plugins/raising.py): accessed raised KeyError: 0"
            ),
            ("RaisesInCreate", "Tests/Fixtures/plugins/raising.py: create failed: RuntimeError: cannot start"),
            ("Missing", "Tests/Fixtures/plugins/raising.py: create failed: LookupError: raising.py defines no Missing"),
            // Issue 53: every method is checked on the instance before use.
            (
                "HidesSelect",
                "Tests/Fixtures/plugins/raising.py: create failed: HidesSelect.select_victims is not callable "
                    + "(NoneType)"
            ),
            (
                "NumberForStored",
                "Tests/Fixtures/plugins/raising.py: create failed: NumberForStored.stored is not callable (int)"
            ),
        ])
    func pythonRaises(_ name: String, _ message: String) throws {
        _ = try Self.host.get()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o")
        let result = try CLI.run([
            "run", "Scenarios/game.scn", "--policy-plugin", "Tests/Fixtures/plugins/raising.py:\(name)",
            "--policy", name, "--no-report", "--out", out.path,
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "odr-sim: \(message)\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test(
        """
        scripts/build-plugin never replaces a file it did not make: an OUT that is not a shared library is refused, \
        left as it was
        """
    )
    func buildPluginKeepsForeignFiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.so")
        try Data("my notes\n".utf8).write(to: notes)
        let script = CLI.repository.appendingPathComponent("scripts/build-plugin")
        let refused = try CLI.run(executable: script, ["examples/plugins/fifo.c", notes.path])
        #expect(
            refused.status == 1 && refused.stderr.contains("exists and is not a shared library"), "\(refused.stderr)")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes\n")
        // An earlier build is replaced; nothing temporary is left.
        let built = dir.appendingPathComponent("fifo.so")
        #expect(try CLI.run(executable: script, ["examples/plugins/fifo.c", built.path]).status == 0)
        #expect(try CLI.run(executable: script, ["examples/plugins/fifo.c", built.path]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["fifo.so", "notes.so"])
    }
}
