import Foundation
import ODRCore
import ODRPolicies
import TestSupport
import Testing
import TraceReplay

@Suite struct TraceReplayTests {
    private func replay(_ text: String, capacity: Int64, _ names: [String]) throws -> [ReplayResult] {
        try withTrace(text) { path in
            try TraceReplayer(path: path).replay(
                capacity: capacity, policies: names.map { PolicyRegistry.descriptor(named: $0)! })
        }
    }

    @Test func countsAHandWorkedLRUTrace() throws {
        // Capacity 100. a(40) b(40) a c(40) b d(200) a:
        //   a miss, b miss, a hit, c miss (80+40 > 100: purge b, 40 needed, 0 over),
        //   b miss (purge a: order a, c → a is least recent), d larger than the disk: a miss
        //   that purges nothing, a miss (purge c).
        let trace = "time,obj_id,size\n0,1,40\n1,2,40\n2,1,40\n3,3,40\n4,2,40\n5,4,200\n6,1,40\n"
        let result = try replay(trace, capacity: 100, ["lru"])[0]
        #expect(result.requests == 7)
        #expect(result.misses == 6)
        #expect(result.bytesRequested == 40 * 6 + 200)
        #expect(result.bytesMissed == 40 * 5 + 200)
        #expect(result.purges == 3)
        #expect(result.purgedBytes == 120)
        // Each purge needed 20 (40 + 80 − 100) and freed 40.
        #expect(result.overPurgeBytes == 60)
        #expect(ReplayReport.rows([result])[0][6] == "0.857143")
    }

    @Test("--warmup: the first N requests fill the cache and are not counted")
    func warmupLeavesTheFirstRequestsOut() throws {
        // The hand-worked trace above with a warm-up of 3 requests (a, b, a): the cache holds
        // a and b when counting starts. Then c miss (purge b: 20 needed, 40 freed), b miss
        // (purge a), d a miss that purges nothing, a miss (purge c).
        let trace = "time,obj_id,size\n0,1,40\n1,2,40\n2,1,40\n3,3,40\n4,2,40\n5,4,200\n6,1,40\n"
        let result = try withTrace(trace) { path in
            var replayer = TraceReplayer(path: path)
            replayer.warmupRequests = 3
            return try replayer.replay(capacity: 100, policies: [PolicyRegistry.descriptor(named: "lru")!])[0]
        }
        #expect(result.requests == 4 && result.misses == 4)
        #expect(result.bytesRequested == 40 * 3 + 200 && result.bytesMissed == 40 * 3 + 200)
        #expect(result.purges == 3 && result.purgedBytes == 120 && result.overPurgeBytes == 60)
        // Streamed from the file (no kept stream) the same.
        let streamed = try withTrace(trace) { path in
            var replayer = TraceReplayer(path: path)
            replayer.warmupRequests = 3
            replayer.streamBudget = 0
            return try replayer.replay(capacity: 100, policies: [PolicyRegistry.descriptor(named: "lru")!])[0]
        }
        #expect(streamed.requests == 4 && streamed.misses == 4 && streamed.purges == 3)
        // A warm-up as long as the trace leaves nothing to count: an error, not zeros.
        #expect(throws: TraceError.self) {
            try withTrace(trace) { path in
                var replayer = TraceReplayer(path: path)
                replayer.warmupRequests = 7
                return try replayer.replay(capacity: 100, policies: [PolicyRegistry.descriptor(named: "lru")!])
            }
        }
    }

    @Test func fitsExactlyFullAndCountsFirstRequestsAsMisses() throws {
        // Two objects of 50 fill 100 exactly: no purge, and the repeats hit.
        let result = try replay("time,obj_id,size\n0,1,50\n0,2,50\n1,1,50\n1,2,50\n", capacity: 100, ["fifo"])[0]
        #expect(result.misses == 2 && result.purges == 0)
    }

    @Test func keepsAppsApartAndRejectsAnObjectChangingApp() throws {
        let trace = "time,obj_id,size,app\n0,1,10,mail\n0,2,10,game\n1,1,10,mail\n"
        let result = try replay(trace, capacity: 100, ["android-quota"])[0]
        #expect(result.misses == 2 && result.requests == 3)
        do {
            _ = try replay("time,obj_id,size,app\n0,1,10,mail\n0,1,10,game\n", capacity: 100, ["lru"])
            Issue.record("an object changing app should fail")
        } catch {
            #expect(
                String(describing: error).hasSuffix(
                    "trace.csv:3: object 1 belongs to app 'mail' (its first line), not 'game'"))
        }
    }

    @Test func zeroByteObjectsAndTimesGoingBackDoNotStopTheReplay() throws {
        let result = try replay("time,obj_id,size\n5,1,0\n3,1,0\n4,2,10\n", capacity: 10, ["lru"])[0]
        #expect(result.requests == 3 && result.misses == 2 && result.bytesMissed == 10)
    }

    @Test func writesTheCSVWithSixDecimalRatios() {
        var r = ReplayResult(policy: "lru", capacityBytes: 100)
        r.requests = 3
        r.misses = 2
        r.bytesRequested = 30
        r.bytesMissed = 10
        let csv = ReplayReport.csv([r])
        #expect(
            csv == """
                policy,capacity_bytes,requests,misses,bytes_requested,bytes_missed,object_miss_ratio,byte_miss_ratio,pu\
                rges,purged_bytes,over_purge_bytes
                lru,100,3,2,30,10,0.666667,0.333333,0,0,0

                """)
        let table = ReplayReport.table([r]).split(separator: "\n")
        #expect(table.count == 2 && table[0].count == table[1].count)
    }

    @Test func keptAndReReadStreamsGiveTheSameResults() throws {
        // 400 requests over 40 objects, a new time every request; budgets: the whole stream
        // kept, none kept, and a budget that runs out after 75 requests (16 bytes each).
        var generator = SplitMix64(seed: 5)
        var text = "time,obj_id,size\n"
        for i in 0..<400 {
            let object = generator.below(40)
            text += "\(i),\(object),\(100 + object * 10)\n"
        }
        let names = ["lru", "belady", "gdsf", "sieve"]
        let policies = names.map { PolicyRegistry.descriptor(named: $0)! }
        let (kept, reread, partial) = try withTrace(text) { path in
            (
                try TraceReplayer(path: path).replay(capacity: 2000, policies: policies),
                try TraceReplayer(path: path, streamBudget: 0).replay(capacity: 2000, policies: policies),
                try TraceReplayer(path: path, streamBudget: 1200).replay(capacity: 2000, policies: policies)
            )
        }
        #expect(kept == reread)
        #expect(kept == partial)
        #expect(kept.map(\.requests) == [400, 400, 400, 400])
        // Belady never misses more than LRU.
        #expect(kept[1].misses <= kept[0].misses)
    }
}

