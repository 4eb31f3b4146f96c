import Experiments
import Metrics
import ODRCore
import ODRPolicies
import Simulation
import Testing
import TextInput

@Suite("Plans, shards and merges")
struct ShardingTests {
    /// Three points of different lengths (so costs differ), two policies, three replications.
    static func plan() -> ExperimentPlan {
        let points = [1.0, 5.0, 2.0].map { days in
            ExperimentPlan.Point(
                Scenario(
                    duration: days * 86400, device: DeviceSpec(capacity: 1_000_000_000, used: 0),
                    apps: [], events: (0..<Int(days * 10)).map { ScenarioEvent(time: Double($0), action: .disk(1)) }))
        }
        return ExperimentPlan(
            points: points, policies: [ApplePolicy.descriptor, LRUPolicy.descriptor], replications: 3)
    }

    @Test("for N = 1…7, the shards cover every run exactly once", arguments: 1...7)
    func shardsPartitionTheRuns(n: Int) {
        let plan = Self.plan()
        var seen: [Int] = []
        for k in 1...n { seen += plan.shard(k, of: n) }
        #expect(seen.sorted() == Array(plan.runs.indices))
        // Balanced: no shard gets more than the lightest one plus the costliest run.
        let loads = (1...n).map { k in plan.shard(k, of: n).reduce(0.0) { $0 + plan.cost(of: plan.runs[$1]) } }
        let largest = plan.runs.map(plan.cost(of:)).max()!
        #expect(loads.max()! - loads.min()! <= largest)
    }

    @Test("canonical order is point, policy, replication; seeds repeat across policies (common random numbers)")
    func canonicalOrder() {
        let plan = Self.plan()
        #expect(plan.runs.count == 3 * 2 * 3)
        #expect((plan.runs[0].point, plan.runs[0].policy, plan.runs[0].replication) == (0, "apple", 1))
        #expect((plan.runs[3].point, plan.runs[3].policy, plan.runs[3].replication) == (0, "lru", 1))
        #expect((plan.runs[6].point, plan.runs[6].policy, plan.runs[6].replication) == (1, "apple", 1))
        #expect(plan.seed(of: plan.runs[1]) == plan.seed(of: plan.runs[4]))
        // Longest first: the 5-day point's runs lead.
        #expect(plan.longestFirst(Array(plan.runs.indices)).prefix(6).allSatisfy { plan.runs[$0].point == 1 })
    }

    static func line(_ value: String, _ policy: String, _ replication: Int, redownload: Double) -> String {
        var values = [Double](repeating: 0, count: SummaryRow.metricColumns.count)
        values[SummaryRow.metricColumns.firstIndex(of: "redownload_bytes")!] = redownload
        return SweepResults.line(
            values: [value], summary: SummaryRow(policy: policy, replication: replication, seed: 1, values: values))
    }

    @Test("paired differences to the baseline, by hand: lru − apple = (5−3, 9−4, 4−2) = (2, 5, 2)")
    func pairedDifference() throws {
        // Mean 3; sd = sqrt(((2−3)² + (5−3)² + (2−3)²) / 2) = sqrt(3) = 1.732051; 95 % t with
        // 2 degrees of freedom is 4.302653, half-width 4.302653 · 1.732051 / sqrt(3) = 4.302653.
        let lines = [
            Self.line("1GB", "apple", 1, redownload: 3), Self.line("1GB", "apple", 2, redownload: 4),
            Self.line("1GB", "apple", 3, redownload: 2), Self.line("1GB", "lru", 1, redownload: 5),
            Self.line("1GB", "lru", 2, redownload: 9), Self.line("1GB", "lru", 3, redownload: 4),
        ]
        let csv = try SweepResults(axisNames: ["size"], baseline: "apple", lines: lines).comparisonCSV()
        let records = try CSVReader.records(csv)
        let header = records[0].fields
        let lru = Dictionary(uniqueKeysWithValues: zip(header, records[2].fields))
        #expect(lru["size"] == "1GB" && lru["policy"] == "lru")
        #expect(lru["redownload_bytes_mean"] == "6.000000")
        #expect(lru["redownload_bytes_diff_vs_apple"] == "3.000000")
        #expect(lru["redownload_bytes_diff_ci_low"] == "-1.302653")
        #expect(lru["redownload_bytes_diff_ci_high"] == "7.302653")
    }

