import Foundation
import ODRPolicies
import TestSupport
import Testing
import TraceReplay

/// The replay against libCacheSim's own numbers for the CloudPhysics trace
/// (`Tests/Fixtures/traces/cloudphysics-reference.csv`, an independent reference): misses and
/// missed bytes must agree exactly at each of its four capacities.
@Suite struct AgreementTests {
    struct Expected {
        var policy: String
        var capacity: Int64
        var requests: Int64
        var misses: Int64
        var bytesMissed: Int64
    }

    static func reference() throws -> [Expected] {
        let url = traceFixtures.appendingPathComponent("cloudphysics-reference.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline)
        let header = lines[0].split(separator: ",").map(String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        return lines.dropFirst().map { line in
            let f = line.split(separator: ",").map(String.init)
            return Expected(
                policy: f[column("policy")], capacity: Int64(f[column("capacity_bytes")])!,
                requests: Int64(f[column("requests")])!, misses: Int64(f[column("misses")])!,
                bytesMissed: Int64(f[column("bytes_missed")])!)
        }
    }

    @Test func replayMatchesLibCacheSimExactly() throws {
        let trace = traceFixtures.appendingPathComponent("cloudphysics.csv").path
        try #require(
            FileManager.default.fileExists(atPath: trace),
            "the reference trace is missing: expected \(trace) (shared/ beside the repository)")
        let expected = try Self.reference()
        // gdsf followed this (2024) reference until libcachesim 0.3.5 changed its admission;
        // it is held to today's in S3FIFOAgreementTests and the libcachesim matrix.
        let policies = ["lru", "fifo", "lfu", "belady"]
        #expect(Set(expected.map(\.policy)).isSuperset(of: policies))
        let capacities = Array(Set(expected.map(\.capacity))).sorted()
        #expect(capacities.count == 4)
        for capacity in capacities {
            let results = try TraceReplayer(path: trace).replay(
                capacity: capacity, policies: policies.map { PolicyRegistry.descriptor(named: $0)! })
            for result in results {
                let reference = try #require(expected.first { $0.policy == result.policy && $0.capacity == capacity })
                #expect(result.requests == reference.requests, "\(result.policy) at \(capacity)")
                #expect(result.misses == reference.misses, "\(result.policy) at \(capacity)")
                #expect(result.bytesMissed == reference.bytesMissed, "\(result.policy) at \(capacity)")
            }
        }
    }
}
