import Foundation
import Testing

@testable import ScenarioFile

/// Issue 37: the scenario format's reference is the project's own page, docs/scenario-format.md,
/// and it describes exactly the keys the parsers accept: every mapping kind of the grammar
/// (``Section``) has its table on the page, marked `<!-- keys: SECTION -->`, whose first column
/// lists its keys.
@Suite("docs/scenario-format.md")
struct ScenarioFormatDocTests {
    static let page =
        (try? String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    "docs/scenario-format.md"), encoding: .utf8)) ?? ""

    /// The keys of the table below `<!-- keys: NAME -->`: the first cell of each row, in backticks.
    static func documentedKeys(_ name: String) -> [String]? {
        guard let marker = page.range(of: "<!-- keys: \(name) -->\n") else { return nil }
        var keys: [String] = []
        for line in page[marker.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) {
            guard line.hasPrefix("| `") else { break }
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            keys.append(String(cell))
        }
        return keys
    }

    @Test(
        "every mapping of the grammar has its table, listing exactly the keys the parser accepts",
        arguments: Section.allCases)
    func sectionKeys(_ section: Section) throws {
        let name = "\(section)"
        let documented = try #require(
            Self.documentedKeys(name), "docs/scenario-format.md has no table marked <!-- keys: \(name) -->")
        #expect(Set(documented).count == documented.count, "\(name): a key is listed twice")
        let accepted = Set(section.keys)
        #expect(
            Set(documented).subtracting(accepted).isEmpty,
            "\(name): documented but not accepted: \(Set(documented).subtracting(accepted).sorted())")
        #expect(
            accepted.subtracting(documented).isEmpty,
            "\(name): accepted but not documented: \(accepted.subtracting(documented).sorted())")
    }

    @Test(
        """
        the page's examples are valid: each scenario fragment's keys are known, and no table names a section the \
        grammar lacks
        """
    )
    func markersAreSections() {
        let names = Set(Section.allCases.map { "\($0)" })
        let markers = Self.page.components(separatedBy: "<!-- keys: ").dropFirst().map {
            String($0.prefix { $0 != " " })
        }
        #expect(markers.count == names.count)
        #expect(Set(markers) == names)
    }

    @Test("the telemetry columns the page names are the reader's")
    func telemetryColumns() {
        #expect(Self.page.contains("`time,app,event` required and\n`tags,id,priority` optional"))
        #expect(TelemetryReader.columns == ["time", "app", "event", "tags", "id", "priority"])
        for verb in TelemetryReader.verbs { #expect(Self.page.contains("`\(verb.rawValue)`"), "\(verb.rawValue)") }
    }
}