    static func shard(_ k: Int, of n: Int, digest: String = "abc", runs: [(Int, String)]) -> ShardFile {
        ShardFile(
            shard: k, count: n, studyDigest: digest, totalRuns: 4, baseline: "apple", name: "s",
            axisNames: ["size"], runs: runs.map { (index: $0.0, line: $0.1) })
    }

    @Test("a shard file reads back as written, and merging puts runs in canonical order")
    func roundTripAndMerge() throws {
        let a = Self.shard(
            1, of: 2,
            runs: [(0, Self.line("1GB", "apple", 1, redownload: 1)), (3, Self.line("2GB", "lru", 1, redownload: 4))])
        let b = Self.shard(
            2, of: 2,
            runs: [(1, Self.line("1GB", "lru", 1, redownload: 2)), (2, Self.line("2GB", "apple", 1, redownload: 3))])
        #expect(try ShardFile.parse(a.text, name: "a") == a)
        let merged = try ShardFile.merge([b, a], names: ["b", "a"])
        #expect(merged.lines == [a.runs[0].line, b.runs[0].line, b.runs[1].line, a.runs[1].line])
    }

    @Test("missing, duplicated, foreign and truncated shards are refused, naming the file")
    func refusals() throws {
        let a = Self.shard(
            1, of: 2,
            runs: [(0, Self.line("1GB", "apple", 1, redownload: 1)), (1, Self.line("1GB", "lru", 1, redownload: 1))])
        let b = Self.shard(
            2, of: 2,
            runs: [(2, Self.line("2GB", "apple", 1, redownload: 1)), (3, Self.line("2GB", "lru", 1, redownload: 1))])
        func message(_ shards: [ShardFile], _ names: [String]) -> String {
            do {
                _ = try ShardFile.merge(shards, names: names)
                return ""
            } catch { return error.message }
        }
        #expect(message([a], ["a.csv"]).contains("missing shard 2/2 (shard-0002-of-0002.csv)"))
        #expect(message([a, a], ["a.csv", "a2.csv"]).contains("a2.csv and a.csv are both shard 1/2"))
        let foreign = Self.shard(2, of: 2, digest: "other", runs: b.runs.map { ($0.index, $0.line) })
        #expect(message([a, foreign], ["a.csv", "f.csv"]).contains("f.csv is from another study"))
        // Cut after a whole line, and in the middle of one: the rows no longer match the
        // digest of the first line (issue 42).
        let cut = String(b.text.dropLast(b.runs[1].line.count + 2))
        do {
            _ = try ShardFile.parse(cut, name: "b.csv")
            Issue.record("accepted")
        } catch {
            #expect(error.message.hasPrefix("b.csv: its rows do not match the digest in its first line"))
        }
        let midLine = String(b.text.dropLast(20))
        do {
            _ = try ShardFile.parse(midLine, name: "b.csv")
            Issue.record("accepted")
        } catch {
            #expect(error.message.hasPrefix("b.csv: its rows do not match the digest in its first line"))
        }
        #expect(throws: ShardFile.Error.self) { try ShardFile.parse("policy,replication\n", name: "x.csv") }
    }

