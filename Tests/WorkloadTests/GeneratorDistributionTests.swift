import Foundation
import ODRCore
import Simulation
import Stochastic
import Testing

@testable import Workload

private let day = 86_400.0

/// `generator`'s events up to `until`, in a scenario whose workload is `generators` (those it
/// reads, such as the sessions of `within: sessions`).
private func events(
    _ generator: some WorkloadGenerator, seed: UInt64 = 7, until: Double,
    generators: [any WorkloadGenerator] = []
) -> [ScenarioEvent] {
    let scenario = Scenario(
        duration: until, device: DeviceSpec(capacity: 1, used: 0), apps: [], events: [], generators: generators)
    var stream = generator.makeStream(scenario: scenario, seed: seed, firstKey: 0, keySpace: 1 << 40)
    var result: [ScenarioEvent] = []
    while let event = stream.next(), event.time <= until { result.append(event) }
    return result
}

private func gaps(_ times: [Double]) -> [Double] { zip(times.dropFirst(), times).map { $0 - $1 } }

@Suite("Workload generators reproduce their distributions")
struct GeneratorDistributionTests {
    @Test("sessions: the launch rate is rate / (1 + rate × E[length]), as the README says (issue 18)")
    func sessionsLaunchRate() {
        // 24/d, lengths {median: 20 min, sigma: 0.8}: E[length] = 1200 s × e^0.32 = 1652.5 s,
        // launch rate 24 / (1 + 24 × 1652.5 / 86400) = 16.46 a day. Over 2000 days, 32,925
        // launches expected; a renewal count's standard error is below √n ≈ 181, so ±4 % is
        // more than 7 standard errors.
        let spec = SessionsGenerator(app: 0, rate: 24 / day, length: Lognormal(median: 1200, sigma: 0.8))
        let launches = events(spec, until: 2000 * day).filter {
            if case .launch = $0.action { return true }
            return false
        }.count
        let expected = 24.0 / (1 + 24 * 1200 * exp(0.32) / day) * 2000
        #expect(abs(Double(launches) - expected) < 0.04 * expected, "\(launches) launches, expected \(expected)")
    }

    @Test("sessions: lognormal lengths (logs normal with mu = ln median) and exponential idle gaps")
    func sessions() {
        let spec = SessionsGenerator(app: 0, rate: 6 / day, length: Lognormal(median: 1200, sigma: 0.8))
        let all = events(spec, until: 2000 * day)
        var launches: [Double] = []
        var lengths: [Double] = []
        var idle: [Double] = []
        var lastEnd = 0.0
        for event in all {
            switch event.action {
            case .launch:
                launches.append(event.time)
                idle.append(event.time - lastEnd)
            case .terminate:
                lengths.append(event.time - launches.last!)
                lastEnd = event.time
            default: Issue.record("unexpected \(event.action)")
            }
        }
        #expect(lengths.count > 5000)
        #expect(matchesNormal(lengths.map(log), mu: log(1200), sigma: 0.8))
        // Arrivals during a session are dropped; memorylessness makes the idle time Exp(rate).
        #expect(matchesExponential(idle, mean: day / 6))
        // Sessions never overlap: every launch comes after the previous termination.
        #expect(idle.allSatisfy { $0 >= 0 })
    }

    @Test("popularity: Zipf choices within 4 binomial standard errors per rank, lognormal holds")
    func popularity() {
        let tags = (0..<10).map { TagID(rawValue: Int32($0)) }
        let spec = PopularityGenerator(
            app: 0, tags: tags, rate: 100 / day, alpha: 0.9, hold: Lognormal(median: 300, sigma: 1))
        let all = events(spec, until: 400 * day)
        var counts = [Int](repeating: 0, count: 10)
        var begun: [RequestKey: Double] = [:]
        var holds: [Double] = []
        var arrivals: [Double] = []
        for event in all {
            switch event.action {
            case .request(_, let t, let key, _, _):
                counts[Int(t[0].rawValue)] += 1
                begun[key] = event.time
                arrivals.append(event.time)
            case .end(_, let key): holds.append(event.time - begun[key]!)
            default: Issue.record("unexpected \(event.action)")
            }
        }
        let n = Double(arrivals.count)
        let weights = (1...10).map { pow(Double($0), -0.9) }
        let total = weights.reduce(0, +)
        for k in 0..<10 {
            let p = weights[k] / total
            #expect(abs(Double(counts[k]) - n * p) <= 4 * (n * p * (1 - p)).squareRoot(), "rank \(k + 1)")
        }
        #expect(matchesExponential(gaps(arrivals), mean: day / 100))
        #expect(matchesNormal(holds.map(log), mu: log(300), sigma: 1))
    }

