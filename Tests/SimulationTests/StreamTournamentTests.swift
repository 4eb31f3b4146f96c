import PropertyBased
import Testing

@testable import Simulation

/// The stream merger's tournament must hand out streams exactly in (time, ranked streams
/// first, scheduling order), the order that makes runs reproducible; it is checked against a list
/// searched by brute force.
@Suite("Stream tournament")
struct StreamTournamentTests {
    @Test("Agrees with a brute-force minimum as winners get new times and streams finish")
    func agreesWithBruteForce() async {
        // 1 to 9 streams (odd counts give leaves at two depths), some finished from the start;
        // times from a small set, so that ties (broken by scheduling order) are common.
        let start = Gen.int(in: -1...3).array(of: 1...9)
        let op = zip(Gen.int(in: 0...3), Gen.int(in: 0...4))
        await propertyCheck(count: 300, input: zip(start, op.array(of: 0...200))) { first, ops in
            // 0, 1 or 2 ranked streams (the merger has 2: network phases, scripted events).
            let ranked = first.count % 3
            let tournament = StreamTournament(times: first.map { $0 < 0 ? nil : Double($0) }, ranked: ranked)
            // Live streams: (time, sequence); nil once finished.
            var model: [(time: Double, sequence: Int)?] = first.enumerated().map { s, t in t < 0 ? nil : (Double(t), s)
            }
            var sequence = first.count
            func expected() -> Int? {
                let live = model.indices.filter { model[$0] != nil }
                return live.min { (model[$0]!.time, model[$0]!.sequence) < (model[$1]!.time, model[$1]!.sequence) }
            }
            for (i, (kind, dt)) in ops.enumerated() {
                let want = expected()
                guard tournament.winner == want else {
                    Issue.record(
                        """
                        before op \(i): winner \(String(describing: tournament.winner)), expected \
                        \(String(describing: want))
                        """
                    )
                    return
                }
                guard let top = want, let time = model[top]?.time else { break }
                if kind == 0 {
                    tournament.finishTop()
                    model[top] = nil
                } else {
                    // A stream's next event is never earlier than the one just taken.
                    tournament.replaceTop(at: time + Double(dt))
                    // A ranked stream keeps its index as its sequence: it wins every tie.
                    model[top] = (time + Double(dt), top < ranked ? top : sequence)
                    sequence += 1
                }
            }
        }
    }

    @Test("Equal times: stream 0 first, always; the others in scheduling order (start order, then replacement order)")
    func tiesFollowSchedulingOrder() {
        let tournament = StreamTournament(times: [5, 5, nil, 5, 5])
        var order: [Int] = []
        // Each winner is rescheduled at the same time 5 once: streams 1, 3 and 4 go behind the
        // others; stream 0 (the scripted events) stays in front.
        var rescheduled: Set<Int> = []
        while let stream = tournament.winner {
            order.append(stream)
            if rescheduled.insert(stream).inserted { tournament.replaceTop(at: 5) } else { tournament.finishTop() }
        }
        #expect(order == [0, 0, 1, 3, 4, 1, 3, 4])
    }

    @Test("Two ranked streams (network phases, scripted events): both ahead of the rest at equal times, in index order")
    func rankedStreamsWinTies() {
        let tournament = StreamTournament(times: [5, 5, 5, 5], ranked: 2)
        var order: [Int] = []
        var rescheduled: Set<Int> = []
        while let stream = tournament.winner {
            order.append(stream)
            if rescheduled.insert(stream).inserted { tournament.replaceTop(at: 5) } else { tournament.finishTop() }
        }
        #expect(order == [0, 0, 1, 1, 2, 3, 2, 3])
    }

    @Test("Orders negative times, both zeros (equal) and infinity as numbers do")
    func ordersTimesAsNumbers() {
        // A live stream at infinity still comes before a finished one (nil).
        let tournament = StreamTournament(times: [3, -2, 0, -0.0, 1e300, .infinity, nil])
        var order: [Int] = []
        while let stream = tournament.winner {
            order.append(stream)
            tournament.finishTop()
        }
        #expect(order == [1, 2, 3, 0, 4, 5])
    }
}
