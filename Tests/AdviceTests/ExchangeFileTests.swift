import Foundation
import Metrics
import Testing
import TextInput

@testable import Advice

/// Issue 42: an advise exchange file is used only whole and unedited, from the same search
/// and version; anything else is refused with one line naming the file.
@Suite("Advise exchange files")
struct ExchangeFileTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/exchange-round-0-shard-2.csv")
    static let key = "600a10e477337da2"

    static func read(_ text: String, version: String = "0.1.0", key: String = key, total: Int = 4) throws -> [(
        index: Int, outcome: AdviceExchange.Outcome
    )] {
        try AdviceExchange.parse(
            text, name: "x.csv", shard: 2, count: 2, version: version, key: key, round: 0, total: total)
    }

    static func text() throws -> String { try InputText.read(fixture.path) }

    /// The message of the error `body` throws, or nil if it throws none.
    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("the file as written reads back: its two runs, every metric, at their places in the round")
    func whole() throws {
        let runs = try Self.read(try Self.text())
        #expect(runs.map(\.index) == [1, 3])
        #expect(runs.allSatisfy { $0.outcome.summary.values.count == Metric.allCases.count })
    }

    @Test("written and read back by the same code, the numbers are bit for bit the same")
    func roundTrip() throws {
        let runs = try Self.read(try Self.text())
        let again = AdviceExchange.render(runs, shard: 2, count: 2, version: "0.1.0", key: Self.key, round: 0, total: 4)
        #expect(again == (try Self.text()))
    }

    @Test("cut short anywhere after its first line (a full disk, a copy stopped half-way): refused")
    func truncated() throws {
        let text = try Self.text()
        let firstLine = text.firstIndex(of: "\n")!
        for length in stride(from: text.distance(from: text.startIndex, to: firstLine) + 1, to: text.count - 1, by: 97)
        {
            let cut = String(text.prefix(length))
            let message = Self.refusal { _ = try Self.read(cut) }
            #expect(message?.hasPrefix("x.csv") == true, "cut at \(length): \(message ?? "accepted")")
        }
    }

    @Test("one number edited (500 GB for what a run re-downloaded): refused by its digest")
    func edited() throws {
        let text = try Self.text()
        let edited = text.replacingOccurrences(of: "64000000.0", with: "500000000000.0")
        #expect(edited != text)
        let message = Self.refusal { _ = try Self.read(edited) }
        #expect(message?.contains("do not match the digest") == true, "\(message ?? "accepted")")
    }

    @Test("written by another version, or for another search: refused, saying which")
    func foreign() throws {
        let text = try Self.text()
        #expect(
            Self.refusal { _ = try Self.read(text, version: "0.2.0") }?.contains(
                "written by odr-sim 0.1.0, this is 0.2.0") == true)
        #expect(
            Self.refusal { _ = try Self.read(text, key: "0000000000000000") }?.contains(
                "not shard 2/2's round 0 of this advise") == true)
        #expect(Self.refusal { _ = try Self.read(text, total: 5) } != nil)
    }

    @Test("a number that is not finite, or a run outside the round, with a digest made to match: refused")
    func impossibleNumbers() throws {
        let text = try Self.text()
        let body = String(text[text.index(after: text.firstIndex(of: "\n")!)...])
        func signed(_ body: String) -> String {
            """
            # odr-sim advise shard 2/2 version=0.1.0 key=\(Self.key) round=0 runs=2 total=4 \
            rows=\(TextDigest.of(body))\n
            """
                + body
        }
        for (from, to) in [
            ("64000000.0", "inf"), ("64000000.0", "-inf"), ("64000000.0", "1e999"), ("64000000.0", ""),
            ("\n1,0,", "\n9,0,"), ("\n1,0,", "\n-1,0,"),
        ] {
            let edited = body.replacingOccurrences(of: from, with: to)
            #expect(edited != body)
            #expect(Self.refusal { _ = try Self.read(signed(edited)) } != nil, "\(from) → \(to)")
        }
        // The digest itself is sound: the body unedited, signed afresh, reads.
        #expect(try Self.read(signed(body)).count == 2)
    }

    @Test("a file saved with CRLF line ends reads as the LF one")
    func crlf() throws {
        let text = try Self.text()
        let crlf = try InputText.text(Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        #expect(try Self.read(crlf).map(\.index) == [1, 3])
    }
}