    @Test("disk pressure: lognormal growth sizes, Poisson growth, cleanups free a fraction of what was added")
    func disk() {
        let spec = DiskPressureGenerator(
            rate: 20 / day, size: Lognormal(median: 150e6, sigma: 1.2), cleanupRate: 1 / (7 * day), cleanupFraction: 0.6
        )
        let all = events(spec, until: 1000 * day)
        var growth: [Double] = []
        var growthTimes: [Double] = []
        var added: Int64 = 0
        for event in all {
            guard case .disk(let bytes) = event.action else {
                Issue.record("unexpected")
                continue
            }
            if bytes > 0 {
                growth.append(Double(bytes))
                growthTimes.append(event.time)
                added += bytes
            } else {
                // A cleanup removes 60 % (rounded) of what is outstanding.
                #expect(-bytes == Int64((Double(added) * 0.6).rounded()))
                added += bytes
            }
        }
        #expect(matchesNormal(growth.map(log), mu: log(150e6), sigma: 1.2))
        #expect(matchesExponential(gaps(growthTimes), mean: day / 20))
    }

    @Test("network: exponential spells, never two equal states in a row")
    func network() {
        let spec = NetworkSpellsGenerator(spells: [
            .init(bandwidth: 40e6, kind: .wifi, mean: 36_000), .init(bandwidth: 12e6, kind: .cellular, mean: 10_800),
            .init(bandwidth: 0, kind: .wifi, mean: 2_400),
        ])
        let all = events(spec, until: 3000 * day)
        var lengths: [Double: [Double]] = [:]
        for (a, b) in zip(all, all.dropFirst()) {
            guard case .network(let bw, _) = a.action, case .network(let next, _) = b.action else { continue }
            #expect(bw != next)
            lengths[bw, default: []].append(b.time - a.time)
        }
        #expect(matchesExponential(lengths[40e6]!, mean: 36_000))
        #expect(matchesExponential(lengths[12e6]!, mean: 10_800))
        #expect(matchesExponential(lengths[0]!, mean: 2_400))
    }

    @Test("levels: exponential level durations; each advance ends the finished level and requests the one after next")
    func levels() {
        let tags = (0..<3000).map { TagID(rawValue: Int32($0)) }
        let spec = LevelProgressionGenerator(app: 0, levels: tags, rate: 4 / day)
        let all = events(spec, until: 100_000 * day)
        let ends = all.filter { if case .end = $0.action { true } else { false } }.map(\.time)
        #expect(ends.count == 2999)
        #expect(matchesExponential(gaps([0] + ends), mean: day / 4))
        // At time 0: level 1 urgent, level 2 optional at low priority.
        guard case .request(_, let first, _, let p1, _) = all[0].action,
            case .request(_, let second, _, let p2, let optional) = all[1].action
        else {
            Issue.record("no start")
            return
        }
        #expect(first == [tags[0]] && p1.isUrgent)
        #expect(second == [tags[1]] && p2 == LoadingPriority(0.2)! && optional)
    }

