import Simulation

/// When an app runs in one run: the sessions its `sessions` generator makes, as time windows,
/// for a generator whose requests happen only while the app runs (`within: sessions`).
///
/// The windows are drawn from the same seed and stream purposes as the sessions generator's
/// own stream, so they are exactly the launches and terminations the run will see.
struct SessionWindows {
    /// Session starts and ends, in order; sessions never overlap.
    private(set) var starts: [Double] = []
    private(set) var ends: [Double] = []

    init(_ sessions: SessionsGenerator, scenario: Scenario, seed: UInt64) {
        var stream = sessions.makeStream(scenario: scenario, seed: seed, firstKey: 0, keySpace: 0)
        while let event = stream.next(), event.time <= scenario.duration {
            switch event.action {
            case .launch: starts.append(event.time)
            case .terminate: ends.append(event.time)
            default: break
            }
        }
        // A session still running at the end lasts to the end.
        if ends.count < starts.count { ends.append(.infinity) }
    }

    /// The first moment at or after `time` inside a session (`time` itself when a session
    /// runs then), or infinity when none is left.
    func firstOpen(atOrAfter time: Double) -> Double {
        // The first session whose end is after `time`.
        var low = 0
        var high = ends.count
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] <= time { low = mid + 1 } else { high = mid }
        }
        guard low < starts.count else { return .infinity }
        return max(time, starts[low])
    }
}
