import Metrics
import Testing

/// Issue 50: under a focus on one app, the metrics only the device has (the user's refused
/// data, over-purge, low-disk warnings, the disk's peak) keep the device's value, so that an
/// objective or a limit never reads them as 0; `app.` and `device.` say whose value a term reads.
@Suite("Guard metrics under a focus")
struct GuardMetricTests {
    /// A device row and its app's row for one run, by hand: the app re-downloaded 30 MB of the
    /// device's 100 MB; the device refused 500 MB of the user's photos and over-purged 70 MB.
    static func rows(_ policy: String, refused: Double) -> (device: SummaryRow, app: AppRow) {
        var device = [Double](repeating: 0, count: Metric.allCases.count)
        device[Metric.redownloadBytes.position] = 100e6
        device[Metric.refusedOtherBytes.position] = refused
        device[Metric.overPurgeBytes.position] = 70e6
        let app = Metric.allCases.map { $0 == .redownloadBytes ? 30e6 : $0.belongsToApp ? 0 : .nan }
        return (
            SummaryRow(policy: policy, replication: 1, seed: 1, values: device),
            AppRow(policy: policy, replication: 1, seed: 1, app: "game", values: app)
        )
    }

    @Test("a focused row is the app's own metrics, and the device's where the app has none")
    func focusedRow() throws {
        let (device, app) = Self.rows("lru", refused: 500e6)
        let alone = try #require(AppRow.summaryRows(of: "game", in: [app]).first)
        #expect(alone[.refusedOtherBytes].isNaN)  // the app's own row: no such metric
        let focused = try #require(AppRow.summaryRows(of: "game", in: [app], beside: [device]).first)
        #expect(focused[.redownloadBytes] == 30e6)  // the app's
        #expect(focused[.refusedOtherBytes] == 500e6)  // the device's: a guard metric
        #expect(focused[.overPurgeBytes] == 70e6)
        #expect(focused.deviceValue(.redownloadBytes) == 100e6)
    }

    @Test("an objective reads each term where it says: bare, app. or device.; the sum by hand")
    func scopedTerms() throws {
        let (device, app) = Self.rows("lru", refused: 500e6)
        let row = try #require(AppRow.summaryRows(of: "game", in: [app], beside: [device]).first)
        // 30 MB (the app's) + 2 × 500 MB (the device's refused data) = 1,030 MB.
        #expect(try Objective.parse("redownload_bytes + 2*refused_other_bytes", limits: []).value(row) == 1_030e6)
        // device.redownload_bytes: 100 MB; app.redownload_bytes: 30 MB.
        #expect(try Objective.parse("device.redownload_bytes", limits: []).value(row) == 100e6)
        #expect(try Objective.parse("app.redownload_bytes", limits: []).value(row) == 30e6)
        // Without a focus, every term is the device's.
        #expect(try Objective.parse("redownload_bytes + 2*refused_other_bytes", limits: []).value(device) == 1_100e6)
        // No app has an over-purge of its own.
        #expect(throws: Objective.ParseError.self) { try Objective.parse("app.over_purge_bytes", limits: []) }
    }

    @Test("the user's refused data changes the recommendation under a focus (it was read as 0)")
    func refusedDataCounts() throws {
        // keep: re-downloads 30 MB, refuses 500 MB of photos; lean: 60 MB, refuses nothing.
        let keep = Self.rows("keep", refused: 500e6)
        var lean = Self.rows("lean", refused: 0)
        lean.app.values[Metric.redownloadBytes.position] = 60e6
        let rows = AppRow.summaryRows(of: "game", in: [keep.app, lean.app], beside: [keep.device, lean.device])
        let without = try Objective.parse("redownload_bytes", limits: [])
        let with = try Objective.parse("redownload_bytes + 1000*refused_other_bytes", limits: [])
        #expect(without.recommend(rows, baseline: "keep", offline: []).best?.policy == "keep")
        #expect(with.recommend(rows, baseline: "keep", offline: []).best?.policy == "lean")
        // A limit on the device's refused data, under the focus.
        let limited = try Objective.parse("redownload_bytes", limits: ["device.refused_other_bytes<=100MB"])
        #expect(limited.recommend(rows, baseline: "keep", offline: []).best?.policy == "lean")
    }

    @Test("the objective says whose value each term read")
    func described() throws {
        let objective = try Objective.parse(
            "redownload_bytes + 2*refused_other_bytes + 1MB*device.wait_p95_s", limits: ["failed_requests<=baseline"])
        #expect(
            objective.described(focus: "game")
                == """
                The objective for app game: game's redownload_bytes + 2 × the device's refused_other_bytes + 1MB × \
                the device's wait_p95_s; limits: game's failed_requests ≤ baseline.
                """)
    }
}