/// Issue 27: a replay keeps times in its stream only for a policy that reads them.
@Suite("Times in a replay")
struct ReplayTimesTests {
    /// FIFO that notes the time of every space demand it answers (``PurgeView/time``).
    final class TimeNoting: PurgePolicy, @unchecked Sendable {
        let fifo = FIFOPolicy()
        let box: Box
        init(_ box: Box) { self.box = box }
        var name: String { "fifo-noting" }
        func packStored(_ pack: PurgeCandidate) { fifo.packStored(pack) }
        func packRemoved(_ pack: PurgeCandidate) { fifo.packRemoved(pack) }
        func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
            box.times.append(view.time)
            return fifo.selectVictims(toFree: bytes, from: view)
        }
    }

    final class Box: @unchecked Sendable { var times: [Double] = [] }

    /// `times.csv`: 6 requests at 100, 100, 250, 250, 900, 901 s, three 40-byte objects and a
    /// 60-byte disk, so the third distinct object (request 3) and each later miss purge.
    static let trace = "time,obj_id,size\n100,1,40\n100,2,40\n250,3,40\n250,1,40\n900,2,40\n901,3,40\n"

    func replay(readsTime: Bool, streamBudget: Int) throws -> (times: [Double], misses: Int64) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odr-sim-times-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("times.csv").path
        try Data(Self.trace.utf8).write(to: URL(fileURLWithPath: path))
        let box = Box()
        let descriptor = PolicyDescriptor(name: "fifo-noting", summary: "test", readsTime: readsTime) { _ in
            TimeNoting(box)
        }
        let result = try TraceReplayer(path: path, streamBudget: streamBudget).replay(
            capacity: 60, policies: [descriptor])[0]
        return (box.times, result.misses)
    }

    @Test("a policy that reads times sees the trace's; one that does not gets request ordinals, with the same counts")
    func ordinalsUnlessRead() throws {
        // Every request misses (FIFO, room for one object): purges before requests 2 … 6.
        let timed = try replay(readsTime: true, streamBudget: 1 << 20)
        #expect(timed.times == [100, 250, 250, 900, 901])
        #expect(timed.misses == 6)
        let ordinal = try replay(readsTime: false, streamBudget: 1 << 20)
        #expect(ordinal.times == [2, 3, 4, 5, 6])
        #expect(ordinal.misses == timed.misses)
    }

    @Test("without times the stream takes 4 bytes a request, so a budget too small for times still keeps it")
    func budgetWithoutTimes() throws {
        // 6 requests: 24 bytes of objects, plus 12 for each of the 4 distinct times (72 in
        // all). A 30-byte budget keeps the stream only without times; past the budget a run
        // reads the file again, and so sees the file's times.
        #expect(try replay(readsTime: false, streamBudget: 30).times == [2, 3, 4, 5, 6])
        #expect(try replay(readsTime: true, streamBudget: 30).times == [100, 250, 250, 900, 901])
        #expect(try replay(readsTime: false, streamBudget: 20).times == [100, 250, 250, 900, 901])
    }
}
