import Foundation
import Testing

/// Issue 53: a refused value is named by the flag as written, with a message for the value it
/// refuses, and the documented exit status (64 for a misuse of the command line, 1 for bad
/// input), on every command that takes the flag.
@Suite("Refusals name the flag and the value")
struct RefusalMessageTests {
    static let study = "Scenarios/studies/game-free-space.study"

    @Test(
        "each refusal: its line and status",
        arguments: [
            (
                ["compare", "Scenarios/game.scn", "--precision", "100%"],
                "--precision: '100%' is not a percentage above 0 % and below 100 %", 64
            ),
            (
                ["run", "Scenarios/game.scn", "--precision", "0%"],
                "--precision: '0%' is not a percentage above 0 % and below 100 %", 64
            ),
            (
                ["sweep", study, "--precision", "250%"],
                "--precision: '250%' is not a percentage above 0 % and below 100 %", 64
            ),
            (
                ["advise", "Scenarios/game.scn", "--app", "odyssey", "--confirm", "5", "--precision", "100%"],
                "--precision: '100%' is not a percentage above 0 % and below 100 %", 64
            ),
            (
                ["compare", "Scenarios/game.scn", "--max-replications", "0"],
                "--max-replications must be between 1 and 10000", 64
            ),
            (
                ["run", "Scenarios/game.scn", "--max-replications", "10001"],
                "--max-replications must be between 1 and 10000", 64
            ),
            (
                ["advise", "Scenarios/game.scn", "--app", "odyssey", "--confirm", "20000"],
                "--confirm must be between 1 and 10000", 64
            ),
            (
                ["compare", "Scenarios/game.scn", "--limit", "x"],
                "--limit: limit 'x' is not METRIC<=VALUE or METRIC<=baseline", 64
            ),
            (["sweep", study, "--limit", "nothing<=3"], "--limit: 'nothing' is not a metric", 64),
            (
                ["compare", "Scenarios/game.scn", "--objective", ""],
                "--objective: is empty: give METRIC or WEIGHT*METRIC terms joined by +", 64
            ),
            (["compare", "Scenarios/game.scn", "--objective", "+"], "--objective: '+' has an empty term", 64),
            (
                ["sweep", study, "--objective", "redownload_bytes+"],
                "--objective: 'redownload_bytes+' has an empty term", 64
            ),
            (
                ["compare", "Scenarios/game.scn", "--objective", "*"],
                "--objective: '*' is not WEIGHT*METRIC: one side of '*' is empty", 64
            ),
            (
                ["sweep", study, "--objective", "*redownload_bytes"],
                "--objective: '*redownload_bytes' is not WEIGHT*METRIC: one side of '*' is empty", 64
            ),
            (
                ["compare", "Scenarios/game.scn", "--select-best", "redownload_bytes", "--indifference", "1e308"],
                "--indifference: '1e308' is not a size from 1 B to 1PiB (such as 50MB) for redownload_bytes", 64
            ),
            (
                ["compare", "Scenarios/game.scn", "--select-best", "wait_p95_s", "--indifference=0s"],
                "--indifference: '0s' is not a duration above 0 up to 3650d (such as 30s) for wait_p95_s", 64
            ),
            (
                ["advise", "Scenarios/game.scn", "--app", "odyssey", "--confirm", "5", "--indifference", "1e308"],
                "--indifference: '1e308' is not a size from 1 B to 1PiB such as 50MB", 64
            ),
            (
                ["sweep", study, "--missing", "100000000", "--out", "/nonexistent/shards"],
                "--missing must be a whole number of shards from 1 to 10000000, not '100000000'", 64
            ),
            (
                ["sweep", study, "--missing", "5000000", "--out", "/nonexistent/shards"],
                "--missing 5000000: there are 210 runs in the study to share, so at most 210 shards", 64
            ),
            (
                ["sweep", study, "--missing", "4", "--out", "README.md"],
                "--missing: README.md is a file, not the shards' folder (--out DIR)", 1
            ),
        ] as [([String], String, Int32)])
    func refusal(_ arguments: [String], _ line: String, _ status: Int32) throws {
        let result = try CLI.run(arguments + ["--no-report"])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("odr-sim: \(line)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
