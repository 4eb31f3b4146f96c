import Experiments
import ODRPolicies
import ScenarioFile
import Simulation

/// One input: scenario text. Any error is fine; a crash, a hang or a leak is not. A valid
/// scenario with a small workload also runs under each policy, bounded in kernel events.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    guard let document = try? ScenarioParser(knownPolicies: PolicyRegistry.names).parse(text, fileName: "fuzz.scn")
    else { return 0 }
    guard document.scenario.expectedEvents < 5_000, document.replications <= 2 else { return 0 }
    var runner = ExperimentRunner(
        scenario: document.scenario, policies: document.policies.compactMap(PolicyRegistry.descriptor(named:)),
        replications: 1,
        policyOptions: document.policyOptions, sampleInterval: 0, recordsEvents: true, jobs: 1)
    runner.maxEvents = 20_000
    _ = try? runner.run()
    return 0
}
