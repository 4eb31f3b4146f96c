import ODRCore
import ODRPolicies
import Testing

/// Hand-worked examples for the policies libCacheSim also has. Packs are named by index;
/// sizes are bytes. Each test writes down why the expected victims are the right ones.
@Suite struct ClassicPolicyTests {
    @Test func lruPurgesTheLeastRecentlyRequested() {
        // 100 bytes, four packs of 30. After 0, 1, 2 and a hit on 0, recency is 1 < 2 < 0.
        let rig = Rig(capacity: 100, sizes: [30, 30, 30, 30], policy: LRUPolicy())
        rig.access(0)
        rig.access(1)
        rig.access(2)
        #expect(rig.access(0))
        // Pack 3 needs 30 with 10 free: 20 to free, pack 1 (30) is the least recent.
        #expect(!rig.access(3))
        #expect(rig.purgedIndices() == [1])
        // Recency now 2 < 0 < 3: pack 1 returning evicts 2.
        #expect(!rig.access(1))
        #expect(rig.purgedIndices() == [2])
    }

    @Test func fifoIgnoresHits() {
        // Same requests as the LRU example; the hit on 0 does not save it: it arrived first.
        let rig = Rig(capacity: 100, sizes: [30, 30, 30, 30], policy: FIFOPolicy())
        rig.access(0)
        rig.access(1)
        rig.access(2)
        #expect(rig.access(0))
        rig.access(3)
        #expect(rig.purgedIndices() == [0])
        // Arrival order now 1, 2, 3.
        rig.access(0)
        #expect(rig.purgedIndices() == [1])
    }

    @Test func lruSkipsHeldPacks() {
        // Pack 0 is the least recent but held by a request: LRU must pass over it.
        let rig = Rig(capacity: 90, sizes: [30, 30, 30, 30], policy: LRUPolicy())
        let held = rig.begin(0)
        rig.access(1)
        rig.access(2)
        rig.access(3)
        #expect(rig.purgedIndices() == [1])
        rig.end(held)
    }

    @Test func lfuPurgesTheLeastFrequentThenTheEarliestToReachItsCount() {
        // 0 is requested three times, 1 and 2 once: LFU keeps 0 although it is the least
        // recent (LRU would purge it).
        let rig = Rig(capacity: 90, sizes: [30, 30, 30, 30, 30], policy: LFUPolicy())
        rig.access(0)
        rig.access(0)
        rig.access(0)
        rig.access(1)
        rig.access(2)
        rig.access(3)
        // Counts: 0→3, 1→1, 2→1; among the count-1 packs, 1 reached it first.
        #expect(rig.purgedIndices() == [1])
        // Counts: 0→3, 2→1, 3→1. A hit lifts 2 to 2, so 3 is now the only count-1 pack.
        #expect(rig.access(2))
        rig.access(4)
        #expect(rig.purgedIndices() == [3])
        // Pack 3 comes back with its count forgotten (1), next to 4 (1, arrived earlier).
        rig.access(3)
        #expect(rig.purgedIndices() == [4])
    }

    @Test func gdsfWeighsFrequencyAgainstSizeAndInflates() {
        // Capacity 100. Priorities L + f·10⁶/size with L = 0:
        //   p0 (50 B): 20 000; p1 (25 B): 40 000; p2 (25 B): 40 000.
        let rig = Rig(capacity: 100, sizes: [50, 25, 25, 25, 50, 25], policy: GDSFPolicy())
        rig.access(0)
        rig.access(1)
        rig.access(2)
        // p3 (25 B) on a full disk: the lowest is p0 (20 000); L becomes 20 000.
        rig.access(3)
        #expect(rig.purgedIndices() == [0])
        // p3 = 20 000 + 40 000 = 60 000. A hit on p1: 20 000 + 2·40 000 = 100 000.
        #expect(rig.access(1))
        // p4 (50 B) with 25 free: 25 to free. Lowest: p2 (40 000); L becomes 40 000.
        rig.access(4)
        #expect(rig.purgedIndices() == [2])
        // p4 = 40 000 + 20 000 = 60 000, equal to p3: the tie goes to the least recently
        // requested, p3. p5 (25 B) on a full disk purges it.
        rig.access(5)
        #expect(rig.purgedIndices() == [3])
    }

    @Test func beladyPurgesTheFarthestNextRequestAndNeverAgainFirst() {
        // Room for two packs of 10. Requests (ordinals 1…6): 0 1 2 0 1 2.
        let sequence = [0, 1, 2, 0, 1, 2]
        let probe = Rig(capacity: 20, sizes: [10, 10, 10], policy: LRUPolicy())
        let future = FutureRequests(requests: sequence.map { [probe.pack($0)] })
        let rig = Rig(capacity: 20, sizes: [10, 10, 10], policy: BeladyPolicy(future: future))
        var hits: [Bool] = []
        // Request 3 (pack 2): 0 is next needed at 4, 1 at 5: purge 1.
        // Request 5 (pack 1): 0 is never needed again, 2 at 6: purge 0.
        for p in sequence { hits.append(rig.access(p)) }
        #expect(rig.purgedIndices() == [1, 0])
        #expect(hits == [false, false, false, true, false, true])
    }

    @Test func futureRequestsFindsTheNextOrdinal() {
        let a = PackID(rawValue: 0)
        let b = PackID(rawValue: 2)
        // Ordinals: 1:[a] 2:[b] 3:[a,b] 4:[] 5:[b,b]
        let future = FutureRequests(requests: [[a], [b], [a, b], [], [b, b]])
        #expect(future.requestCount == 5)
        #expect(future.nextRequest(of: a, after: 0) == 1)
        #expect(future.nextRequest(of: a, after: 1) == 3)
        #expect(future.nextRequest(of: a, after: 3) == nil)
        #expect(future.nextRequest(of: b, after: 2) == 3)
        #expect(future.nextRequest(of: b, after: 3) == 5)
        #expect(future.nextRequest(of: b, after: 5) == nil)
        #expect(future.nextRequest(of: PackID(rawValue: 1), after: 0) == nil)
        #expect(future.nextRequest(of: PackID(rawValue: 7), after: 0) == nil)
        let single = FutureRequests(singlePackRequests: [b, a, b])
        #expect(single.nextRequest(of: b, after: 1) == 3)
        #expect(single.nextRequest(of: a, after: 0) == 2)
    }
}
