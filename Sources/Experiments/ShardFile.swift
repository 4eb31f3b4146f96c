import Foundation
import Metrics
import Quantities
import Simulation
import TextInput

/// One shard's share of a study's runs, as `shard-K-of-N.csv`: a first line naming the
/// study (its digest), the shard, the baseline, a digest of the rest of the file (`rows=`,
/// ``TextDigest``) and the name; then `results.csv`'s header and lines, each with the run's
/// index in the study's canonical order in front. A file whose rows no longer match their
/// digest (edited, or cut short by a full disk) is refused by name.
///
/// ```text
/// # odr-sim shard 2/4 study=9f0c… runs=53 total=210 baseline=apple rows=77a1… name=tag-size
/// run,free_space,policy,replication,seed,…
/// 7,56GB,apple,1,42,…
/// ```
public struct ShardFile: Sendable, Equatable {
    public let shard: Int
    public let count: Int
    public let studyDigest: String
    /// The study's run count, all shards together.
    public let totalRuns: Int
    public let baseline: String
    /// The study's name, for the merged report's default directory.
    public let name: String
    public let axisNames: [String]
    /// (run index, results line) in run order.
    public let runs: [(index: Int, line: String)]
    /// Whether the lines carry the platform metrics' columns (``SweepResults/platformMetrics``).
    public var platformMetrics = false
    /// The study's baseline point (``SweepResults/baselinePoint``), written only when set so
    /// that other shard files keep their bytes.
    public var baselinePoint: Int? = nil
    /// (run index, `apps.csv` line) of each app of each run, after the runs as `a<run>,…`
    /// lines (``SweepResults/appLines``).
    public var appRuns: [(index: Int, line: String)] = []

    public static func == (a: ShardFile, b: ShardFile) -> Bool {
        a.shard == b.shard && a.count == b.count && a.studyDigest == b.studyDigest && a.totalRuns == b.totalRuns
            && a.baseline == b.baseline && a.name == b.name && a.axisNames == b.axisNames
            && a.runs.map(\.index) == b.runs.map(\.index) && a.runs.map(\.line) == b.runs.map(\.line)
            && a.baselinePoint == b.baselinePoint
            && a.appRuns.map(\.index) == b.appRuns.map(\.index) && a.appRuns.map(\.line) == b.appRuns.map(\.line)
    }

    /// Shard `position` of study `name` (digest `studyDigest`, `totalRuns` runs in all), from
    /// the lines of its runs `indices` (``ShardRuns/finish(locations:points:)``, in the order of
    /// `indices`); `baselinePoint` and `platformMetrics` as the study has them.
    public init(
        _ position: ShardPosition, of name: String, studyDigest: String,
        lines: [(result: String, apps: [String])], indices: [Int], totalRuns: Int, axisNames: [String],
        baseline: String, baselinePoint: Int?, platformMetrics: Bool
    ) {
        precondition(lines.count == indices.count, "one run's lines for each index")
        self.init(
            shard: position.index, count: position.count, studyDigest: studyDigest, totalRuns: totalRuns,
            baseline: baseline, name: name, axisNames: axisNames,
            runs: zip(indices, lines).map { (index: $0, line: $1.result) })
        (self.platformMetrics, self.baselinePoint) = (platformMetrics, baselinePoint)
        appRuns = zip(indices, lines).flatMap { index, made in made.apps.map { (index: index, line: $0) } }
    }

    public init(
        shard: Int, count: Int, studyDigest: String, totalRuns: Int, baseline: String, name: String,
        axisNames: [String], runs: [(index: Int, line: String)]
    ) {
        self.name = name
        self.shard = shard
        self.count = count
        self.studyDigest = studyDigest
        self.totalRuns = totalRuns
        self.baseline = baseline
        self.axisNames = axisNames
        self.runs = runs
    }

    /// `shard-0002-of-0004.csv`: names sort in shard order.
    public static func fileName(shard: Int, of count: Int) -> String {
        "shard-\(pad(shard))-of-\(pad(count)).csv"
    }

    /// The path of shard `shard` of `count` in `folder`.
    public static func path(in folder: String, shard: Int, of count: Int) -> String {
        URL(fileURLWithPath: folder).appendingPathComponent(fileName(shard: shard, of: count)).path
    }

