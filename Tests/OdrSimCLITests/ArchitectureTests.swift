import Foundation
import Testing

/// Issue 28: the README's architecture is the code's. The diagram is what
/// `scripts/architecture` makes of Package.swift, and every dependency a target declares on
/// another target of the package is imported by one of its files (the build's explicit
/// import check holds the other direction: nothing imported undeclared).
@Suite("Architecture")
struct ArchitectureTests {
    static let root = CLI.repository

    /// The Swift files of a target's folder, its folders by concern included, as paths relative
    /// to it, sorted.
    static func swiftFiles(in folder: URL) -> [String] {
        (FileManager.default.subpaths(atPath: folder.path) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// What `scripts/architecture` makes of Package.swift.
    static func generated(_ arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/architecture").path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text
    }

    @Test("docs/architecture.md's diagram is the one Package.swift makes")
    func diagram() throws {
        let generated = try Self.generated()
        // The two executables on top: odr-sim-live's command line over odr-sim's (issue 56).
        #expect(generated.hasPrefix("```text\nodr-sim-live  → LiveCLI\n"), "\(generated)")
        #expect(generated.contains("\nodr-sim       → OdrSimCLI\n"), "\(generated)")
        let readme = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- architecture:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- architecture:end -->"))
        #expect(
            String(readme[begin.upperBound..<end.lowerBound]) == generated,
            "docs/architecture.md's diagram differs from Package.swift's: run scripts/architecture --update")
    }

    @Test("Package.swift's head comment is the same diagram, drawn from its targets (issue 49)")
    func packageComment() throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let begin = try #require(package.range(of: "// architecture:begin\n"))
        let end = try #require(package.range(of: "// architecture:end"))
        let comment = String(package[begin.upperBound..<end.lowerBound])
        #expect(comment == (try Self.generated(["--package"])), "run scripts/architecture --update")
        #expect(comment.contains("//   ODRCore       → CPrefetch\n"), "\(comment)")
    }

    @Test("every dependency a target declares on another of the package's targets is imported")
    func declaredIsImported() throws {
        let diagram = try Self.generated()
        var checked = 0
        for line in diagram.split(separator: "\n") where line.contains(" → ") {
            let parts = line.components(separatedBy: " → ")
            let target = parts[0].trimmingCharacters(in: .whitespaces)
            let dependsOn = parts[1].components(separatedBy: "  [")[0]
            guard dependsOn != "—" else { continue }
            let folder = Self.root.appendingPathComponent("Sources/\(target)")
            let files = Self.swiftFiles(in: folder)
            guard !files.isEmpty else { continue }  // a C target's headers name their own includes
            let text = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
                .joined(separator: "\n")
            for dependency in dependsOn.components(separatedBy: ", ") {
                #expect(
                    text.contains("import \(dependency)\n"),
                    "\(target) declares \(dependency) but no file of it imports it")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test("the kernel's Scenario holds only what the kernel reads")
    func kernelReadsEveryScenarioField() throws {
        let folder = Self.root.appendingPathComponent("Sources/Simulation")
        let scenario = try String(contentsOf: folder.appendingPathComponent("Scenario.swift"), encoding: .utf8)
        let fields = scenario.split(separator: "\n").compactMap { line -> String? in
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            // Stored properties only: a computed one (`expectedEvents {`) is a helper, not state.
            guard words.count > 2, words[0] == "public", words[1] == "var", words[2].hasSuffix(":"),
                !line.hasSuffix("{")
            else { return nil }
            return String(words[2].dropLast())
        }
        #expect(fields.count >= 8, "\(fields)")
        let others = try Self.swiftFiles(in: folder)
            .filter { $0 != "Scenario.swift" }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        for field in fields {
            #expect(
                others.contains("scenario.\(field)"),
                """
                Scenario.\(field) is read by no file of the kernel: it belongs to the experiment (ScenarioDocument, \
                ExperimentPlan)
                """
            )
        }
    }

    @Test("--out (a folder), --no-report and --jobs are each declared once, in the option groups every command shares")
    func sharedOptionsDeclaredOnce() throws {
        let folder = Self.root.appendingPathComponent("Sources/OdrSimCLI")
        let files = Self.swiftFiles(in: folder)
        var declared: [String: [String]] = [:]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for declaration in Self.declarations(in: text) {
                declared[declaration, default: []].append((file as NSString).lastPathComponent)
            }
        }
        #expect(declared.values.reduce(0) { $0 + $1.count } > 40, "\(declared)")
        for option in ["--out <dir>", "--no-report", "--jobs"] {
            #expect(declared[option] == ["OutputOptions.swift"], "\(option) is declared in \(declared[option] ?? [])")
        }
    }

