import ODRCore
import Testing

@testable import ODRPolicies

/// Issue 41: S3-FIFO as libCacheSim's `S3FIFO.c` runs it.
@Suite("S3-FIFO")
struct S3FIFOPolicyTests {
    @Test(
        """
        a worked example: ghost hits go to the main queue, twice-requested small ones move there, the ghost keeps \
        90 %
        """
    )
    func workedExample() {
        // Room for three packs of 10: the small queue's share is 3 bytes, the main's 27, the
        // ghost's 27. (Events are recorded, so each access is a request: every pack is kept,
        // as in a scenario; admission is a trace replay's, S3FIFOAgreementTests.)
        let rig = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10, 10], policy: S3FIFOPolicy())
        rig.device.recordsEvents = true
        // A joins the small queue; before the first eviction, once the small queue is full
        // (10 bytes against its 3), B and C join the main queue (libCacheSim's warm-up).
        rig.access(0)
        rig.access(1)
        rig.access(2)
        #expect(rig.purgedIndices().isEmpty)
        // D: the main queue (20 bytes) is within its 27, so the small one evicts its oldest,
        // A (requested once: not enough to move); A's id joins the ghost. D joins the small queue.
        rig.access(3)
        #expect(rig.purgedIndices() == [0])
        // A again: a ghost hit. The small queue evicts D (to the ghost), and A is stored in the
        // main queue, which then holds B, C, A: 30 bytes, above its 27.
        #expect(!rig.access(0))
        #expect(rig.purgedIndices() == [3])
        // C twice: its frequency reaches 2.
        #expect(rig.access(2) && rig.access(2))
        // E: the main queue is over its share, so it evicts: its oldest, B, was requested no
        // more since it arrived (frequency 0).
        rig.access(4)
        #expect(rig.purgedIndices() == [1])
        // F: the main queue (C, A: 20) is within its share; E goes from the small queue to the
        // ghost (D, E: 20 bytes).
        rig.access(5)
        #expect(rig.purgedIndices() == [4])
        // B, a plain miss (evicted from the main queue, it left no id): F goes (the ghost D, E,
        // F: 30 bytes drops its oldest, D, to keep 27).
        #expect(!rig.access(1))
        #expect(rig.purgedIndices() == [5])
        // D is a plain miss too: B goes (its id pushes E's out).
        #expect(!rig.access(3))
        #expect(rig.purgedIndices() == [1])
        // E, a plain miss: D goes (the ghost now B, D, once F's id is pushed out).
        rig.access(4)
        #expect(rig.purgedIndices() == [3])
        // D again: a ghost hit. E goes from the small queue, and D joins the main queue, which
        // then holds C, A, D: 30 bytes, above its 27.
        #expect(!rig.access(3))
        #expect(rig.purgedIndices() == [4])
        // So F's arrival evicts from the main queue: its oldest, C (frequency 2), goes to the
        // back with frequency 1; the next, A, requested no more since it arrived, is evicted.
        rig.access(5)
        #expect(rig.purgedIndices() == [0])
    }
}
