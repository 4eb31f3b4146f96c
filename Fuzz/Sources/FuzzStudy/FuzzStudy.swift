import ODRPolicies
import ScenarioFile

/// One input: study text, its base scenario inline (`scenario:` as a mapping) or a file it
/// cannot find. Any error is fine; a crash, a hang or a leak is not. Every point a valid
/// study makes is a scenario the parser has checked, so the points are parsed, not run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStudy(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = try? StudyParser(knownPolicies: PolicyRegistry.names, policyOptions: PolicyRegistry.options).parse(
        text, fileName: "fuzz.study")
    return 0
}