    @Test("issue 42: one number of a row edited is refused; the same file with CRLF line ends reads as the LF one")
    func editedAndCRLF() throws {
        let b = Self.shard(
            2, of: 2,
            runs: [(2, Self.line("2GB", "apple", 1, redownload: 1)), (3, Self.line("2GB", "lru", 1, redownload: 1))])
        let edited = b.text.replacingOccurrences(of: "\n3,2GB,lru,1", with: "\n3,2GB,lru,7")
        #expect(edited != b.text)
        do {
            _ = try ShardFile.parse(edited, name: "b.csv")
            Issue.record("an edited shard was accepted")
        } catch {
            #expect(error.message.contains("do not match the digest"))
        }
        let crlf = b.text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try ShardFile.parse(crlf, name: "b.csv") == b)
        // A shard of an earlier release (no digest) is refused with what to do.
        let old = b.text.replacing(#/ rows=[0-9a-f]+/#, with: "")
        do {
            _ = try ShardFile.parse(old, name: "b.csv")
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("no rows= digest"))
        }
    }

    /// `text` with its first line's digest made that of its rows again: a file odr-sim might
    /// have written so, whose rows are then checked for what they hold.
    static func resigned(_ text: String) -> String {
        let end = text.firstIndex(of: "\n")!
        let first = String(text[..<end]).replacing(
            #/ rows=[0-9a-f]+/#, with: " rows=" + TextDigest.of(String(text[text.index(after: end)...])))
        return first + text[end...]
    }

    @Test(
        """
        a row cut short is named by its line; a quote that closes on the next line is no row, even if the rows \
        joined would read
        """
    )
    func rowsReadOneByOne() throws {
        let b = Self.shard(
            2, of: 2,
            runs: [(2, Self.line("2GB", "apple", 1, redownload: 1)), (3, Self.line("2GB", "lru", 1, redownload: 1))])
        var lines = b.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[1].split(separator: ",").count
        func message(_ text: String) -> String {
            do {
                _ = try ShardFile.parse(Self.resigned(text), name: "b.csv")
                return "accepted"
            } catch { return error.message }
        }
        // Unchanged, the digest made again is the one written: the file reads back as it was.
        #expect(try ShardFile.parse(Self.resigned(b.text), name: "b.csv") == b)
        // The file's fourth line (the second run) loses its last two fields.
        let whole = lines[3]
        lines[3] = whole.split(separator: ",", omittingEmptySubsequences: false).dropLast(2).joined(separator: ",")
        #expect(
            message(lines.joined(separator: "\n")) == "b.csv: line 4 has \(header - 2) fields, the header \(header)")
        // The first run's second field opens a quote that the second run's line closes: read as
        // one text, the two lines are one record of as many fields as the header, and the
        // second run would be lost inside a field; each line by itself is no CSV.
        var fields = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[1] = "\"" + fields[1]
        lines[2] = fields.prefix(2).joined(separator: ",")
        lines[3] = "3,x\"," + fields.dropFirst(2).joined(separator: ",")
        let joined = try CSVReader.records(lines[1...3].joined(separator: "\n") + "\n")
        #expect(joined.count == 2 && joined[1].fields.count == header)
        #expect(message(lines.joined(separator: "\n")) == "b.csv: its rows are not valid CSV")
    }

    @Test(
        """
        issue 42: --shard K/N is one bounded type: N at most the study's run limit when read, at most the runs when \
        checked
        """
    )
    func shardPositions() {
        for text in ["1/1", "2/4", "10000000/10000000"] { #expect(ShardPosition(text) != nil, "\(text)") }
        for text in [
            "0/1", "2/1", "1/0", "1/9223372036854775807", "1/4294967296", "1/10000001", "+1/2", "1/ 2", "-1/2", "1/2/3",
            "/2", "1/",
            "１/２", "1.0/2", "a/b", "",
        ] {
            #expect(ShardPosition(text) == nil, "\(text)")
        }
        let position = ShardPosition("3/16")!
        #expect(position.index == 3 && position.count == 16)
        if case .failure(let error) = position.checked(runs: 15) {
            #expect(error.message == "--shard 3/16: there are 15 runs to share, so at most 15 shards")
        } else {
            Issue.record("16 shards of 15 runs accepted")
        }
        if case .failure = position.checked(runs: 16) { Issue.record("16 shards of 16 runs refused") }
    }

    @Test(
        """
        issue 55: a shard keeps only its runs' lines (ShardRuns), delivered in any order: the lines and \
        notices of its runs kept whole, and a shard file with each app line under its run
        """)
    func shardRunsKeepTheirLines() throws {
        let (plan, values) = try StudyLinesTests.plan(overfillsLastPoint: true)
        // The lines the runs made on their threads, as a whole sweep's runner makes them; the
        // shard's runner makes none, and ShardRuns writes them from the runs' numbers.
        let lined = ExperimentRunner.study(plan, values: values, platformMetrics: false, jobs: 2)
        var runner = lined
        runner.studyLines = nil
        let indices = plan.shard(2, of: 3)
        let kept = try lined.run(indices: indices)
        let plain = try runner.run(indices: indices)
        #expect(plain.allSatisfy { $0.lines == nil })
        let labels = ["x=plain", "x=comma", "x=quote"]
        let expected = (
            lines: kept.map { $0.lines! }, notices: kept.noticeLines(locations: [], points: labels)
        )
        // The last point's runs overfill the disk; the shard holds some of them and some others.
        #expect(!expected.notices.isEmpty && kept.contains { $0.notices.isEmpty })
        let delivered = ShardRuns(count: indices.count, values: values, platformMetrics: false)
        try runner.run(indices: indices, deliver: delivered.receive)
        let reversed = ShardRuns(count: indices.count, values: values, platformMetrics: false)
        for slot in plain.indices.reversed() { #expect(reversed.receive(slot, plain[slot])) }
        for runs in [delivered, reversed] {
            let (lines, notices) = runs.finish(locations: [], points: labels)
            #expect(lines.map(\.result) == expected.lines.map(\.result))
            #expect(lines.map(\.apps) == expected.lines.map(\.apps))
            #expect(notices == expected.notices)
        }
        let lines = delivered.finish(locations: [], points: labels).lines
        let file = ShardFile(
            ShardPosition("2/3")!, of: "s", studyDigest: "abc", lines: lines, indices: indices,
            totalRuns: plan.runs.count, axisNames: ["x"], baseline: "apple", baselinePoint: nil, platformMetrics: false)
        #expect(file.runs.map(\.index) == indices && file.runs.map(\.line) == expected.lines.map(\.result))
        let appRuns = zip(indices, expected.lines).flatMap { index, made in made.apps.map { (index, $0) } }
        #expect(!appRuns.isEmpty && file.appRuns.map(\.index) == appRuns.map(\.0))
        #expect(file.appRuns.map(\.line) == appRuns.map(\.1))
        #expect(try ShardFile.parse(file.text, name: "shard") == file)
    }

    @Test(
        """
        issue 55: a shard's text is handed over in pieces of at most 4,096 lines, the first line alone: joined \
        they are its text, which reads back as the shard, its digest over every piece
        """)
    func shardPieces() throws {
        let count = 9_000
        let file = ShardFile(
            shard: 1, count: 1, studyDigest: "abc", totalRuns: count, baseline: "apple", name: "s",
            axisNames: ["size"],
            runs: (0..<count).map {
                (index: $0, line: Self.line("1GB", $0 % 2 == 0 ? "apple" : "lru", $0 / 2 + 1, redownload: Double($0)))
            })
        var pieces: [String] = []
        file.pieces { pieces.append($0) }
        let lines = pieces.map { $0.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
        // The first line, then the header and 9,000 lines: 9,001 in pieces of 4,096.
        #expect(lines == [1, 4_096, 4_096, 809])
        #expect(pieces.allSatisfy { $0.hasSuffix("\n") } && pieces.joined() == file.text)
        #expect(pieces[0].hasPrefix("# odr-sim shard 1/1 study=abc runs=9000 total=9000 baseline=apple rows="))
        #expect(pieces[0].contains("rows=\(TextDigest.of(pieces.dropFirst().joined())) "))
        let parsed = try ShardFile.parse(file.text, name: "s")
        #expect(parsed == file)
    }

}
