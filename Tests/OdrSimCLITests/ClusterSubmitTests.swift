import Foundation
import Testing

/// Issue 53: `scripts/cluster/submit` checks N against the study before anything is submitted
/// (as text first, then by odr-sim against the study's runs), plans its arrays in one pass,
/// and says in one line what it could not find. Slurm is stood in for by two small scripts
/// (`sbatch` logs its arguments and answers a job id; `scontrol` reports MaxArraySize = 101);
/// scripts/slurm-test runs the real one.
@Suite("scripts/cluster/submit")
struct ClusterSubmitTests {
    static let study = "Scenarios/studies/game-free-space.study"

    /// A folder of stand-ins; `withScontrol: false` leaves scontrol out.
    static func fakeSlurm(in dir: URL, withScontrol: Bool = true) throws -> URL {
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = dir.appendingPathComponent("sbatch.log").path
        var scripts = ["sbatch": "#!/bin/sh\necho \"$*\" >> \(log)\necho \"$$;cluster\"\n"]
        if withScontrol { scripts["scontrol"] = "#!/bin/sh\necho 'MaxArraySize            = 101'\n" }
        for (name, text) in scripts {
            let file = bin.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        // The tools the script uses, and nothing of Slurm's but the stand-ins.
        for tool in ["bash", "dirname", "awk", "mktemp", "rmdir", "rm", "tail", "cut", "grep", "mkdir", "sh"] {
            for folder in ["/usr/bin", "/bin"] where FileManager.default.fileExists(atPath: "\(folder)/\(tool)") {
                try? FileManager.default.createSymbolicLink(
                    atPath: bin.appendingPathComponent(tool).path, withDestinationPath: "\(folder)/\(tool)")
                break
            }
        }
        return bin
    }

    static func submit(_ arguments: [String], bin: URL) throws -> CLI.Result {
        try CLI.run(
            executable: URL(fileURLWithPath: "/bin/bash"),
            [CLI.repository.appendingPathComponent("scripts/cluster/submit").path] + arguments,
            environment: ["PATH": bin.path, "ODR_SIM": CLI.binary.path])
    }

    @Test(
        "N refused before anything is submitted: one line, exit 64",
        arguments: [
            (
                "100000000000000000000",
                "submit: N must be a whole number of shards from 1 to 10000000, not '100000000000000000000'"
            ),
            ("0", "submit: N must be a whole number of shards from 1 to 10000000, not '0'"),
            ("1e3", "submit: N must be a whole number of shards from 1 to 10000000, not '1e3'"),
            ("211", "submit: odr-sim: --missing 211: there are 210 runs in the study to share, so at most 210 shards"),
            (
                "10000000",
                "submit: odr-sim: --missing 10000000: there are 210 runs in the study to share, so at most 210 shards"
            ),
        ])
    func refused(_ n: String, _ line: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = try Self.fakeSlurm(in: dir)
        let result = try Self.submit([Self.study, n, dir.path + "/shards", dir.path + "/out"], bin: bin)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr == line + "\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("sbatch.log").path))
    }

    @Test("without scontrol: one line saying so, exit 127, nothing submitted")
    func noScontrol() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = try Self.fakeSlurm(in: dir, withScontrol: false)
        let result = try Self.submit([Self.study, "4", dir.path + "/shards", dir.path + "/out"], bin: bin)
        #expect(result.status == 127)
        #expect(result.stderr == "submit: scontrol not found: run this on a Slurm login node\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("sbatch.log").path))
    }

    @Test("210 shards under MaxArraySize = 101: three arrays of at most 100 tasks, then the merge after all three")
    func arrays() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = try Self.fakeSlurm(in: dir)
        let result = try Self.submit([Self.study, "210", dir.path + "/shards", dir.path + "/out"], bin: bin)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasSuffix(": shards 1-100 of 210 (--array=1-100%100, offset 0)"))
        #expect(lines[1].hasSuffix(": shards 101-200 of 210 (--array=1-100%100, offset 100)"))
        #expect(lines[2].hasSuffix(": shards 201-210 of 210 (--array=1-10%100, offset 200)"))
        #expect(lines[3].hasPrefix("shards: 3 array(s) of 210 task(s) of 210; merge: job "))
        let log = try String(contentsOf: dir.appendingPathComponent("sbatch.log"), encoding: .utf8)
            .split(separator: "\n")
        #expect(log.count == 4)
        #expect(log.last?.contains("--dependency=afterok:") == true && log.last?.contains("merge.sbatch") == true)
    }
}
