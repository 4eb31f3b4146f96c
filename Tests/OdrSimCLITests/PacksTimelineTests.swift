import Foundation
import Testing

/// Issue 54: `packs.csv`, what is on the disk pack by pack, and the report's chart of it: the
/// rows worked out by hand, and the chart's every hover the sum of the file's rows.
@Suite("packs.csv and its chart")
struct PacksTimelineTests {
    /// FaultTests' scenario (`Tests/Fixtures/scenarios/faults.scn`), r4 ended and the app
    /// uninstalled after it.
    static func scenario() throws -> String {
        try String(
            contentsOf: CLI.repository.appendingPathComponent("Tests/Fixtures/scenarios/faults.scn"), encoding: .utf8)
            + "  - {at: 300, app: game, end: r4}\n  - {at: 400, app: game, uninstall: true}\n"
    }

    @Test("each stretch by hand; the chart's hovers are the file's rows summed")
    func byHand() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.scn")
        try Self.scenario().write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("o")
        let result = try CLI.run(["run", file.path, "--policy", "lru", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: out.appendingPathComponent("packs.csv"), encoding: .utf8)
        // a: 30 MB by its failure at 50 s (stalled 10–30 s), kept to 60 s; resumed with b at
        // 60 s, 0.5 MB/s each but for the link's stall at 70–80 s: 45 MB and b 15 MB at 100 s,
        // when both fail; r4 fetches a's last 55 MB 200–255 s; the uninstall at 400 s ends all.
        #expect(
            text == """
                policy,replication,app,pack,phase,bytes,from_s,to_s
                lru,1,game,a,downloading,30000000,0.000000,50.000000
                lru,1,game,a,partial,30000000,50.000000,60.000000
                lru,1,game,a,downloading,45000000,60.000000,100.000000
                lru,1,game,b,downloading,15000000,60.000000,100.000000
                lru,1,game,a,partial,45000000,100.000000,200.000000
                lru,1,game,a,downloading,100000000,200.000000,255.000000
                lru,1,game,a,stored,100000000,255.000000,400.000000
                lru,1,game,b,partial,15000000,100.000000,400.000000

                """)
        // Every hover of the chart: at its time, the rows that cover it (from ≤ t < to, or
        // ending at t for the point drawn before the change) summed by phase.
        let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        let hovers = html.components(separatedBy: "<title>lru, ").dropFirst().map { $0.prefix { $0 != "<" } }
            .filter { $0.contains(" s: stored ") }
        #expect(hovers.count == 2 * Set(rows.flatMap { [$0[6], $0[7]] }).count - 1)
        // The first moment is drawn once; every later one twice, before its change and after.
        var seen: Set<String> = []
        for (i, hover) in hovers.enumerated() {
            let time = String(hover.prefix { $0 != " " })
            let after = i == 0 || seen.contains(time)
            seen.insert(time)
            let t = Double(time)!
            func sum(_ phase: String) -> Int {
                rows.filter { row in
                    row[4] == phase
                        && (after
                            ? Double(row[6])! <= t && t < Double(row[7])! : Double(row[6])! < t && t <= Double(row[7])!)
                }.map { Int($0[5])! }.reduce(0, +)
            }
            #expect(
                hover == "\(time) s: stored \(sum("stored")) bytes, partial \(sum("partial")) bytes, downloading "
                    + "\(sum("downloading")) bytes", "\(hover)")
        }
    }
}
