import ODRCore
import TestSupport
import Testing

@testable import ODRPolicies

/// Hand-worked examples for the policies odr-sim adds to libCacheSim's.
@Suite struct OtherPolicyTests {
    @Test func largestFirstPurgesTheLargestPack() {
        // Capacity 70 holding 10, 40, 20. A 30-byte pack needs 30: the 40-byte pack goes,
        // although it is neither the oldest nor the least recent.
        let rig = Rig(capacity: 70, sizes: [10, 40, 20, 30, 40], policy: LargestFirstPolicy())
        rig.access(0)
        rig.access(1)
        rig.access(2)
        rig.access(3)
        #expect(rig.purgedIndices() == [1])
        // Holding 10, 20, 30 (60 of 70); 40 more need 30 freed: the largest is 30 (pack 3).
        rig.access(4)
        #expect(rig.purgedIndices() == [3])
    }

    @Test func bestFitPicksTheSmallestPackThatSuffices() {
        // Full disk: 50, 30, 15, 5. A 12-byte demand: the smallest pack ≥ 12 is 15 (3 over);
        // LRU would purge the 50 (38 over).
        let rig = Rig(capacity: 100, sizes: [50, 30, 15, 5, 12], policy: BestFitPolicy())
        for p in 0..<4 { rig.access(p) }
        rig.access(4)
        #expect(rig.purgedIndices() == [2])
        #expect(rig.device.ledger.overPurgeBytes == 3)
    }

    @Test func bestFitCombinesWhenNoSinglePackSuffices() {
        // Full disk: 50, 30, 15, 5; a 60-byte demand. No pack is ≥ 60: take the largest (50),
        // leaving 10; the best fit for 10 is 15. Over-purge 5 (50+15−60).
        let rig = Rig(capacity: 100, sizes: [50, 30, 15, 5, 60], policy: BestFitPolicy())
        for p in 0..<4 { rig.access(p) }
        rig.access(4)
        #expect(rig.purgedIndices() == [0, 2])
        #expect(rig.device.ledger.overPurgeBytes == 5)
    }

    @Test func bestFitPrefersTheLeastRecentAmongEqualSizes() {
        let rig = Rig(capacity: 60, sizes: [20, 20, 20, 20], policy: BestFitPolicy())
        rig.access(0)
        rig.access(1)
        rig.access(2)
        #expect(rig.access(0))
        rig.access(3)
        #expect(rig.purgedIndices() == [1])
    }

    /// Purge order of `random` on a fixed workload.
    private func randomVictims(seed: UInt64) -> [Int] {
        let rig = Rig(capacity: 100, sizes: Array(repeating: 10, count: 30), policy: RandomPolicy(seed: seed))
        var generator = SplitMix64(seed: 99)
        for _ in 0..<200 { rig.access(generator.below(30)) }
        return rig.purgedIndices()
    }

    @Test func randomIsDeterministicPerSeed() {
        let first = randomVictims(seed: 7)
        #expect(first.count > 50)
        #expect(randomVictims(seed: 7) == first)
        // Different seeds choose differently (five seeds cannot all agree by chance).
        let others = (8...12).map { randomVictims(seed: $0) }
        #expect(others.contains { $0 != first })
    }

