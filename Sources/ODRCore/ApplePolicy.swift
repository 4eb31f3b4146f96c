/// The documented iOS behaviour, odr-sim's default purge policy (ODR-SPEC §4, §6).
///
/// Across apps, least recently used first: the app whose least recently used candidate is
/// oldest gives up a pack. Within that app, the pack with the lowest preservation priority
/// goes first, then the least recently used. Because the app is chosen by recency alone,
/// raising a preservation priority reorders only the app's own packs and never shifts the
/// cost to another app. (Running apps come last and held packs never: the device enforces both.)
public final class ApplePolicy: PurgePolicy {
    public let name = "apple"

    public init() {}

    public func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        // Per app: candidates by (preservation, recency), plus the app's oldest use.
        var byApp: [AppID: [PurgeCandidate]] = [:]
        for candidate in view.candidates { byApp[candidate.app, default: []].append(candidate) }
        var queues = byApp.mapValues { list in
            list.sorted { ($0.preservation, $0.lastUseTick) < ($1.preservation, $1.lastUseTick) }
        }
        var victims: [PackID] = []
        var freed: Int64 = 0
        while freed < bytes {
            // The app holding the least recently used remaining candidate.
            guard let app = queues.filter({ !$0.value.isEmpty })
                .min(by: { oldest($0.value) < oldest($1.value) })?.key else { break }
            let victim = queues[app]!.removeFirst()
            victims.append(victim.pack)
            freed += victim.size
        }
        return victims
    }

    private func oldest(_ list: [PurgeCandidate]) -> UInt64 {
        list.lazy.map(\.lastUseTick).min() ?? .max
    }
}