    @Test("levels: prefetch_depth 0 requests each level urgently on arrival; depth 2 keeps two ahead")
    func prefetchDepth() {
        let tags = (0..<5).map { TagID(rawValue: Int32($0)) }
        func requests(_ depth: Int) -> [(time: Double, tag: Int32, key: RequestKey, urgent: Bool)] {
            events(
                LevelProgressionGenerator(app: 0, levels: tags, rate: 4 / day, prefetchDepth: depth), until: 1000 * day
            ).compactMap {
                if case .request(_, let t, let key, let priority, _) = $0.action {
                    return ($0.time, t[0].rawValue, key, priority.isUrgent)
                }
                return nil
            }
        }
        // Depth 0: five urgent requests, one per level, the first at 0 and each at an advance.
        let none = requests(0)
        #expect(none.map(\.tag) == [0, 1, 2, 3, 4] && none.allSatisfy(\.urgent) && none.map(\.key) == [0, 1, 2, 3, 4])
        #expect(none[0].time == 0 && none[1].time > 0)
        // Depth 2: levels 1 and 2 prefetched at 0 beside level 0; each advance asks for the
        // level two ahead (3 at the first, 4 at the second), and nothing past the last.
        let two = requests(2)
        #expect(two.map(\.tag) == [0, 1, 2, 3, 4])
        #expect(two.prefix(3).allSatisfy { $0.time == 0 } && two[3].time > 0 && two[4].time > two[3].time)
        #expect(two.map(\.urgent) == [true, false, false, false, false])
        // The default, depth 1, is the generator as it always was: level 1 beside level 0.
        let one = requests(1)
        #expect(one.map(\.tag) == [0, 1, 2, 3, 4] && one[1].time == 0 && one[2].time > 0)
    }

