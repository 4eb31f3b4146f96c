import Metrics

/// One input: a baseline file's text, read and checked against itself (which must pass
/// whenever the file names every metric and has rows) and against a changed copy.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBaseline(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = try? CSVReader.records(text)
    guard let baseline = try? BaselineFile.parse(text, name: "fuzz.csv") else { return 0 }
    let check = RegressionCheck(baseline: baseline, current: baseline.rows, tolerance: 0.02)
    if !baseline.rows.isEmpty && baseline.missingMetrics.isEmpty && baseline.unknownColumns.isEmpty
        && check.mismatches.isEmpty
    {
        precondition(check.passed, "a baseline must pass against itself: \(check.failures)")
    }
    _ = JUnitReport.xml(check, name: "fuzz")
    _ =
        RegressionCheck(
            baseline: baseline,
            current: baseline.rows.map {
                var r = $0
                r.values = r.values.map { $0 * 3 }
                return r
            },
            tolerance: 0.02, method: .statistical
        ).failures
    return 0
}
