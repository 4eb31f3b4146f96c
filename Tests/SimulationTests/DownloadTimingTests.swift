import ODRCore
import Testing

@testable import Simulation

/// Completion times on a 300 Mbps link (37.5 MB/s), worked out by hand.
@Suite("Download timing")
struct DownloadTimingTests {
    let tolerance = 1e-9

    @Test("a 64 MB pack alone finishes 64e6·8 / 300e6 = 1.70667 s after it starts")
    func alone() {
        let s = makeScenario(tags: [("a", 64 * MB)]) { tag in [request(0, [tag("a")], key: 0)] }
        let (_, log) = run(s)
        #expect(abs(log.grants["r0"]! - 64e6 * 8 / 300e6) < tolerance)
    }

    @Test("two 64 MB packs at equal priority share the link and both finish at 3.41333 s")
    func shared() {
        let s = makeScenario(tags: [("a", 64 * MB), ("b", 64 * MB)]) { tag in
            [request(0, [tag("a")], key: 0), request(0, [tag("b")], key: 1)]
        }
        let (_, log) = run(s)
        // Each gets 150 Mbps = 18.75 MB/s: 64 / 18.75 = 3.41333 s.
        #expect(abs(log.grants["r0"]! - 2 * 64e6 * 8 / 300e6) < tolerance)
        #expect(abs(log.grants["r1"]! - 2 * 64e6 * 8 / 300e6) < tolerance)
    }

    @Test("an urgent download suspends the other until it finishes")
    func urgentSuspends() {
        let s = makeScenario(tags: [("a", 64 * MB), ("b", 64 * MB)]) { tag in
            [request(0, [tag("a")], key: 0), request(1, [tag("b")], key: 1, priority: .urgent)]
        }
        let (_, log) = run(s)
        // a alone for 1 s: 37.5 MB. b urgent takes the link: done at 1 + 1.70667 = 2.70667 s.
        // a resumes with 26.5 MB left: 26.5 / 37.5 = 0.70667 s, done at 3.41333 s.
        #expect(abs(log.grants["r1"]! - (1 + 64e6 / 37.5e6)) < 1e-6)
        #expect(abs(log.grants["r0"]! - (2.706666666666667 + 26.5e6 / 37.5e6)) < 1e-6)
    }

    @Test("offline stalls a download, which continues from its bytes when the link returns")
    func offlineStall() {
        let network = [
            NetworkPhase(at: 0, bandwidth: 300e6), NetworkPhase(at: 1, bandwidth: 0),
            NetworkPhase(at: 5, bandwidth: 300e6),
        ]
        let s = makeScenario(tags: [("a", 64 * MB)], network: network) { tag in [request(0, [tag("a")], key: 0)] }
        let (_, log) = run(s)
        // 37.5 MB by 1 s; nothing from 1 s to 5 s; 26.5 MB more takes 0.70667 s: done at 5.70667 s.
        #expect(abs(log.grants["r0"]! - (5 + 26.5e6 / 37.5e6)) < 1e-6)
        let stalls = log.events.filter { if case .downloadStalled = $0.kind { true } else { false } }
        #expect(stalls.count == 1 && stalls[0].time == 1)
    }

    @Test("shares follow loading priority within an app: 0.75 gets three times 0.25's rate")
    func proportional() {
        let s = makeScenario(tags: [("a", 64 * MB), ("b", 64 * MB)]) { tag in
            [
                request(0, [tag("a")], key: 0, priority: LoadingPriority(0.25)!),
                request(0, [tag("b")], key: 1, priority: LoadingPriority(0.75)!),
            ]
        }
        let (_, log) = run(s)
        // b at 28.125 MB/s finishes at 64 / 28.125 = 2.27556 s; the link is work-conserving,
        // so a (128 MB in all at 37.5 MB/s) finishes at 3.41333 s.
        #expect(abs(log.grants["r1"]! - 64e6 / 28.125e6) < 1e-6)
        #expect(abs(log.grants["r0"]! - 128e6 / 37.5e6) < 1e-6)
    }

    @Test("a priority change mid-download re-plans the shares at once")
    func priorityChange() {
        let s = makeScenario(tags: [("a", 64 * MB), ("b", 64 * MB)]) { tag in
            [
                request(0, [tag("a")], key: 0), request(0, [tag("b")], key: 1),
                ScenarioEvent(time: 1, action: .setPriority(0, key: 1, .urgent)),
            ]
        }
        let (_, log) = run(s)
        // Both at 18.75 MB/s for 1 s: 18.75 MB each. b urgent: 45.25 MB at 37.5 MB/s = 1.20667 s
        // → 2.20667 s. Then a: 45.25 MB more, 1.20667 s → 3.41333 s.
        #expect(abs(log.grants["r1"]! - (1 + 45.25e6 / 37.5e6)) < 1e-6)
        #expect(abs(log.grants["r0"]! - 128e6 / 37.5e6) < 1e-6)
    }
}
