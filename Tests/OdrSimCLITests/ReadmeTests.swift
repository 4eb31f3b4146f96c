import Foundation
import Testing

/// Issue 27: what the README shows a newcomer exists in a fresh clone. On the main before it,
/// the README's four pictures lived in an ignored folder and its trace examples named
/// `../shared`, which a clone does not have.
@Suite("README")
struct ReadmeTests {
    static let readme = (try? String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    @Test("every image the README names is a file of the repository, not ignored by git")
    func images() throws {
        let regex = try NSRegularExpression(pattern: #"!\[[^\]]*\]\(([^)]+)\)"#)
        let matches = regex.matches(in: Self.readme, range: NSRange(Self.readme.startIndex..., in: Self.readme))
        let paths = matches.compactMap { Range($0.range(at: 1), in: Self.readme).map { String(Self.readme[$0]) } }
        #expect(paths.count >= 4)
        for path in paths where !path.hasPrefix("http") {
            let url = CLI.repository.appendingPathComponent(path)
            let data = FileManager.default.contents(atPath: url.path)
            #expect(data != nil, "README names \(path), which is not in the repository")
            #expect(data.map { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) } ?? false, "\(path) is not a PNG")
            #expect(!path.hasPrefix("Reports/"), "\(path) is under Reports/, which .gitignore ignores")
        }
    }

    @Test("the quick examples' trace commands name a trace that ships, and it replays")
    func shippedTrace() throws {
        let commands = Self.readme.split(separator: "\n").filter { $0.hasPrefix("odr-sim replay") || $0.hasPrefix("odr-sim mrc") || $0.hasPrefix("odr-sim bound") }
        #expect(commands.count >= 3)
        for command in commands {
            let trace = String(command.split(separator: " ")[2])
            #expect(!trace.hasPrefix("../"), "\(command) names a file outside the repository")
            #expect(FileManager.default.fileExists(atPath: CLI.repository.appendingPathComponent(trace).path), "\(command): no \(trace)")
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", CLI.repository.appendingPathComponent("Scenarios/traces/zipf-20k.csv").path,
                                  "--capacity", "10%", "--policy", "lru", "--no-report", "--out", dir.appendingPathComponent("r").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("20000"), "\(result.stdout)")
    }
}
