import Foundation
import ODRPolicies
import TestSupport
import Testing

@testable import TraceReplay

@Suite("The LRU miss-ratio curve in one pass")
struct LRUCurveTests {
    @Test("by hand: sizes 4, 3, 2 at 5 and 9 bytes")
    func byHand() throws {
        // a4 b3 a4 c2 b3 a4. At 9 bytes all three fit together: the 3 first uses miss, the
        // rest hit. At 5 bytes: a misses; b misses and evicts a (4 + 3 > 5); a misses and
        // evicts b; c misses and evicts a (4 + 2 > 5); b misses and stays beside c (2 + 3 = 5);
        // a misses. All 6 miss: 4 + 3 + 4 + 2 + 3 + 4 = 20 bytes.
        let text = "time,obj_id,size\n1,1,4\n2,2,3\n3,1,4\n4,3,2\n5,2,3\n6,1,4\n"
        let points = try withTrace(text) { path in try LRUCurve(path: path).compute([.bytes(5), .bytes(9)]).points }
        #expect(points.map(\.misses) == [6, 3])
        #expect(points.map(\.bytesMissed) == [20, 9])
        #expect(points[1].requests == 6 && points[1].bytesRequested == 20)
    }

    @Test("on random traces, with objects larger than some capacities, every point equals a replay with lru")
    func equalsReplay() throws {
        var generator = SplitMix64(seed: 42)
        let lru = try #require(PolicyRegistry.descriptor(named: "lru"))
        for trial in 0..<30 {
            var text = "time,obj_id,size\n"
            var sizes: [Int: Int] = [:]
            let objects = 3 + Int(generator.next() % 20)
            for t in 0..<(20 + Int(generator.next() % 200)) {
                let o = Int(generator.next() % UInt64(objects))
                let size = sizes[o] ?? 1 + Int(generator.next() % 60)
                sizes[o] = size
                text += "\(t),\(o),\(size)\n"
            }
            let capacities: [Int64] = [1, 10, 30, 59, 100, 250, 1000].map { Int64($0) }
            try withTrace(text) { path in
                let curve = try LRUCurve(path: path).compute(capacities.map { .bytes($0) }).points
                for (c, point) in zip(capacities, curve) {
                    let replay = try TraceReplayer(path: path).replay(capacity: c, policies: [lru])[0]
                    #expect(
                        point.misses == replay.misses && point.bytesMissed == replay.bytesMissed,
                        """
                        trial \(trial), capacity \(c): curve \(point.misses)/\(point.bytesMissed), replay \
                        \(replay.misses)/\(replay.bytesMissed)
                        """
                    )
                }
            }
        }
    }

    @Test("CloudPhysics at libCacheSim's four capacities: its LRU counts, 92,200 misses at 202,976,972 bytes")
    func reference() throws {
        let trace = traceFixtures.appendingPathComponent("cloudphysics.csv").path
        let (points, unique) = try LRUCurve(path: trace).compute([.percent(1), .percent(5), .percent(10), .percent(25)])
        #expect(unique == 2_029_769_728)
        #expect(points.map(\.capacity) == [20_297_697, 101_488_486, 202_976_972, 507_442_432])
        #expect(points.map(\.misses) == [94_956, 93_700, 92_200, 81_987])
        #expect(points.map(\.bytesMissed) == [4_280_799_744, 4_232_581_120, 4_157_572_608, 3_677_807_104])
    }

    @Test(
        """
        SHARDS: a quarter of CloudPhysics' objects gives the curve within 0.01 on average, each point within 3 of \
        its standard errors
        """
    )
    func sampled() throws {
        let trace = traceFixtures.appendingPathComponent("cloudphysics.csv").path
        // Byte capacities, so that the sampled and the exact curve are taken at the same sizes.
        let capacities: [TraceReplayer.Capacity] = [
            20_297_697, 101_488_486, 202_976_972, 507_442_432, 1_014_884_864, 2_029_769_728,
        ].map { .bytes($0) }
        let exact = try LRUCurve(path: trace).compute(capacities).points
        let estimate = try LRUCurve(path: trace).computeSampled(capacities, rate: 0.25)
        #expect(estimate.rate == 0.25)
        #expect(estimate.requests == 113_872)
        // About a quarter of the 48,974 objects, chosen by hash.
        #expect(abs(Double(estimate.sampledObjects) / 48_974 - 0.25) < 0.02)
        var objectErrors: [Double] = []
        var byteErrors: [Double] = []
        for (j, (e, s)) in zip(exact, estimate.points).enumerated() {
            let objectError = abs(e.objectMissRatio - s.objectMissRatio)
            let byteError = abs(e.byteMissRatio - s.byteMissRatio)
            objectErrors.append(objectError)
            byteErrors.append(byteError)
            #expect(estimate.objectMissRatioErrors[j] > 0 && estimate.byteMissRatioErrors[j] > 0)
            #expect(
                objectError <= 3 * estimate.objectMissRatioErrors[j], "capacity \(e.capacity): off by \(objectError)")
            #expect(byteError <= 3 * estimate.byteMissRatioErrors[j], "capacity \(e.capacity): off by \(byteError)")
        }
        // The order of error SHARDS reports for samples of thousands of objects.
        #expect(objectErrors.reduce(0, +) / Double(objectErrors.count) <= 0.01, "\(objectErrors)")
        #expect(byteErrors.reduce(0, +) / Double(byteErrors.count) <= 0.01, "\(byteErrors)")
        // A rate of 1 keeps every object: the estimate is the exact count.
        let whole = try LRUCurve(path: trace).computeSampled(capacities, rate: 1)
        #expect(whole.points.map(\.misses) == exact.map(\.misses))
    }
}
