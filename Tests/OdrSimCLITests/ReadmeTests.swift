import Foundation
import OdrSimCLI
import Testing

/// Issue 27: what the README shows a newcomer exists in a fresh clone. On the main before it,
/// the README's four pictures lived in an ignored folder and its trace examples named a
/// folder beside the repository, which a clone does not have.
@Suite("README")
struct ReadmeTests {
    static let readme =
        (try? String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// docs/*.md, each with its text.
    static func guides() throws -> [(name: String, text: String)] {
        let folder = CLI.repository.appendingPathComponent("docs")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { ("docs/" + $0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test(
        """
        every image the README and the guides name is a file of the repository, not ignored by git; the README \
        shows one
        """
    )
    func images() throws {
        let regex = try NSRegularExpression(pattern: #"!\[[^\]]*\]\(([^)]+)\)"#)
        var count = 0
        for (name, text) in [("README.md", Self.readme)] + (try Self.guides()) {
            let base = name == "README.md" ? CLI.repository : CLI.repository.appendingPathComponent("docs")
            let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
            let paths = matches.compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
            if name == "README.md" { #expect(!paths.isEmpty, "the README shows no picture") }
            for path in paths where !path.hasPrefix("http") {
                count += 1
                let url = base.appendingPathComponent(path).standardized
                let data = FileManager.default.contents(atPath: url.path)
                #expect(data != nil, "\(name) names \(path), which is not in the repository")
                #expect(data.map { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) } ?? false, "\(path) is not a PNG")
                #expect(!url.path.contains("/Reports/"), "\(path) is under Reports/, which .gitignore ignores")
            }
        }
        #expect(count >= 4)
    }

    @Test("the README is a front door: at most 400 lines, the two Quick start commands, links to guides that exist")
    func frontDoor() throws {
        #expect(Self.readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 400)
        #expect(
            Self.readme.contains("./odr-sim run scenarios/game.scn")
                && Self.readme.contains("scripts/bootstrap --tests && swift test"))
        let regex = try NSRegularExpression(pattern: #"\]\(([^)#]+)(#[^)]*)?\)"#)
        for (name, text) in [("README.md", Self.readme)] + (try Self.guides()) {
            let base = name == "README.md" ? CLI.repository : CLI.repository.appendingPathComponent("docs")
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let target = String(text[range])
                guard !target.hasPrefix("http"), !target.hasPrefix("mailto") else { continue }
                #expect(
                    FileManager.default.fileExists(atPath: base.appendingPathComponent(target).standardized.path),
                    "\(name) links to \(target), which does not exist")
            }
        }
    }

    @Test("the quick examples' trace commands name a trace that ships, and it replays")
    func shippedTrace() throws {
        let commands = Self.readme.split(separator: "\n").filter {
            $0.hasPrefix("odr-sim replay") || $0.hasPrefix("odr-sim mrc") || $0.hasPrefix("odr-sim bound")
        }
        #expect(commands.count >= 3)
        for command in commands {
            let trace = String(command.split(separator: " ")[2])
            #expect(!trace.hasPrefix("../"), "\(command) names a file outside the repository")
            #expect(
                FileManager.default.fileExists(atPath: CLI.repository.appendingPathComponent(trace).path),
                "\(command): no \(trace)")
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "replay", CLI.repository.appendingPathComponent("Scenarios/traces/zipf-20k.csv").path,
            "--capacity", "10%", "--policy", "lru", "--no-report", "--out", dir.appendingPathComponent("r").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("20000"), "\(result.stdout)")
    }

    /// The commands of the README's "What it does" block, as a user types them.
    static func examples() -> [[String]] {
        guard let start = readme.range(of: "## What it does\n\n```\n"),
            let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
        else { return [] }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("odr-sim ") else { return nil }
            let command = line.components(separatedBy: " # ")[0]
            return command.split(separator: " ").dropFirst().map(String.init)
        }
    }

    @Test(
        """
        every example of \"What it does\" runs as written in a copy of what a clone has (nothing beside it, no \
        Reports/ of a build)
        """
    )
    func examplesRunInAClone() throws {
        let examples = Self.examples()
        #expect(examples.count >= 14, "\(examples)")
        #expect(
            Set(examples.map { $0[0] }).isSuperset(of: [
                "run", "compare", "sweep", "replay", "mrc", "bound", "check", "advise", "migrate",
            ]))
        let clone = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: clone) }
        try Self.copyClone(to: clone)
        let files = FileManager.default
        for example in examples {
            let result = try CLI.run(example, in: clone)
            #expect(result.status == 0, "odr-sim \(example.joined(separator: " ")): \(result.stderr)")
        }
        #expect(files.fileExists(atPath: clone.appendingPathComponent("game-pad.scn").path))
        #expect(files.fileExists(atPath: clone.appendingPathComponent("Reports/game-advice/advised.scn").path))
    }

    /// One `odr-sim …` command line of a guide's code blocks (a `$ ` prompt and a trailing
    /// `# comment` left out), and the output a transcript (`$ odr-sim …`) shows after it.
    struct GuideExample {
        let guide: String
        let arguments: [String]
        /// The lines a transcript shows; `…` stands for text left out.
        var output: [String] = []
        /// A transcript of a refusal: its output is odr-sim's one-line error.
        var showsError: Bool { output.first?.hasPrefix("odr-sim: ") ?? false }
    }

    /// The guides' examples in order, guides by name; lines with placeholders (`K/N`, `STUDY`)
    /// are not commands to type as they are.
    static func guideExamples() throws -> [GuideExample] {
        var examples: [GuideExample] = []
        for (name, text) in try guides() {
            var inBlock = false
            var transcript = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") {
                    inBlock.toggle()
                    transcript = false
                    continue
                }
                guard inBlock else { continue }
                var command = line.trimmingCharacters(in: .whitespaces)
                let prompted = command.hasPrefix("$ ")
                if prompted { command.removeFirst(2) }
                guard command.hasPrefix("odr-sim ") else {
                    if transcript, !examples.isEmpty { examples[examples.count - 1].output.append(String(line)) }
                    continue
                }
                transcript = false
                command = command.components(separatedBy: " # ")[0].components(separatedBy: "  #")[0]
                let words = command.split(separator: " ").dropFirst().map(String.init)
                guard
                    !words.contains(where: {
                        ["K/N", "STUDY", "FILE", "DIR", "TRACE", "PORT", "→"].contains($0) || $0.contains("PORT")
                            || $0.contains("…")
                    })
                else { continue }
                examples.append(GuideExample(guide: name, arguments: words))
                transcript = prompted
            }
        }
        return examples
    }

    @Test(
        """
        every example of the guides runs as written in a copy of a clone, and prints what its transcript shows \
        (issue 37)
        """
    )
    func guideExamplesRun() throws {
        let examples = try Self.guideExamples()
        #expect(examples.filter { !$0.output.isEmpty }.count >= 6)
        let clone = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: clone) }
        try Self.copyClone(to: clone)
        func words(_ line: some StringProtocol) -> String { line.split(separator: " ").joined(separator: " ") }
        // A plug-in's example needs the plug-in built first: PolicyPluginTests runs those.
        for example in examples where !example.showsError && !example.arguments.contains("--policy-plugin") {
            let result = try CLI.run(example.arguments, in: clone)
            let shown = "odr-sim \(example.arguments.joined(separator: " ")) (\(example.guide))"
            #expect(result.status == 0, "\(shown): \(result.stderr)")
            let printed = (result.stdout + result.stderr).split(separator: "\n").map(words)
            // Each line of the transcript is a line odr-sim printed; `…` leaves text out.
            let transcript = example.output.filter { line in
                !line.trimmingCharacters(in: .whitespaces).isEmpty && words(line) != "…"
            }
            for line in transcript {
                let parts = line.components(separatedBy: "…").map(words).filter { !$0.isEmpty }
                #expect(
                    printed.contains { printedLine in
                        var rest = Substring(printedLine)
                        return parts.allSatisfy { part in
                            guard let found = rest.range(of: part) else { return false }
                            rest = rest[found.upperBound...]
                            return true
                        }
                    }, "\(shown) did not print: \(line)")
            }
        }
    }

    /// The tracked files a guide's example reads (scenarios, baselines, fixtures), copied to
    /// `clone` as a clone has them.
    static func copyClone(to clone: URL) throws {
        let list = Process()
        list.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        list.arguments = ["git", "-C", CLI.repository.path, "ls-files", "-z"]
        let pipe = Pipe()
        list.standardOutput = pipe
        try list.run()
        let names = pipe.fileHandleForReading.readDataToEndOfFile().split(separator: 0).map {
            String(decoding: $0, as: UTF8.self)
        }
        list.waitUntilExit()
        let files = FileManager.default
        for name in names
        where ["Scenarios/", "Reports/", "Tests/Fixtures/"].contains(where: name.hasPrefix) || name == "scenarios" {
            let source = CLI.repository.appendingPathComponent(name)
            let target = clone.appendingPathComponent(name)
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if let link = try? files.destinationOfSymbolicLink(atPath: source.path) {
                try files.createSymbolicLink(atPath: target.path, withDestinationPath: link)
            } else {
                try files.copyItem(at: source, to: target)
            }
        }
    }

    @Test("every command line of the guides is one odr-sim accepts: its command, options and values parse (issue 37)")
    func guideExamplesParse() throws {
        let examples = try Self.guideExamples()
        #expect(examples.count >= 12, "\(examples.count) examples")
        for example in examples {
            do {
                _ = try OdrSim.parseAsRoot(example.arguments)
            } catch {
                Issue.record(
                    """
                    \(example.guide): odr-sim \(example.arguments.joined(separator: " ")): \
                    \(OdrSim.message(for: error))
                    """
                )
            }
        }
    }

    @Test(
        """
        the README's migration answer is what sweep migration.study prints: its recommendation and trade-offs, \
        verbatim (issue 40)
        """
    )
    func migrationAnswer() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "sweep", "Scenarios/studies/migration.study", "--no-report", "--out", dir.appendingPathComponent("o").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let readme = try String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let printed = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let answer = try #require(printed.first { $0.hasPrefix("Over the study: Recommended: ") })
        let tradeOffs = try #require(printed.first { $0.hasPrefix("Its trade-offs against ") })
        #expect(readme.contains("\n" + answer + "\n"), "README lacks: \(answer)")
        #expect(readme.contains("\n" + tradeOffs + "\n"), "README lacks: \(tradeOffs)")
    }

    @Test(
        """
        the README's shared-phone answer is what compare --app odyssey measures: gdsf and largest-first re-download \
        nothing, lru and fifo 45 MB, in every replication; the update holds a launch for 30 s
        """
    )
    func sharedPhoneAnswer() throws {
        let readme = try String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        #expect(
            readme.contains(
                """
                with `gdsf` or `largest-first` it re-downloads nothing, with `lru` or `fifo` 45 MB, in every \
                replication
                """
            ))
        #expect(readme.contains("an app update whose essential chapter holds a launch for 30 s"))
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o")
        let result = try CLI.run([
            "compare", "Scenarios/shared-phone.scn", "--app", "odyssey", "--replications", "5", "--no-report", "--out",
            out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: out.appendingPathComponent("comparison-apps.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = try #require(lines.first)
        func value(_ policy: String, _ column: String) throws -> Double {
            let row = try #require(lines.first { $0.count > 1 && $0[0] == "odyssey" && $0[1] == policy }, "\(policy)")
            let at = try #require(header.firstIndex(of: column), "\(column)")
            return try #require(Double(row[at]))
        }
        // "In every replication": the mean is the claim and the standard deviation 0.
        for (policy, bytes) in [("gdsf", 0.0), ("largest-first", 0.0), ("lru", 45e6), ("fifo", 45e6)] {
            #expect(try value(policy, "redownload_bytes_mean") == bytes, "\(policy)")
            #expect(try value(policy, "redownload_bytes_sd") == 0, "\(policy)")
            #expect(try value(policy, "launch_blocked_s_mean") == 30, "\(policy)")
        }
    }
}