    @Test func androidQuotaClearsTheAppFurthestOverItsQuotaOldestFirst() {
        // Quotas: app0 and app1 100 bytes, app2 10 000. app0 holds 3×100 (ratio 3.0),
        // app1 3×50 (1.5). Capacity 450 is full.
        // By app name (the rig names its apps app0, app1, app2); app2's from the default.
        let options = PolicyOptions(
            values: ["default_quota": 10_000], apps: ["app0": ["cache_quota": 100], "app1": ["cache_quota": 100]])
        let rig = Rig(
            capacity: 450, apps: [[100, 100, 100], [50, 50, 50], [100, 100, 100]],
            policy: AndroidQuotaPolicy(options: options))
        for p in 0..<3 { rig.access(p, app: 0) }
        for p in 0..<3 { rig.access(p, app: 1) }
        // app2's first pack needs 100: app0 (3.0) gives its oldest.
        rig.access(0, app: 2)
        #expect(rig.purged().map { [$0.app, $0.index] } == [[0, 0]])
        // app0 2.0, app1 1.5, app2 0.01: app0 again.
        rig.access(1, app: 2)
        #expect(rig.purged().map { [$0.app, $0.index] } == [[0, 1]])
        // app0 1.0, app1 1.5: app1's oldest (50) goes, leaving 1.0 each; 50 more needed and
        // the tie goes to the app whose candidate is older: app0's pack 2 arrived before
        // app1's pack 1.
        rig.access(2, app: 2)
        #expect(rig.purged().map { [$0.app, $0.index] } == [[1, 0], [0, 2]])
    }

    @Test(
        """
        android-quota clears an app's files oldest-written first: reading a pack does not make it younger (AOSP \
        CacheItem sorts by st_mtime)
        """
    )
    func androidQuotaOrdersByModificationTime() {
        // One app, quota 100 bytes, three packs of 100 stored in order 0, 1, 2 (capacity 300,
        // full). Pack 0 is then read again: under LRU it would be the youngest; by mtime it is
        // still the oldest. A second app's 100-byte pack needs room: pack 0 goes, not pack 1.
        let options = PolicyOptions(values: ["default_quota": 10_000], apps: ["app0": ["cache_quota": 100]])
        let rig = Rig(capacity: 300, apps: [[100, 100, 100], [100]], policy: AndroidQuotaPolicy(options: options))
        for p in 0..<3 { rig.access(p, app: 0) }
        rig.access(0, app: 0)
        #expect(rig.purged().isEmpty)
        rig.access(0, app: 1)
        #expect(rig.purged().map { [$0.app, $0.index] } == [[0, 0]])
    }

    @Test("android-quota: an app's cache_quota, else default_quota, is fixed; without either AOSP computes it")
    func androidQuotaFixedQuotas() {
        let given = AndroidQuotaPolicy(options: PolicyOptions(apps: ["game": ["cache_quota": 5]]))
        #expect(given.fixedQuotaOfApp(named: "other") == nil)
        #expect(given.fixedQuotaOfApp(named: "game") == 5)
        let defaulted = AndroidQuotaPolicy(
            options: PolicyOptions(values: ["default_quota": 7], apps: ["game": ["cache_quota": 5]]))
        #expect(defaulted.fixedQuotaOfApp(named: "other") == 7)
        #expect(defaulted.fixedQuotaOfApp(named: "game") == 5)
    }

    @Test(
        """
        android-quota by default ranks apps by foreground time and shares 15 % of the free space (AOSP \
        CacheQuotaServiceImpl)
        """
    )
    func androidQuotaComputesAOSPQuotas() {
        // Capacity 1,000. app1 runs from 0 to 300 s and stores two packs of 200 (t = 1, 2);
        // app0 runs from 300 to 400 s and stores two of 200 (t = 301, 302); app2 never runs.
        // At t = 401 app2 asks for 300 bytes with 200 free: 100 must go.
        // AOSP's quotas then: reserve = round(0.15 × 200) = 30; app1 (300 s) ranks first,
        // share 1/ln 3 − 0.285 = 0.625239, app0 (100 s) second, 1/ln 4 − 0.285 = 0.436348;
        // normalised over 1.061587: app1 round(30 × 0.588967) = 18, app0 round(30 × 0.411033) = 12.
        // Ratios: app0 400/12 = 33.3 > app1 400/18 = 22.2, so app0's oldest pack goes.
        // With one fixed quota for both (default_quota 100) the ratios tie at 4.0 and the
        // older candidate goes: app1's first pack (stored at t = 1).
        func firstVictim(_ options: PolicyOptions) -> [Int] {
            let rig = Rig(
                capacity: 1_000, apps: [[200, 200], [200, 200], [300]], policy: AndroidQuotaPolicy(options: options))
            rig.device.launch(rig.apps[1], at: 0)
            rig.access(0, app: 1)
            rig.access(1, app: 1)
            rig.wait(298)
            rig.device.terminate(rig.apps[1], at: 300)
            rig.device.launch(rig.apps[0], at: 300)
            rig.access(0, app: 0)
            rig.access(1, app: 0)
            rig.wait(98)
            rig.device.terminate(rig.apps[0], at: 400)
            #expect(rig.device.foregroundSeconds(of: rig.apps[1]) == 300)
            #expect(rig.device.foregroundSeconds(of: rig.apps[0]) == 100)
            #expect(rig.purged().isEmpty)
            rig.access(0, app: 2)
            return rig.purged().flatMap { [$0.app, $0.index] }
        }
        #expect(firstVictim(PolicyOptions()) == [0, 0])
        #expect(firstVictim(PolicyOptions(values: ["default_quota": 100])) == [1, 0])
    }

