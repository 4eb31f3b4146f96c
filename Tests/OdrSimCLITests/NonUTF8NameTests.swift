import Foundation
import Testing

/// Issue 53, class 7: a file name that is not UTF-8 (here `m` and the byte 0xFF, Latin-1's
/// `ÿ`) is opened and written as the bytes given, on every surface that takes a path, and
/// shown as `\xff` wherever odr-sim prints it.
@Suite("File names that are not UTF-8")
struct NonUTF8NameTests {
    /// Runs `script` in a fresh folder under `sh`, with `$name` the bytes `m\377`, `$repo`
    /// the repository and `$odr` odr-sim: Swift's strings cannot carry such a name, so the
    /// shell makes it.
    static func shell(_ script: String) throws -> (status: Int32, stdout: String, stderr: String, dir: URL) {
        let dir = try CLI.temporaryDirectory()
        let result = try CLI.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "name=$(printf 'm\\377'); repo=\"$1\"; odr=\"$0\"; cd \"$2\" && " + script, CLI.binary.path,
                CLI.repository.path, dir.path,
            ])
        return (result.status, result.stdout, result.stderr, dir)
    }

    @Test(
        "opened and written as given: the file made has the very bytes, and the name is shown as \\xff",
        arguments: [
            // A scenario in, a report folder out.
            (
                "cp \"$repo/Scenarios/game.scn\" \"$name.scn\" && \"$odr\" run \"$name.scn\" --no-report"
                    + " --out \"r$name\" && test -f \"r$name/summary.csv\"", "reports in rm\\xff/"
            ),
            // A migrated scenario out, run again.
            (
                "\"$odr\" migrate \"$repo/Scenarios/game.scn\" --to background-assets --out \"$name.scn\""
                    + " && head -1 \"$name.scn\" | grep -q 'odr-sim migrate' && \"$odr\" run \"$name.scn\" --no-report"
                    + " --out r", "m\\xff.scn"
            ),
            // A trace in, its default report folder named after it.
            (
                "printf 'time,obj_id,size\\n1,1,100\\n2,2,100\\n3,1,100\\n' > \"t$name.csv\" && \"$odr\" replay"
                    + " \"t$name.csv\" --capacity 150 --no-report --out \"o$name\" && test -f \"o$name/summary.csv\""
                    + " && ls | od -An -c | tr -d ' \\n'", "om377"
            ),
            // A C plug-in, and a Python one, loaded from such a name.
            (
                "cp \"$repo/.build/plugins/fifo.so\" \"p$name.so\" && \"$odr\" run \"$repo/Scenarios/game.scn\""
                    + " --policy-plugin \"./p$name.so\" --policy c-fifo --no-report --out r", "1 run(s)"
            ),
            (
                "cp \"$repo/examples/plugins/lru.py\" \"l$name.py\" && \"$odr\" run \"$repo/Scenarios/game.scn\""
                    + " --policy-plugin \"./l$name.py:LRU\" --policy LRU --no-report --out r", "1 run(s)"
            ),
        ])
    func openedAsGiven(_ script: String, shown: String) throws {
        _ = try PolicyPluginTests.fifo.get()
        _ = try PolicyPluginTests.host.get()
        let result = try Self.shell(script)
        defer { try? FileManager.default.removeItem(at: result.dir) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(shown), "\(result.stdout)\(result.stderr)")
        // Never the raw byte (which a terminal or a UTF-8 reader turns into U+FFFD).
        #expect(!(result.stdout + result.stderr).contains("\u{FFFD}"))
    }

    @Test(
        "a name that is not there is said as given, escaped: one line, exit 1",
        arguments: [
            ("\"$odr\" run \"x$name.scn\" --no-report", "xm\\xff.scn:1:1: no such file\n"),
            ("\"$odr\" replay \"x$name.csv\" --capacity 10 --no-report", "xm\\xff.csv: cannot open: No such file"),
            (
                "\"$odr\" run \"$repo/Scenarios/game.scn\" --policy-plugin \"x$name.so\" --no-report",
                "odr-sim: xm\\xff.so: no such file\n"
            ),
        ])
    func missing(_ script: String, line: String) throws {
        let result = try Self.shell(script)
        defer { try? FileManager.default.removeItem(at: result.dir) }
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(line), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: result.dir.path).isEmpty)
    }

    @Test("the one name that cannot be carried (UTF-8 holding U+10FE80–U+10FEFF) is refused, exit 64")
    func carrierRefused() throws {
        let result = try CLI.run(["run", "a\u{10FEFF}.scn", "--no-report"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("odr-sim: argument 'a\\u{10feff}.scn' holds a character of U+10FE80"))
    }
}