    /// Whether a file beginning with `head` is a shard file (one a shard may replace).
    public static func isOne(head: String) -> Bool { head.hasPrefix("# odr-sim shard ") }

    private static func pad(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The file's text: what ``pieces(_:)`` hands over, joined.
    public var text: String {
        var text = ""
        pieces { text += $0 }
        return text
    }

    /// The file's text a piece at a time, in order: its first line (with the digest of the
    /// rest), then `results.csv`'s header and up to ``linesAPiece`` lines a piece. A shard is
    /// written so, never held whole (three copies of it, as a string, its bytes and their
    /// growth, were most of a shard's memory).
    public func pieces<E: Swift.Error>(_ write: (String) throws(E) -> Void) throws(E) {
        // The first line carries the digest of what follows, so the pieces are made twice: once
        // for the digest, once to write. Making them costs less than holding them.
        var digest = TextDigest()
        bodyPieces { digest.add($0) }
        try write(
            """
            # odr-sim shard \(shard)/\(count) study=\(studyDigest) runs=\(runs.count) total=\(totalRuns) \
            baseline=\(baseline)
            """
                + " " + (baselinePoint.map { "baseline_point=\($0) " } ?? "")
                + "rows=\(digest.value) name=\(InputText.oneLine(name))\n")
        try bodyPieces(write)
    }

    /// Lines in each piece of ``pieces(_:)``.
    static let linesAPiece = 4_096

    /// What follows the first line: the header, each run's line, then each app line.
    private func bodyPieces<E: Swift.Error>(_ write: (String) throws(E) -> Void) throws(E) {
        var piece =
            "run,"
            + SweepResults(axisNames: axisNames, baseline: baseline, lines: [], platformMetrics: platformMetrics)
            .resultsHeader
        var lines = 1
        func add(_ line: String) throws(E) {
            piece += line
            lines += 1
            if lines == Self.linesAPiece {
                try write(piece)
                (piece, lines) = ("", 0)
            }
        }
        for run in runs { try add("\(run.index)," + run.line) }
        for run in appRuns { try add("a\(run.index)," + run.line) }
        if !piece.isEmpty { try write(piece) }
    }

    /// Why a file is not a shard of this kind, with its name.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The most runs a study may have (points × policies × replications): a merge keeps a
    /// line per run, and a shard file's numbers are checked against it before anything is
    /// allocated.
    public static let maximumRuns = ModelLimits.studyRuns

    /// Reads a shard file's text; `name` is what errors name.
    public static func parse(_ text: String, name: String) throws(Error) -> ShardFile {
        func bad(_ why: String) -> Error { Error(message: "\(name): \(why)") }
        let text = text.contains("\r\n") ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.hasPrefix("# odr-sim shard ") else {
            throw bad("not an odr-sim shard file (its first line should start with '# odr-sim shard')")
        }
        var fields: [String: String] = [:]
        // The name comes last and may hold spaces.
        let nameStart = first.range(of: " name=")
        let name = nameStart.map { String(first[$0.upperBound...]) } ?? ""
        let words = first[..<(nameStart?.lowerBound ?? first.endIndex)].split(separator: " ")
        guard words.count >= 4 else { throw bad("its first line is incomplete") }
        let position = words[3].split(separator: "/")
        for word in words.dropFirst(4) {
            let pair = word.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard position.count == 2, let shard = Int(position[0]), let count = Int(position[1]), count >= 1,
            (1...count).contains(shard),
            let digest = fields["study"], let runCount = fields["runs"].flatMap(Int.init),
            let total = fields["total"].flatMap(Int.init), let baseline = fields["baseline"]
        else {
            throw bad("its first line is malformed: '\(first)'")
        }
        guard let rowsDigest = fields["rows"] else {
            throw bad("its first line has no rows= digest (written by an earlier odr-sim?); run the shard again")
        }
        // Over the rows as they are in the text, with no copy of them made for it.
        var rows = TextDigest()
        rows.add(text[text.index(after: text.firstIndex(of: "\n") ?? text.startIndex)...])
        guard rows.value == rowsDigest else {
            throw bad(
                """
                its rows do not match the digest in its first line: the file was edited or cut short since odr-sim \
                wrote it; run the shard again
                """
            )
        }
        guard (1...maximumRuns).contains(total), (0...total).contains(runCount), count <= total else {
            throw bad(
                """
                its first line's numbers are out of range (1 ≤ shard ≤ N ≤ total ≤ \(maximumRuns), \
                0 ≤ runs ≤ total): '\(first)'
                """
            )
        }
        guard lines.count >= 2 else { throw bad("it has no header line") }
        let header = lines[1].split(separator: ",").map(String.init)
        guard header.first == "run", let policyColumn = header.firstIndex(of: "policy") else {
            throw bad("its header does not start with run, the axes and policy")
        }
        let axisNames = Array(header[1..<policyColumn])
        var runs: [(index: Int, line: String)] = []
        var appRuns: [(index: Int, line: String)] = []
        for (n, line) in lines.dropFirst(2).enumerated() {
            if line.hasPrefix("a") {
                guard let comma = line.firstIndex(of: ","),
                    let index = Int(line[line.index(after: line.startIndex)..<comma]), (0..<total).contains(index)
                else {
                    throw bad("line \(n + 3) does not start with a run number below \(total)")
                }
                appRuns.append((index, String(line[line.index(after: comma)...]) + "\n"))
                continue
            }
            guard let comma = line.firstIndex(of: ","), let index = Int(line[..<comma]), (0..<total).contains(index)
            else {
                throw bad("line \(n + 3) does not start with a run number below \(total)")
            }
            runs.append((index, String(line[line.index(after: comma)...]) + "\n"))
        }
        guard runs.count == runCount else {
            throw bad("incomplete: \(runs.count) of its \(runCount) runs")
        }
        // A line cut short has fewer fields than the header (the app lines' own, apart).
        if let (record, fields) = try firstMiscountedRecord(
            of: lines.dropFirst(1).lazy.filter { !$0.hasPrefix("a") }, header.count, bad)
        {
            throw bad("line \(record + 2) has \(fields) fields, the header \(header.count)")
        }
        var file = ShardFile(
            shard: shard, count: count, studyDigest: digest, totalRuns: total, baseline: baseline,
            name: name, axisNames: axisNames, runs: runs)
        file.platformMetrics = header.contains(Metric.updateBytes.column)
        let platform = header.contains(Metric.updateBytes.column)
        let appFields = axisNames.count + 4 + AppRow.columns(platformMetrics: platform).count
        for (k, run) in appRuns.enumerated() where (try? CSVReader.records(run.line))?.first?.fields.count != appFields
        {
            throw bad("app line \(k + 1) does not have the \(appFields) fields of an app row")
        }
        file.appRuns = appRuns
        if let text = fields["baseline_point"] {
            guard let point = Int(text), (0..<total).contains(point) else {
                throw bad("its first line's baseline_point is not a point number: '\(text)'")
            }
            file.baselinePoint = point
        }
        return file
    }

    /// The first record of `lines` (the header, then the runs' lines) whose field count is
    /// not `expected`: its number among the records and its count; nil if none. Each line is
    /// read as CSV by itself, so no copy of the rows is made (the rows joined and read at
    /// once, every field a string, were half of a merge's peak); a line that is not valid CSV
    /// by itself fails with `bad`, as any malformed row does, before any count is reported.
    private static func firstMiscountedRecord(
        of lines: some Sequence<Substring>, _ expected: Int, _ bad: (String) -> Error
    ) throws(Error) -> (record: Int, fields: Int)? {
        var (records, miscounted): (Int, (record: Int, fields: Int)?) = (0, nil)
        for line in lines {
            guard let read = try? CSVReader.records(String(line)) else { throw bad("its rows are not valid CSV") }
            for record in read {
                if miscounted == nil && record.fields.count != expected { miscounted = (records, record.fields.count) }
                records += 1
            }
        }
        return miscounted
    }

    /// Checks that `shards` are all N shards of one study, each once, together covering every
    /// run exactly once, and returns the study's results in canonical order.
    public static func merge(_ shards: [ShardFile], names: [String]) throws(Error) -> SweepResults {
        guard let first = shards.first else { throw Error(message: "no shard files (shard-K-of-N.csv) found") }
        var seen: [Int: String] = [:]
        for (shard, name) in zip(shards, names) {
            guard shard.studyDigest == first.studyDigest, shard.count == first.count,
                shard.totalRuns == first.totalRuns,
                shard.axisNames == first.axisNames, shard.baseline == first.baseline,
                shard.baselinePoint == first.baselinePoint
            else {
                throw Error(
                    message:
                        """
                        \(name) is from another study (or another split) than \(names[0]): study \
                        \(shard.studyDigest) shard of \(shard.count), not \(first.studyDigest) of \
                        \(first.count)
                        """
                )
            }
            if let other = seen[shard.shard] {
                throw Error(message: "\(name) and \(other) are both shard \(shard.shard)/\(shard.count)")
            }
            seen[shard.shard] = name
        }
        let missing = (1...first.count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw Error(
                message:
                    "missing shard\(missing.count > 1 ? "s" : "") "
                    + "\(missing.map { "\($0)/\(first.count)" }.joined(separator: ", ")) "
                    + "(\(missing.map { fileName(shard: $0, of: first.count) }.joined(separator: ", ")))"
            )
        }
        var lines = [String?](repeating: nil, count: first.totalRuns)
        for (shard, name) in zip(shards, names) {
            for run in shard.runs {
                guard lines[run.index] == nil else {
                    throw Error(message: "\(name): run \(run.index) is also in another shard")
                }
                lines[run.index] = run.line
            }
        }
        if let gap = lines.firstIndex(where: { $0 == nil }) { throw Error(message: "no shard has run \(gap)") }
        var results = SweepResults(
            axisNames: first.axisNames, baseline: first.baseline, lines: lines.map { $0! },
            platformMetrics: first.platformMetrics)
        // Each run's app lines, in run order (a stable sort keeps a run's apps in order).
        results.appLines = shards.flatMap(\.appRuns).enumerated().sorted {
            ($0.element.index, $0.offset) < ($1.element.index, $1.offset)
        }.map(\.element.line)
        results.baselinePoint = first.baselinePoint
        return results
    }
}

extension ShardFile {
    /// Why a folder of shards cannot be merged: a one-line reason, `located` where it begins
    /// with a shard's `FILE:LINE:COLUMN`.
    public struct FolderError: Swift.Error, CustomStringConvertible {
        public let description: String
        public let located: Bool
    }

    /// Every `shard-*.csv` of `directory`, read and checked, merged: the study's name, the
    /// shards' paths and the results, byte for byte those of one machine.
    public static func merge(folder directory: String) throws(FolderError) -> (
        name: String, paths: [String], results: SweepResults
    ) {
        guard PathBytes.isFolder(directory) else {
            throw FolderError(description: "\(directory): no such directory", located: false)
        }
        let names = (PathBytes.entries(of: directory) ?? [])
            .filter { $0.hasPrefix("shard-") && $0.hasSuffix(".csv") }.sorted()
        var shards: [ShardFile] = []
        var paths: [String] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            let text: String
            do { text = try InputText.read(path) } catch {
                throw FolderError(
                    description: "\(InputText.oneLine(path)):\(error.line):\(error.column): \(error.message)",
                    located: true)
            }
            do { shards.append(try parse(text, name: path)) } catch {
                throw FolderError(description: "\(error)", located: false)
            }
            paths.append(path)
        }
        do { return (shards.first?.name ?? "", paths, try merge(shards, names: paths)) } catch {
            throw FolderError(description: "\(directory): \(error)", located: false)
        }
    }
}

extension ShardFile {
    /// The line a shard says once its file is written to `path`: its runs among the study's
    /// (`points` × policies × replications), in `elapsed` seconds.
    public func doneLine(plan: ExperimentPlan, points: Int, elapsed: Double, path: String) -> String {
        let what = "\(points) points × \(plan.policies.count) policies × \(plan.replications) replications"
        return String(
            format: "%@: shard %d/%d, %d of %d runs (%@) in %.2f s; %@", name, shard, count, runs.count,
            plan.runs.count, what, elapsed, path)
    }
}