    @Test("popularity within sessions: every request while a session runs, at the rate per hour of use")
    func withinSessions() {
        let sessions = SessionsGenerator(app: 0, rate: 6 / day, length: Lognormal(median: 1800, sigma: 0.7))
        var popularity = PopularityGenerator(
            app: 0, tags: [TagID(rawValue: 0), TagID(rawValue: 1)], rate: 24 / day,
            alpha: 1, hold: Lognormal(median: 60, sigma: 0.5))
        popularity.withinSessions = true
        let until = 2000 * day
        func all(_ generator: some WorkloadGenerator) -> [ScenarioEvent] {
            events(generator, until: until, generators: [sessions, popularity])
        }
        // The sessions as the run sees them: launch, terminate, launch, …
        let marks = all(sessions)
        var windows: [(Double, Double)] = []
        for event in marks {
            if case .launch = event.action { windows.append((event.time, .infinity)) }
            if case .terminate = event.action { windows[windows.count - 1].1 = event.time }
        }
        let requests = all(popularity).compactMap { if case .request = $0.action { $0.time } else { nil } }
        let inside = requests.filter { t in windows.contains { $0.0 <= t && t < $0.1 } }
        #expect(!requests.isEmpty && inside.count == requests.count)
        // Per hour of use: 24/d over the summed session time, a Poisson count (±4 σ).
        let used = windows.reduce(0.0) { $0 + min($1.1, until) - $1.0 }
        let expected = 24 / day * used
        #expect(
            abs(Double(requests.count) - expected) <= 4 * expected.squareRoot(),
            """
            \(requests.count) against \
            \(expected)
            """
        )
    }

    @Test(
        """
        levels within sessions: the same level durations, counted in play time; each session holds the current level \
        and the next, then lets go
        """
    )
    func levelsWithinSessions() {
        let sessions = SessionsGenerator(app: 0, rate: 4 / day, length: Lognormal(median: 3600, sigma: 0.6))
        // Enough levels that the last is never reached in 100 days (about 200 of play).
        let tags = (0..<2000).map { TagID(rawValue: Int32($0)) }
        var levels = LevelProgressionGenerator(app: 0, levels: tags, rate: 1 / 7200)  // two hours of play a level
        levels.withinSessions = 4 / day
        let until = 100 * day
        func all(_ generator: some WorkloadGenerator) -> [ScenarioEvent] {
            events(generator, until: until, generators: [sessions, levels])
        }
        var windows: [(start: Double, end: Double)] = []
        for event in all(sessions) {
            if case .launch = event.action { windows.append((event.time, .infinity)) }
            if case .terminate = event.action { windows[windows.count - 1].end = event.time }
        }
        let played = all(levels)
        let settle = LevelProgressionGenerator.sessionSettle
        // Every event strictly inside a session, a millisecond from its edges.
        #expect(
            played.allSatisfy { e in windows.contains { $0.start + settle <= e.time && e.time <= $0.end - settle } })
        // By hand: the level durations are the generator's own draws (the stream of purpose
        // "levels/0/durations"), laid on the clock of play. Play time at wall time t is the sum
        // of (min(t, end) − start − settle) over the sessions begun, less the settle at each end.
        let draws = RandomStream(seed: 7, purpose: "levels/0/durations")
        func playTime(at t: Double) -> Double {
            windows.reduce(0.0) { sum, w in
                let (open, close) = (w.start + settle, w.end - settle)
                return open < close && t > open ? sum + min(t, close) - open : sum
            }
        }
        var advances: [Double] = []
        var level = 0
        // An advance ends the finished level and asks for the one after the new current.
        for (i, event) in played.enumerated() {
            guard case .request(_, let t, _, let priority, _) = event.action, !priority.isUrgent,
                i > 0, played[i - 1].time == event.time, case .end = played[i - 1].action
            else { continue }
            #expect(t == [tags[level + 2]], "the advance to level \(level + 1) prefetches level \(level + 2)")
            advances.append(event.time)
            level += 1
        }
        #expect(advances.count >= 10, "\(advances.count) advances")
        var expected = 0.0
        for (k, wall) in advances.enumerated() {
            expected += draws.exponential(mean: 7200)
            #expect(abs(playTime(at: wall) - expected) < 1e-6 * max(1, expected), "advance \(k + 1)")
        }
        // Each session that plays begins with the current level, urgent, and the next, optional,
        // and lets go of everything it holds at its end.
        var live = Set<RequestKey>()
        for event in played {
            switch event.action {
            case .request(_, _, let key, _, _): live.insert(key)
            case .end(_, let key): #expect(live.remove(key) != nil)
            default: break
            }
        }
        let firstSession = windows.first { $0.start + settle < $0.end - settle }!
        let opening = played.filter { $0.time == firstSession.start + settle }
        guard opening.count == 2, case .request(_, let a, _, let p, _) = opening[0].action,
            case .request(_, let b, _, _, let optional) = opening[1].action
        else {
            Issue.record("no opening")
            return
        }
        #expect(a == [tags[0]] && p.isUrgent && b == [tags[1]] && optional)
        // Nothing is held between sessions: every request ended by its session's end.
        #expect(live.count <= 2, "held at the end: \(live.count)")
    }

    @Test("a daily cycle of amplitude 1 peaking at noon puts 1/2 + 1/π ≈ 81.8 % of arrivals between 6 h and 18 h")
    func dailyCycle() {
        let spec = SessionsGenerator(
            app: 0, rate: 200 / day, length: Lognormal(median: 1e-3, sigma: 0),
            cycle: DailyCycle(amplitude: 1, peak: 12 * 3600))
        let launches = events(spec, until: 200 * day).filter { if case .launch = $0.action { true } else { false } }
            .map(\.time)
        let n = Double(launches.count)
        let inDay = Double(
            launches.filter {
                let h = $0.truncatingRemainder(dividingBy: day)
                return h >= 6 * 3600 && h < 18 * 3600
            }.count)
        // ∫(1 + cos θ) over the half period around the peak, over 2π: (π + 2) / 2π.
        let p = 0.5 + 1 / Double.pi
        #expect(abs(inDay - n * p) <= 4 * (n * p * (1 - p)).squareRoot())
    }

    @Test("the same seed gives the same workload; another seed another")
    func seeds() {
        let spec = PopularityGenerator(
            app: 0, tags: [TagID(rawValue: 0), TagID(rawValue: 1)], rate: 10 / day, alpha: 1,
            hold: Lognormal(median: 60, sigma: 1))
        #expect(events(spec, seed: 1, until: 30 * day) == events(spec, seed: 1, until: 30 * day))
        #expect(events(spec, seed: 1, until: 30 * day) != events(spec, seed: 2, until: 30 * day))
    }

    @Test("generated catalogs: lognormal tag sizes from the scenario seed")
    func catalogs() {
        let resources = CatalogGenerator.resources(
            count: 4000, size: Lognormal(median: 64e6, sigma: 0.5), prefix: "item-", seed: 3, app: "a")
        #expect(resources.count == 4000 && resources[0].tags == ["item-1"])
        #expect(matchesNormal(resources.map { log(Double($0.size)) }, mu: log(64e6), sigma: 0.5))
        #expect(
            resources
                == CatalogGenerator.resources(
                    count: 4000, size: Lognormal(median: 64e6, sigma: 0.5), prefix: "item-", seed: 3, app: "a"))
    }
}
