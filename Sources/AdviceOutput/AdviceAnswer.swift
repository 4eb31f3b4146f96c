import Advice
import Foundation
import Metrics
import ODRCore
import Reports
import TextInput

/// What `odr-sim advise` writes and says of a search: `advised.scn` (the advised layout over
/// the file's own text, headed by the answer), `layout.csv`, `layouts.csv` and `report.html`;
/// the JSON object and the terminal's text from the same evaluations.
public struct AdviceAnswer {
    /// What was asked.
    public struct Question {
        public var file: String, app: String, scenario: String
        public var policy: String, replications: Int
        /// The app's resources as written.
        public var resources: [Resource]
        /// The devices every layout ran on (their labels); empty: the scenario's own.
        public var population: [String]
        /// The objective's terms, each naming whose value it reads (``Advice/Advisor/Weights/described(app:)``).
        public var objective = ""

        public init(
            file: String, app: String, scenario: String, policy: String, replications: Int, resources: [Resource],
            population: [String], objective: String = ""
        ) {
            (self.file, self.app, self.scenario, self.policy) = (file, app, scenario, policy)
            (self.replications, self.resources, self.population) = (replications, resources, population)
            self.objective = objective
        }
    }

    public let question: Question
    public let result: Advisor.Result
    /// The fresh seeds' check (`--confirm`, `--precision`, `--indifference`), and whether
    /// `--precision` was reached.
    public var confirmation: Advisor.Confirmation?
    public var reached: Bool?
    public var robustness: Advisor.AdviceRobustness?
    /// `--exhaustive`: the layout the search picked, to compare with the best of all.
    public var searched: Layout?

    public init(_ question: Question, result: Advisor.Result) { (self.question, self.result) = (question, result) }

    private var best: Advisor.Evaluation { result.evaluations[result.best] }
    private var original: Advisor.Evaluation { result.evaluations[result.original] }

    /// The answer in a few lines: the advised layout, its objective against the layout as
    /// written, the re-downloads and their offline bound, the fresh seeds' check.
    public var header: [String] {
        let difference = result.difference
        var lines = [
            "odr-sim advise \(InputText.oneLine(question.file)) --app \(InputText.oneLine(question.app)): "
                + "\(best.layout.summary) (\(best.move))",
            "objective \(Units.bytes(best.mean)) against \(Units.bytes(original.mean)) as written; paired difference "
                + "\(Units.bytes(difference.mean)) (95 % interval \(Units.bytes(difference.low)) to "
                + "\(Units.bytes(difference.high))), \(question.replications) replications under \(question.policy)",
            "re-downloaded \(Units.bytes(original.redownloadBytes)) as written, \(Units.bytes(best.redownloadBytes)) "
                + "advised; no purge order could re-download less than \(Units.bytes(result.bounds[0])) and "
                + "\(Units.bytes(result.bounds[1])) (the offline bound)",
        ]
        if let confirmation { lines.append(confirmation.sentence(result) { Units.bytes($0) }) }
        if !question.objective.isEmpty { lines.append("the objective: " + question.objective) }
        if !question.population.isEmpty {
            lines.append(
                "judged over \(question.population.count) devices, the same seeds on each: "
                    + question.population.joined(separator: "; "))
        }
        return lines
    }

    /// The files, `advised` being the scenario with the advised layout written over its text.
    public func files(advised: String, report: Bool) -> [(name: String, contents: String)] {
        var files = [
            ("advised.scn", header.map { "# " + InputText.oneLine($0) }.joined(separator: "\n") + "\n" + advised),
            ("layout.csv", best.layout.csv(question.resources)),
            ("layouts.csv", result.layoutsCSV),
        ]
        if report { files.append(("report.html", page.html)) }
        return files
    }

    /// A shard other than 1 (`K/N`): its share is done, and shard 1 writes the answer.
    public func shardDone(_ shard: String, json: Bool, elapsed: Double) -> String {
        let layouts = result.evaluations.count
        guard !json else {
            return JSONText.object([
                ("command", JSONText.string("advise")), ("shard", JSONText.string(shard)), ("layouts", String(layouts)),
            ])
        }
        return String(
            format: "advise shard %@: %d layouts searched with the other shards in %.2f s; shard 1 writes the answer",
            shard, layouts, elapsed)
    }

