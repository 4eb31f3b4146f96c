import ODRCore
import Testing

@testable import Simulation

@Suite("Purge and re-download accounting")
struct AccountingTests {
    @Test("other data growth purges a released pack; requesting it again re-downloads it")
    func overPurgeAndRedownload() {
        // Disk 1000 MB, other data 300 MB. big (512 MB) downloads in 512e6 / 37.5e6 = 13.65 s,
        // is granted, then released at 20 s. At 30 s photos grow by 250 MB:
        // free = 1000 − 300 − 512 = 188 MB, so 62 MB are needed; the only candidate is big
        // (512 MB): over-purge 512 − 62 = 450 MB.
        // At 35 s the photos go; at 40 s big is requested again: a 512 MB re-download.
        // Disk use peaks at 300 + 512 = 812 MB (while big is on the disk or being reserved).
        let s = makeScenario(tags: [("big", 512 * MB)], capacity: 1000 * MB, used: 300 * MB) { tag in
            [
                request(0, [tag("big")], key: 0), end(20, key: 0),
                ScenarioEvent(time: 30, action: .disk(250 * MB)), ScenarioEvent(time: 35, action: .disk(-250 * MB)),
                request(40, [tag("big")], key: 1),
            ]
        }
        let (sim, _) = run(s)
        let l = sim.device.ledger
        #expect(l.purges == 1)
        #expect(l.purgedBytes == 512 * MB)
        #expect(l.overPurgeBytes == 450 * MB)
        #expect(l.redownloadBytes == 512 * MB)
        #expect(l.downloadedBytes == 1024 * MB)
        #expect(l.lowDiskWarnings == 0)
        #expect(l.peakUsedBytes == 812 * MB)
    }

    @Test("a low-disk warning lets a release-all app free what a request needs")
    func lowDiskRelease() {
        // Disk 1000 MB, other 700 MB; x (150 MB) is held. y (200 MB) needs 50 MB more than
        // the 150 MB free, and nothing is purgeable: one warning; the app releases x; x is
        // purged (150 MB for 50 needed: 100 MB over-purge); y downloads.
        let s = makeScenario(
            tags: [("x", 150 * MB), ("y", 200 * MB)], capacity: 1000 * MB, used: 700 * MB,
            onLowDisk: .releaseAll
        ) { tag in
            [request(0, [tag("x")], key: 0), request(10, [tag("y")], key: 1)]
        }
        let (sim, log) = run(s)
        let l = sim.device.ledger
        #expect(l.lowDiskWarnings == 1)
        #expect(l.overPurgeBytes == 100 * MB)
        #expect(l.failedRequests == 0)
        #expect(log.grants["r1"] != nil)
    }

    @Test("an app that ignores the warning gets out-of-space, and nothing is purged")
    func lowDiskIgnored() {
        let s = makeScenario(
            tags: [("x", 150 * MB), ("y", 200 * MB)], capacity: 1000 * MB, used: 700 * MB,
            onLowDisk: .ignore
        ) { tag in
            [request(0, [tag("x")], key: 0), request(10, [tag("y")], key: 1)]
        }
        let (sim, log) = run(s)
        let l = sim.device.ledger
        #expect(l.lowDiskWarnings == 1)
        #expect(l.failures(.outOfSpace) == 1)
        #expect(l.purges == 0)
        #expect(log.grants["r1"] == nil)
    }
}
