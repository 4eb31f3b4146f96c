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
        // ghost's 27. Packs 0 (A), 1 (B), 2 (C) fill the small queue.
        let rig = Rig(capacity: 30, sizes: [10, 10, 10, 10, 10, 10], policy: S3FIFOPolicy())
        rig.device.recordsEvents = true
        rig.access(0)
        rig.access(1)
        rig.access(2)
        #expect(rig.purgedIndices().isEmpty)
        // D: the main queue is empty, so the small one evicts its oldest, A (requested
        // once: not enough to move); A's id joins the ghost.
        rig.access(3)
        #expect(rig.purgedIndices() == [0])
        // A again: a ghost hit. B goes (to the ghost), and A is stored in the main queue.
        #expect(!rig.access(0))
        #expect(rig.purgedIndices() == [1])
        // C twice: its frequency reaches 2.
        #expect(rig.access(2) && rig.access(2))
        // E: the small queue's oldest, C, moves to the main queue (frequency 2); the next, D,
        // is evicted. LRU or FIFO would have taken A.
        rig.access(4)
        #expect(rig.purgedIndices() == [3])
        // F: E goes; the ghost (B, D, E: 30 bytes) drops its oldest, B, to keep 27.
        rig.access(5)
        #expect(rig.purgedIndices() == [4])
        // So B is a plain miss again: into the small queue, evicting F (the main queue, A and
        // C at 20 bytes, is within its 27); F's id pushes D's out of the ghost.
        #expect(!rig.access(1))
        #expect(rig.purgedIndices() == [5])
        // D is a plain miss too: B goes (its id pushes E's out).
        #expect(!rig.access(3))
        #expect(rig.purgedIndices() == [1])
        // E, a plain miss: D goes (the ghost now B, D, once F's id is pushed out).
        rig.access(4)
        #expect(rig.purgedIndices() == [3])
        // D again: a ghost hit. E goes from the small queue, and D joins the main queue, which
        // then holds A, C, D: 30 bytes, above its 27.
        #expect(!rig.access(3))
        #expect(rig.purgedIndices() == [4])
        // So F's arrival evicts from the main queue: its oldest, A, requested no more since it
        // arrived (frequency 0).
        rig.access(5)
        #expect(rig.purgedIndices() == [0])
    }
}
