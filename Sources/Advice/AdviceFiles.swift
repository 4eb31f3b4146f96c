import Foundation
import Metrics
import ODRCore

// The advice as files: `layout.csv` (resource → pack) and `layouts.csv` (every layout tried,
// with its objective terms and Pareto rank).

extension Layout {
    /// `layout.csv`: each resource's pack and category under the advised layout.
    public func csv(_ resources: [Resource]) -> String {
        let layout = self
        var text = CSV.row(["resource", "size_bytes", "pack", "prefetch"])
        let (laid, _) = layout.resources(from: resources)
        for (g, group) in layout.groups.enumerated() {
            for r in group {
                text += CSV.row([
                    resources[r].name, String(resources[r].size), laid[r].tags.sorted().joined(separator: "+"),
                    layout.promoted[g] ? "true" : "false",
                ])
            }
        }
        return text
    }
}

extension Advisor.Result {
    /// `layouts.csv`: every layout tried, its metrics the app's focus (the app's own; the
    /// device's refused user data and over-purge beside them).
    public var layoutsCSV: String {
        let result = self
        var text = CSV.row([
            "layout", "parent", "move", "packs", "rejected", "objective_mean", "objective_diff_vs_original",
            "redownload_bytes", "refused_other_bytes", "over_purge_bytes", "wait_p95_s", "failed_requests",
            "initial_install_bytes",
            "pareto_rank",
        ])
        let original = result.evaluations[result.original].objectives
        let ranks = Self.paretoRanks(result.evaluations)
        for e in result.evaluations {
            let diff =
                e.objectives.isEmpty
                ? ""
                : String(
                    format: "%.0f",
                    zip(e.objectives, original).map { $0 - $1 }.reduce(0, +) / Double(e.objectives.count))
            func number(_ value: Double) -> String {
                value.isNaN || value.isInfinite ? "" : String(format: "%.0f", value)
            }
            text += CSV.row([
                String(e.id), e.parent.map(String.init) ?? "", e.move, String(e.layout.groups.count), e.rejected ?? "",
                number(e.mean), diff, number(e.redownloadBytes), number(e.refusedOtherBytes),
                number(e.overPurgeBytes),
                e.waitP95.isNaN ? "" : CSV.seconds(e.waitP95),
                e.failedRequests.isNaN ? "" : String(format: "%.2f", e.failedRequests),
                e.rejected == nil ? String(e.initialInstallBytes) : "", ranks[e.id].map(String.init) ?? "",
            ])
        }
        return text
    }

    /// Each run layout's Pareto rank over re-downloaded bytes, p95 wait and initial install
    /// (1: no other layout is at least as good on all three and better on one; 2: the same once
    /// rank 1 is set aside; …); nil for a rejected layout.
    static func paretoRanks(_ evaluations: [Advisor.Evaluation]) -> [Int?] {
        func terms(_ e: Advisor.Evaluation) -> [Double] {
            [e.redownloadBytes, e.waitP95.isNaN ? 0 : e.waitP95, Double(e.initialInstallBytes)]
        }
        func dominates(_ a: [Double], _ b: [Double]) -> Bool {
            zip(a, b).allSatisfy { $0 <= $1 } && zip(a, b).contains { $0 < $1 }
        }
        var ranks = [Int?](repeating: nil, count: evaluations.count)
        var left = evaluations.filter { $0.rejected == nil }.map(\.id)
        var rank = 1
        while !left.isEmpty {
            let front = left.filter { i in
                !left.contains { j in j != i && dominates(terms(evaluations[j]), terms(evaluations[i])) }
            }
            for i in front { ranks[i] = rank }
            left.removeAll { front.contains($0) }
            rank += 1
        }
        return ranks
    }
}
