import Foundation
import Testing

/// Issue 49: the house's measures, met by design and held here. The toolchain's formatter
/// decides a line's shape (`.swift-format`, checked by `swift format lint --strict`), no
/// Swift line is over 120 columns, each command's `run()` is at most 40 lines, and an app's
/// eviction travels as one value the core owns (no relay of strategies by app index).
@Suite("The house's shape")
struct HouseShapeTests {
    static let root = CLI.repository

    /// Every Swift file of the package and its side packages, relative to the root.
    static func swiftFiles() -> [String] {
        let folders = ["Sources", "Tests", "Benchmarks", "Fuzz"]
        return ["Package.swift"]
            + folders.flatMap { folder in
                (FileManager.default.subpaths(atPath: root.appendingPathComponent(folder).path) ?? [])
                    .filter { $0.hasSuffix(".swift") && !$0.contains(".build") }.map { "\(folder)/\($0)" }
            }
    }

    /// The lines of `text` longer than `limit` characters (what an editor counts as columns).
    static func longLines(_ text: String, limit: Int = 120) -> [Int] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.filter { lines[$0].count > limit }.map { $0 + 1 }
    }

    /// The length in lines of each `func run()` of a source text, by its first line.
    static func runLengths(_ text: String) -> [(line: Int, length: Int)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [(Int, Int)] = []
        for (i, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("func run()") {
            let indent = line.prefix { $0 == " " }.count
            let end = lines[(i + 1)...].firstIndex { $0.hasPrefix(String(repeating: " ", count: indent) + "}") }
            found.append((i + 1, (end ?? lines.count - 1) - i + 1))
        }
        return found
    }

    @Test("no Swift line is over 120 columns")
    func lineLength() throws {
        var long: [String] = []
        for file in Self.swiftFiles() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            long += Self.longLines(text).map { "\(file):\($0)" }
        }
        #expect(long.isEmpty, "\(long.count) lines over 120 columns: \(long.prefix(10))")
        // The check can fail: a line of 121 characters is found, one of 120 is not.
        #expect(Self.longLines(String(repeating: "x", count: 121) + "\n" + String(repeating: "y", count: 120)) == [1])
    }

    @Test("each command's run() is at most 40 lines: options → plan → runner → files → say")
    func thinCommands() throws {
        let folder = Self.root.appendingPathComponent("Sources/OdrSimCLI")
        var runs: [(String, Int)] = []
        for file in FileManager.default.subpaths(atPath: folder.path) ?? [] where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            runs += Self.runLengths(text).map { ("\(file):\($0.line)", $0.length) }
        }
        #expect(runs.count >= 14, "\(runs)")
        let long = runs.filter { $0.1 > 40 }
        #expect(long.isEmpty, "run() over 40 lines: \(long)")
        // The measure can fail: a run() of 41 lines is 41 long.
        let sample = "    func run() throws {\n" + String(repeating: "        say()\n", count: 39) + "    }\n"
        #expect(Self.runLengths(sample).map(\.length) == [41])
    }

    @Test("an app's eviction is one value the core owns: no strategy relay by app index")
    func evictionIsOneValue() throws {
        var text = ""
        for file in Self.swiftFiles() where file.hasPrefix("Sources/") {
            text += try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
        }
        for relay in ["AppStrategies", "appStrategies", "app i is AppID i", "AppID(rawValue: Int32(app))"] {
            #expect(!text.contains(relay), "\(relay) is back")
        }
        // The one road: the scenario's AppSpec carries it, the driver hands it to the device.
        let driver = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/Simulation/ScenarioDriver.swift"), encoding: .utf8)
        #expect(driver.contains("eviction: eviction"))
    }

    @Test("the formatter's configuration is the repository's, and its lint passes")
    func formatted() throws {
        let configuration = try String(contentsOf: Self.root.appendingPathComponent(".swift-format"), encoding: .utf8)
        #expect(configuration.contains("\"lineLength\": 120"))
        let result = try CLI.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "format", "lint", "--strict", "--recursive", "Sources", "Tests", "Package.swift"])
        #expect(result.status == 0, "\(result.stderr.prefix(2_000))")
    }
}