    /// Each `@Option`/`@Flag` of a file as its command line shows it: the long name (spelled
    /// out, or the property's name in kebab case) and, for an option, its value name
    /// (`--out <dir>` is a folder, `--out <file>` a file, another option).
    static func declarations(in text: String) -> [String] {
        var result: [String] = []
        for chunk in text.components(separatedBy: "@Option(").dropFirst()
            + text.components(separatedBy: "@Flag(").dropFirst()
        {
            let isOption = text.contains("@Option(" + chunk)
            guard let property = chunk.range(of: #"\bvar (\w+)"#, options: .regularExpression) else { continue }
            let head = chunk[..<property.upperBound]
            var name = String(chunk[property].dropFirst(4))
            if let custom = head.range(of: #"customLong\("[^"]+"\)"#, options: .regularExpression) {
                name = String(head[custom].dropFirst(12).dropLast(2))
            } else {
                name = name.replacingOccurrences(of: "([a-z])([A-Z])", with: "$1-$2", options: .regularExpression)
                    .lowercased()
            }
            var shown = "--" + name
            if isOption, let value = head.range(of: #"valueName: "[^"]+""#, options: .regularExpression) {
                shown += " <" + head[value].dropFirst(12).dropLast() + ">"
            }
            result.append(shown)
        }
        return result
    }

    @Test(
        """
        advise edits the typed scenario: the Advice target neither depends on ScenarioFile nor names its YAML \
        (issue 37)
        """
    )
    func adviceIsTyped() throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The target's declaration, however the formatter lays it out: up to the next target.
        let start = try #require(package.range(of: #"\.target\(\s*name: "Advice""#, options: .regularExpression))
        let rest = package[start.upperBound...]
        let declaration = rest[..<(rest.range(of: ".target(")?.lowerBound ?? rest.endIndex)]
        #expect(declaration.contains("Experiments"), "\(declaration)")
        #expect(!declaration.contains("ScenarioFile"), "\(declaration)")
        let folder = Self.root.appendingPathComponent("Sources/Advice")
        let text = try Self.swiftFiles(in: folder).map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        for name in ["import ScenarioFile", "ScenarioRewrite", "ScenarioParser", "Yams"] {
            #expect(!text.contains(name), "Advice names \(name)")
        }
    }

    @Test("commands only in OdrSimCLI: at most 2,400 lines, the domain code in the modules it belongs to (issue 37)")
    func commandLineIsThin() throws {
        let folder = Self.root.appendingPathComponent("Sources/OdrSimCLI")
        let lines = try Self.swiftFiles(in: folder).map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
        .reduce(0) { $0 + $1.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
        #expect(lines <= 2_400, "OdrSimCLI has \(lines) lines")
        // What moved out stays out: the Pareto ranks (Advice), the warnings (Metrics), the tables
        // (Reports), the output rules (SafeOutput).
        let text = try Self.swiftFiles(in: folder).map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        for declaration in [
            "func paretoRanks", "func scenarioWarnings", "struct Table", "enum OutputSafety", "struct ReportDirectory",
        ] {
            #expect(!text.contains(declaration), "\(declaration) is back in OdrSimCLI")
        }
    }
}
