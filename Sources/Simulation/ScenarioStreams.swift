import ODRCore

/// A scenario's events as the kernel reads them: its network phases, its scripted events and
/// its generators' streams, merged in run order (``StreamMerger``); and the requests they make,
/// known before the run (workloads depend only on the seed, never on the device's state).
public enum ScenarioStreams {
    /// The scripted events and the generator streams (each with its own key range above the
    /// scripted request keys), merged in run order.
    public static func merger(_ scenario: Scenario, seed: UInt64) -> StreamMerger {
        let keySpace = Scenario.generatorKeySpace
        let generated = scenario.generators.enumerated().map { i, generator in
            generator.makeStream(
                scenario: scenario, seed: seed,
                firstKey: scenario.requestLabels.count + i * keySpace, keySpace: keySpace)
        }
        return StreamMerger(network: networkEvents(scenario), scripted: scenario.events, generated: generated)
    }

    /// The scenario's network phases as link changes; before the first phase (or without
    /// any) the link is offline.
    static func networkEvents(_ scenario: Scenario) -> [ScenarioEvent] {
        var events = scenario.network.map {
            ScenarioEvent(time: $0.at, action: .network(bandwidth: $0.bandwidth, kind: $0.kind))
        }
        if (scenario.network.first?.at ?? 1) > 0 {
            events.insert(ScenarioEvent(time: 0, action: .network(bandwidth: 0, kind: .wifi)), at: 0)
        }
        return events
    }

    /// Every request a run with `seed` will make, in order, as the packs each includes: the
    /// future an offline policy such as Belady needs, numbered as the run's device numbers
    /// its packs (``PackNumbering``).
    public static func requests(of scenario: Scenario, seed: UInt64) -> [[PackID]] {
        let numbering = PackNumbering(scenario)
        let merged = merger(scenario, seed: seed)
        var result: [[PackID]] = []
        while let event = merged.next(), event.time <= scenario.duration {
            let tags: RequestTags
            let app: AppIndex
            switch event.action {
            case .request(let a, let t, _, _, _), .requestLatest(let a, let t, _, _, _),
                .requestIfPresent(let a, let t, _):
                (app, tags) = (a, t)
            default: continue
            }
            let catalog = scenario.apps[app].catalog
            var packs: [PackID] = []
            for tag in tags {
                for p in catalog.tag(tag).packs {
                    let id = numbering.pack(p, of: app)
                    if !packs.contains(id) { packs.append(id) }
                }
            }
            result.append(packs)
        }
        return result
    }
}