    /// `--format json`: one object.
    public func json(out: String) -> String {
        let difference = result.difference
        return JSONText.object([
            ("command", JSONText.string("advise")), ("scenario", JSONText.string(question.scenario)),
            ("app", JSONText.string(question.app)),
            ("out", JSONText.string(out)), ("policy", JSONText.string(question.policy)),
            ("replications", String(question.replications)),
            ("population", JSONText.array(question.population.map(JSONText.string))),
            ("objective_terms", JSONText.string(question.objective)),
            ("objective_as_written", JSONText.number(original.mean)),
            ("objective_advised", JSONText.number(best.mean)),
            ("budget", best.layout.budget.map { String($0) } ?? "null"),
            ("strategy", best.layout.strategy.map(JSONText.string) ?? "null"),
            ("fresh_seeds", confirmation?.json(result) ?? "null"),
            ("precision_met", reached.map { $0 ? "true" : "false" } ?? "null"),
            ("robustness", robustness?.json ?? "null"),
            ("redownload_bound_as_written", JSONText.number(result.bounds[0])),
            ("redownload_bound_advised", JSONText.number(result.bounds[1])),
            (
                "difference",
                JSONText.object([
                    ("mean", JSONText.number(difference.mean)), ("ci_low", JSONText.number(difference.low)),
                    ("ci_high", JSONText.number(difference.high)),
                ])
            ),
            ("layout", JSONText.records(best.layout.csv(question.resources))),
            ("layouts", JSONText.records(result.layoutsCSV)),
        ])
    }

    /// The terminal's text: the moves, each measure as written → advised, the checks, and
    /// where the answer went.
    public func text(elapsed: Double, out: String) -> String {
        let difference = result.difference
        var lines = ["\(question.app): \(original.layout.summary) as written → \(best.layout.summary)"]
        // The moves from the starting layout to the advised one.
        lines += result.path(to: result.best).reversed().map { "  \($0)" }
        lines += [
            "  re-downloaded: \(Units.bytes(original.redownloadBytes)) → \(Units.bytes(best.redownloadBytes))",
            "  the user's data refused (the device's): \(Units.bytes(original.refusedOtherBytes)) → "
                + "\(Units.bytes(best.refusedOtherBytes))",
            "  over-purged (the device's): \(Units.bytes(original.overPurgeBytes)) → "
                + "\(Units.bytes(best.overPurgeBytes))",
            String(
                format: "  wait p95: %.1f s → %.1f s; failed requests: %.1f → %.1f", original.waitP95, best.waitP95,
                original.failedRequests, best.failedRequests),
            "  re-downloads no purge order could avoid: \(Units.bytes(result.bounds[0])) → "
                + "\(Units.bytes(result.bounds[1]))",
            "  initial install: \(Units.bytes(Double(original.initialInstallBytes))) → "
                + "\(Units.bytes(Double(best.initialInstallBytes)))",
            "  objective: \(Units.bytes(original.mean)) → \(Units.bytes(best.mean)), difference "
                + "\(Units.bytes(difference.mean)) (95 % interval \(Units.bytes(difference.low)) to "
                + "\(Units.bytes(difference.high)))"
                + (difference.excludesZero && difference.high < 0
                    ? ", significant"
                    : result.best == result.original ? "; the layout as written is kept" : ", within the noise"),
            "  the objective: \(question.objective)",
        ]
        if let confirmation {
            let precision = reached.map {
                $0 ? " (--precision reached)" : " (--precision not reached at --max-replications)"
            }
            lines.append("  " + confirmation.sentence(result) { Units.bytes($0) } + (precision ?? ""))
        }
        if let robustness { lines.append("  " + robustness.headline { Units.bytes($0) }) }
        if let searched {
            lines.append(
                "  " + result.exhaustiveSentence(searched: searched, resources: question.resources) { Units.bytes($0) })
        }
        let population =
            question.population.isEmpty
            ? "" : "\(question.population.count) devices (\(question.population.joined(separator: "; "))) × "
        let rejected = result.evaluations.filter { $0.rejected != nil }.count
        lines.append(
            String(
                format:
                    "\n%d layouts (%d rejected by the platform's limits) × %@%d replications in %.2f s; advised.scn "
                    + "in %@/",
                result.evaluations.count, rejected, population, question.replications, elapsed, out))
        return lines.joined(separator: "\n")
    }

    /// `report.html`: every layout tried, and each resource's pack as written and advised.
    private var page: AdviceReport {
        let layouts = result.evaluations.map { e in
            let interval = Interval(e.objectives)
            return AdviceReport.Layout(
                id: e.id, move: e.move, packs: e.layout.groups.count, rejected: e.rejected,
                redownloadBytes: e.redownloadBytes, waitP95: e.waitP95,
                initialInstallBytes: Double(e.initialInstallBytes),
                objective: (interval.mean, interval.low, interval.high))
        }
        let resources = question.resources
        let (laid, _) = best.layout.resources(from: resources)
        let promoted = Set(
            best.layout.groups.indices.filter { best.layout.promoted[$0] }.flatMap { best.layout.groups[$0] })
        let rows = resources.indices.map { r in
            (
                name: resources[r].name, size: resources[r].size,
                written: resources[r].tags.sorted().joined(separator: "+"),
                advised: laid[r].tags.sorted().joined(separator: "+"), prefetch: promoted.contains(r)
            )
        }
        var report = AdviceReport(
            title: "\(question.app): the layout to ship", lede: header.joined(separator: "; "), layouts: layouts,
            starts: result.starts, advised: result.best, resources: rows)
        report.app = question.app
        return report
    }
}