    @Test("AOSP's quotas: fair shares by foreground rank, normalised, 15 % of free space; no foreground time, no quota")
    func aospQuotaArithmetic() {
        // Free 1,000,000: reserve round(150,000.0) = 150,000. Foreground 0, 100, 300, 100 s:
        // app2 ranks first, then app1 and app3 (a tie, in app order); app0 is not ranked.
        // Shares 1/ln 3 − 0.285 = 0.6252392, 1/ln 4 − 0.285 = 0.4363475, 1/ln 5 − 0.285 =
        // 0.3363349, sum 1.3979217: app2 150,000 × 0.6252392 / 1.3979217 = 67,089.9 → 67,090;
        // app1 46,821.3 → 46,821; app3 36,088.8 → 36,089.
        #expect(
            AOSPCacheQuotas.compute(foreground: [0, 100, 300, 100], free: 1_000_000) == [0, 46_821, 67_090, 36_089])
        // The share stops falling at 0.01: 1/ln 29 − 0.285 = 0.01197 at position 26, and
        // 1/ln 30 − 0.285 = 0.00901 < 0.01 at 27.
        #expect(abs(AOSPCacheQuotas.fairShare(position: 26) - 0.011974) < 1e-6)
        #expect(AOSPCacheQuotas.fairShare(position: 27) == 0.01)
    }

    @Test func sieveKeepsAVisitedPackAndMovesItsHand() {
        // Room for three packs of 10. 0, 1, 2 arrive; a hit marks 0 visited.
        let rig = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10, 10], policy: SievePolicy())
        rig.access(0)
        rig.access(1)
        rig.access(2)
        #expect(rig.access(0))
        // Pack 3: the hand starts at the oldest, 0: visited, so its bit is cleared and it
        // stays; 1 is unvisited and goes. The hand rests on 2.
        rig.access(3)
        #expect(rig.purgedIndices() == [1])
        // Pack 4: 2 is unvisited and goes; pack 5: the hand has moved on to 3, which goes.
        // LRU would have purged 0 at the third step; SIEVE keeps it.
        rig.access(4)
        #expect(rig.purgedIndices() == [2])
        rig.access(5)
        #expect(rig.purgedIndices() == [3])
        // Pack 1 returns: the hand is on 4, unvisited, so it goes; 0 stays until the hand
        // wraps round to it (its bit was cleared in the first sweep).
        rig.access(1)
        #expect(rig.purgedIndices() == [4])
    }

    @Test func sieveForgetsAVisitOnceTheHandHasPassed() {
        // Room for two packs of 10: 0, 0 (hit: visited), 1, then 2: the hand clears 0's bit
        // and purges 1, wrapping round. Then 3: the hand finds 0 unvisited and purges it.
        // LFU would purge 2 instead (count 1 against 0's count 2): SIEVE is not LFU.
        let sieve = Rig(capacity: 20, sizes: [10, 10, 10, 10], policy: SievePolicy())
        let lfu = Rig(capacity: 20, sizes: [10, 10, 10, 10], policy: LFUPolicy())
        for rig in [sieve, lfu] {
            rig.access(0)
            rig.access(0)
            rig.access(1)
            rig.access(2)
            rig.access(3)
        }
        #expect(sieve.purgedIndices() == [1, 0])
        #expect(lfu.purgedIndices() == [1, 2])
    }

    @Test func clockGivesASecondChanceAtTheNewEndUnlikeSieve() {
        // Room for three packs of 10: 0, 1, 2 arrive; a hit marks 0 referenced. The same
        // requests under SIEVE for contrast.
        let clock = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10, 10], policy: ClockPolicy())
        let sieve = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10, 10], policy: SievePolicy())
        var purged: [[Int]] = [[], []]
        for (r, rig) in [clock, sieve].enumerated() {
            for p in [0, 1, 2, 0] { rig.access(p) }
            for p in [3, 4, 5, 1] {
                rig.access(p)
                purged[r] += rig.purgedIndices()
            }
        }
        // Pack 3: the hand finds 0 referenced, clears it and moves it to the new end (queue 1,
        // 2, 0), then purges 1. Pack 4 purges 2 (queue 0, 3, 4). Pack 5: 0 is oldest again and
        // unreferenced now: purged. Pack 1 purges 3. SIEVE's hand does not go back: after 1
        // and 2 it has moved on to 3 and 4, and keeps 0.
        #expect(purged[0] == [1, 2, 0, 3])
        #expect(purged[1] == [1, 2, 3, 4])
    }

    @Test func lfudaAgesOldCountsBelowNewcomersUnlikeLFU() {
        // Room for three packs of 10. LFUDA (libCacheSim's rules): counts in buckets, the
        // minimum m starting at 0.
        let lfuda = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10, 10, 10], policy: LFUDAPolicy())
        let lfu = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10, 10, 10], policy: LFUPolicy())
        var purged: [[Int]] = [[], []]
        for (r, rig) in [lfuda, lfu].enumerated() {
            for p in [0, 1, 2, 0, 3, 0, 4, 5, 6] {
                rig.access(p)
                purged[r] += rig.purgedIndices()
            }
        }
        // A, B, C arrive with count m + 1 = 1; A's hit adds m = 0 (it only moves to the back of
        // bucket 1: B, C, A). D: bucket 1's oldest, B, goes, m = 1; D counts 2. A's hit adds 1:
        // 2, behind D. E: bucket 1's C goes and, bucket 1 empty, m = 2; E counts 3. F: bucket
        // 2's oldest, D, goes; F counts 3. G: bucket 2 holds A alone: A goes, though requested
        // three times, because the newcomers started above it (the aging).
        #expect(purged[0] == [1, 2, 3, 0])
        // LFU keeps A (3 requests) and takes E, the earliest of the ones requested once.
        #expect(purged[1] == [1, 2, 3, 4])
    }

    @Test func arcKeepsWhatWasSeenTwiceWhereLRUDoesNot() {
        // Room for three packs of 10; T1's target p starts at 0.
        let arc = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10], policy: ARCPolicy())
        let lru = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10], policy: LRUPolicy())
        var purged: [[Int]] = [[], []]
        for (r, rig) in [arc, lru].enumerated() {
            for p in [0, 1, 2, 0, 3, 1, 4] {
                rig.access(p)
                purged[r] += rig.purgedIndices()
            }
        }
        // A, B, C join T1; A's hit moves it to T2. D: T1 and B1 with D make 30, not above the
        // cache, so REPLACE: T1 (20 bytes) is above p = 0: its oldest, B, goes (id to B1). B
        // again: a ghost hit in B1, p = 0 + max(0 / 10, 1) = 1; REPLACE takes T1's oldest, C,
        // and B joins T2 (A, B). E: T1 (D, 10) and B1 (C, 10) with E make 30: REPLACE again,
        // T1 above p: D goes. A and B, each seen twice, stay.
        #expect(purged[0] == [1, 2, 3])
        // LRU: B, then C, then A (the least recent by then).
        #expect(purged[1] == [1, 2, 0])
    }
}
