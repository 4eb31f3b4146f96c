import Advice
import Foundation
import ODRCore
import ODRPolicies
import ScenarioFile
import Simulation
import Testing

/// Issue 26: `odr-sim advise` on cases whose best layout is known by hand.
@Suite("The layout advisor")
struct AdvisorTests {
    // The unit's own symbol, as the spec writes sizes (1 MB).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let MB: Int64 = 1_000_000

    func advise(
        _ text: String, app: String = "game", policy: String = "lru", replications: Int = 3,
        weights: Advisor.Weights = Advisor.Weights(), jobs: Int = 1, population: [[PathValue]] = [],
        maxEvaluations: Int = 60
    ) throws -> (Advisor.Result, [Resource]) {
        let parser = ScenarioParser(knownPolicies: PolicyRegistry.names)
        let document = try parser.parse(text, fileName: "a.scn")
        let index = document.scenario.apps.firstIndex { $0.id == app }!
        var advisor = Advisor(
            scenario: document.scenario, resources: document.resources[index], app: index,
            policy: try PolicyRegistry.resolve(policy), policyOptions: document.policyOptions,
            replications: replications, weights: weights)
        advisor.jobs = jobs
        // Each device read as the command line reads it: the scenario with its settings.
        advisor.population = try population.map { settings in
            let device = try parser.parse(
                try ScenarioRewrite(text: text, fileName: "a.scn").setting(settings), fileName: "a.scn")
            return Advisor.Device(label: PathValue.label(of: settings), scenario: device.scenario)
        }
        advisor.maxEvaluations = maxEvaluations
        return (try advisor.run(), document.resources[index])
    }

    @Test(
        """
        fresh seeds (issue 40): each finalist's objectives there are a search's own on a scenario seeded after the \
        search's seeds
        """
    )
    func freshSeeds() throws {
        let text = try String(contentsOfFile: CLIRoot.path("Scenarios/game.scn"), encoding: .utf8)
        let parser = ScenarioParser(knownPolicies: PolicyRegistry.names)
        let document = try parser.parse(text, fileName: "game.scn")
        let index = document.scenario.apps.firstIndex { $0.id == "odyssey" }!
        func advisor(seed: UInt64, replications: Int) -> Advisor {
            var scenario = document.scenario
            scenario.seed = seed
            var advisor = Advisor(
                scenario: scenario, resources: document.resources[index], app: index,
                policy: try! PolicyRegistry.resolve("apple"),
                policyOptions: document.policyOptions, replications: replications)
            advisor.maxEvaluations = 12
            return advisor
        }
        let searching = advisor(seed: document.scenario.seed, replications: 3)
        let result = try searching.run()
        let confirmation = try searching.confirm(result, replications: 4, finalists: 3)
        #expect(confirmation.firstSeed == document.scenario.seed + 3 && confirmation.ids.count == 3)
        #expect(
            confirmation.ids[confirmation.advised] == result.best
                && confirmation.objectives.allSatisfy { $0.count == 4 })
        // The layout as written, searched from seed + 3 with 4 replications: its first
        // evaluation runs exactly those seeds, so its objectives are the confirmation's.
        let fresh = try advisor(seed: document.scenario.seed + 3, replications: 4).run()
        #expect(fresh.evaluations[fresh.original].objectives == confirmation.objectives[confirmation.original])
        // The advantage is the paired difference of the two rows.
        let differences = zip(
            confirmation.objectives[confirmation.advised], confirmation.objectives[confirmation.original]
        ).map { $0 - $1 }
        #expect(abs(confirmation.advantage.mean - differences.reduce(0, +) / 4) < 1e-6)
        #expect(confirmation.subset.contains(confirmation.freshBest))
    }

    /// game.scn's odyssey under apple: 3 replications, at most 8 layouts (a quick search whose
    /// finalists the fresh-seed tests check).
    static func gameAdvisor() throws -> Advisor {
        let text = try String(contentsOfFile: CLIRoot.path("Scenarios/game.scn"), encoding: .utf8)
        let document = try ScenarioParser(knownPolicies: PolicyRegistry.names).parse(text, fileName: "game.scn")
        let index = document.scenario.apps.firstIndex { $0.id == "odyssey" }!
        var advisor = Advisor(
            scenario: document.scenario, resources: document.resources[index], app: index,
            policy: try PolicyRegistry.resolve("apple"),
            policyOptions: document.policyOptions, replications: 3)
        advisor.maxEvaluations = 8
        return advisor
    }

    @Test(
        """
        advise --indifference (issue 40): KN over the finalists on fresh seeds; its observations are the fixed-count \
        confirmation's, and a zone wider than every gap ends at its first stage, 10 means of 5 seeds, with the \
        lowest mean
        """
    )
    func freshSelection() throws {
        let advisor = try Self.gameAdvisor()
        let result = try advisor.run()
        // KN runs a batch of 5 seeds at a time (issue 51: batch means); a fixed count runs the
        // same seeds at once: the first 50 per-seed objectives of each finalist are the same.
        let fixed = try advisor.confirm(result, replications: 50, finalists: 3)
        let wide = try advisor.select(result, indifference: 1e15, maximum: 100, finalists: 3)
        let selection = try #require(wide.selection)
        #expect(wide.ids == fixed.ids && wide.firstSeed == fixed.firstSeed)
        for k in wide.ids.indices { #expect(Array(wide.objectives[k].prefix(50)) == fixed.objectives[k]) }
        // δ = 10^15 bytes: Wᵢₗ(10) = max(0, δ/20 · (h²S²ᵢₗ/δ² − 10)) = 0 for these variances,
        // so every finalist whose mean over the 10 batches is above another's goes at once; the
        // one left is the lowest mean (the fixed confirmation's freshBest), after 50 seeds.
        #expect(selection.replications == 50 && selection.batch == 5)
        let means = fixed.objectives.map { $0.reduce(0, +) / 50 }
        if Set(means).count == means.count {
            #expect(selection.best == String(fixed.freshBest))
            #expect(selection.eliminated.count == wide.ids.count - 1)
        }
        #expect(wide.sentence(result) { "\(Int($0))" }.contains("; KN: "))
    }

    @Test(
        """
        advise --precision (issue 40): fresh seeds doubled until the advantage's half-width is within the target, \
        and not one doubling more
        """
    )
    func freshPrecision() throws {
        let advisor = try Self.gameAdvisor()
        let result = try advisor.run()
        let target = 60e6
        let (confirmation, reached) = try advisor.confirm(
            result, replications: 5, precision: .bytes(target), maximum: 160)
        let (n, halfWidth) = (confirmation.replications, confirmation.advantage.halfWidth)
        #expect(reached == true && halfWidth <= target, "\(n): ±\(halfWidth)")
        // 5, then at least 10 (issue 51: never judged on fewer), 20, …: the count is one of them,
        // and the one before did not reach it (too few seeds, or too wide). The fresh seeds of a
        // shorter confirmation are the first of a longer one's.
        #expect([10, 20, 40, 80, 160].contains(n))
        if n > 5 {
            let before = try advisor.confirm(result, replications: n / 2)
            #expect(n / 2 < 10 || before.advantage.halfWidth > target)
            #expect(Array(confirmation.objectives[0].prefix(n / 2)) == before.objectives[0])
        }
        #expect(
            Advisor.FreshPrecision.parse("5%") == .relative(0.05)
                && Advisor.FreshPrecision.parse("0%") == nil)
    }

    @Test(
        """
        every layout of n resources: Σ S(n, k) · 2^k (Stirling numbers of the second kind; each pack promoted or \
        not), each once
        """
    )
    func allLayouts() {
        // n = 3: S = 1, 3, 1 → 2 + 12 + 8 = 22; n = 4: 1, 7, 6, 1 → 2 + 28 + 48 + 16 = 94;
        // n = 5: 1, 15, 25, 10, 1 → 2 + 60 + 200 + 160 + 32 = 454.
        for (n, count) in [(1, 2), (3, 22), (4, 94), (5, 454)] {
            let layouts = Layout.all(of: n)
            #expect(layouts.count == count && Set(layouts).count == count, "n = \(n)")
            #expect(layouts.allSatisfy { $0.groups.flatMap { $0 }.sorted() == Array(0..<n) })
        }
    }

    @Test(
        """
        advise --exhaustive on four resources (issue 40): 94 layouts, and the sequential search's pick is within the \
        noise of the best
        """
    )
    func exhaustiveContainsSearch() throws {
        // together's three resources and a fourth, w (30 MB), requested with c now and then;
        // x and y always together.
        let requests = (1...12).map {
            "  - {at: \($0)h, app: game, request: [a, b], id: r\($0)}\n  - {at: \($0)h30m, app: game, end: r\($0)}\n"
        }
        let text =
            Self.together
            .replacingOccurrences(
                of: "{name: z, size: 10MB, tags: [c]}]",
                with: "{name: z, size: 10MB, tags: [c]}, {name: w, size: 30MB, tags: [d]}]"
            )
            .replacingOccurrences(
                of: "  - {at: 0, app: game, launch: true}\n",
                with: "  - {at: 0, app: game, launch: true}\n" + requests.joined()
            )
            .replacingOccurrences(of: "tags: [c], rate: 2/d", with: "tags: [c, d], rate: 4/d")
                + """
                \n  - {kind: disk, rate: 3/d, size: {median: 9.9GB, sigma: 0.01}, cleanup_rate: 3/d, cleanup_fraction: \
                1}\n
                """
        let parser = ScenarioParser(knownPolicies: PolicyRegistry.names)
        let document = try parser.parse(text, fileName: "a.scn")
        var advisor = Advisor(
            scenario: document.scenario, resources: document.resources[0], app: 0,
            policy: try PolicyRegistry.resolve("lru"),
            replications: 3)
        let searched = try advisor.searchedPick()
        #expect(advisor.exhaustiveRefusal(sharded: false) == nil && advisor.exhaustiveRefusal(sharded: true) != nil)
        advisor.exhaustive = true
        let all = try advisor.run()
        #expect(all.evaluations.count == 94)
        let best = all.evaluations[all.best]
        #expect(all.evaluations.allSatisfy { $0.rejected != nil || $0.mean >= best.mean })
        let pick = try #require(all.evaluations.first { $0.layout == searched })
        #expect(
            all.subset.contains(pick.id),
            "\(searched.describe(document.resources[0])) at \(pick.mean) against \(best.mean)")
        #expect(all.subset.first == all.best)
        // Like with like (issue 51): a pick that also set the app's budget is compared on its
        // packs alone, and the sentence says so, rather than "the search missed the best".
        var budgeted = searched
        budgeted.budget = 600_000_000
        let sentence = all.exhaustiveSentence(searched: budgeted, resources: document.resources[0]) { "\(Int($0))" }
        #expect(sentence.contains("is among them"), "\(sentence)")
        #expect(
            sentence.hasSuffix(
                "(compared on its packs alone: the search also set budget 600000000, which "
                    + "--exhaustive does not vary)"), "\(sentence)")
    }

    /// A device of a population with `device.used` set to `size`.
    func used(_ size: String) -> [PathValue] { [PathValue(path: "device.used", value: size)] }

    /// The group (resource names) of resource `name` in a layout.
    func group(of name: String, _ layout: Layout, _ resources: [Resource]) -> Set<String> {
        let r = resources.firstIndex { $0.name == name }!
        return Set(layout.groups.first { $0.contains(r) }!.map { resources[$0].name })
    }

    @Test("a layout keeps every resource's tags and gives a group one tag set; twin tag sets get a pack tag each")
    func layoutTags() {
        let resources = [
            Resource(name: "a1", size: 1, tags: ["a"]), Resource(name: "a2", size: 1, tags: ["a"]),
            Resource(name: "b", size: 1, tags: ["b"]),
        ]
        // a1 and b merged: both carry a and b; a2 alone: a. Distinct sets, no pack tag.
        let merged = Layout(groups: [[0, 2], [1]]).resources(from: resources)
        #expect(merged.resources.map(\.tags) == [["a", "b"], ["a"], ["b", "a"]])
        #expect(merged.newTags.isEmpty)
        // a1 and a2 apart: the same set twice, so each gets its own pack tag (on-demand).
        let split = Layout(groups: [[0], [1], [2]]).resources(from: resources)
        #expect(split.resources.map(\.tags) == [["a", "pack-1"], ["a", "pack-2"], ["b"]])
        #expect(split.newTags.map(\.category) == [.onDemand, .onDemand])
        // Promotion adds a prefetch pack tag.
        let promoted = Layout(groups: [[0, 1], [2]]).promoting(1).resources(from: resources)
        #expect(promoted.resources[2].tags == ["b", "pack-2"])
        #expect(promoted.newTags.map(\.name) == ["pack-2"] && promoted.newTags.map(\.category) == [.prefetch(order: 0)])
    }

    @Test("co-access counts requests of the app's resources, a tag meaning every resource carrying it")
    func coAccess() throws {
        let document = try ScenarioParser(knownPolicies: ["lru"]).parse(
            """
            duration: 1d
            device: {capacity: 10GB}
            apps:
              - id: game
                resources: [{name: x, size: 1MB, tags: [a]}, {name: y, size: 1MB, tags: [a, b]}, {name: z, size: 1MB, \
            tags: [c]}]
            events:
              - {at: 0, app: game, install: true}
              - {at: 1, app: game, request: [a], id: r1}
              - {at: 2, app: game, request: [b, c], id: r2}
              - {at: 3, app: game, request: [c], id: r3}
            """, fileName: "c.scn")
        // r1 = {x, y}, r2 = {y, z}, r3 = {z}.
        let counts = CoAccess(scenario: document.scenario, app: 0, resources: document.resources[0], seeds: [0])
        #expect(counts.frequency == [1, 2, 2])
        #expect(counts.together(0, 1) == 1 && counts.together(1, 2) == 1 && counts.together(0, 2) == 0)
    }

    /// Three 10 MB resources; z requested alone twice a day (x and y get their requests in the test).
    static let together = """
        duration: 2d
        device: {capacity: 10GB}
        apps:
          - id: game
            resources: [{name: x, size: 10MB, tags: [a]}, {name: y, size: 10MB, tags: [b]}, {name: z, size: 10MB, \
        tags: [c]}]
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: game, launch: true}
        workload:
          - {kind: popularity, app: game, tags: [c], rate: 2/d, alpha: 1, hold: {median: 1m, sigma: 0.1}}
        """

    @Test("resources always requested together end in one pack")
    func alwaysTogether() throws {
        // x and y are only ever requested as [a, b]: apart they are two downloads per fetch,
        // together one, for the same bytes; with plenty of space nothing is purged, so the
        // only difference is the download price (1 MB each). z is requested alone: merging it
        // would fetch 10 MB more with each [a, b].
        let requests = (1...12).map {
            "  - {at: \($0)h, app: game, request: [a, b], id: r\($0)}\n  - {at: \($0)h30m, app: game, end: r\($0)}\n"
        }
        let scripted = Self.together.replacingOccurrences(
            of: "  - {at: 0, app: game, launch: true}\n",
            with: "  - {at: 0, app: game, launch: true}\n" + requests.joined())
        let (result, resources) = try advise(scripted)
        let best = result.evaluations[result.best].layout
        #expect(group(of: "x", best, resources) == ["x", "y"])
        #expect(group(of: "z", best, resources) == ["z"])
        #expect(result.evaluations[result.best].mean < result.evaluations[result.original].mean)
    }

    @Test("a large resource requested once a week by itself keeps an on-demand pack of its own")
    func weeklyLargeResourceAlone() throws {
        // By hand: s1 and s2 (5 MB each) are asked for together every morning; big (400 MB)
        // alone, at days 3 and 10. Every noon other data takes 550 MB of the 600 MB free for an
        // hour, so the system purges every unused pack each day (as written: s-pack 10 MB and,
        // when there, big).
        // - big in the morning pack: each morning fetches 410 MB again (13 re-downloads, 5.3 GB),
        //   and big is still gone at days 3 and 10.
        // - big promoted to prefetch: 400 MB at install, purged at the first noon, fetched again
        //   at day 3 (a re-download), plus the install price (40 MB): worse than on demand,
        //   which fetches it at day 3 (not a re-download) and again at day 10 (one).
        // - s1 and s2 apart: the same bytes, one more download a morning (1 MB each).
        // So the best layout: {s1, s2} and {big}, nothing promoted.
        var events = "  - {at: 0, app: game, install: true}\n  - {at: 0, app: game, launch: true}\n"
        for day in 0..<14 {
            events +=
                """
                  - {at: \(day)d8h, app: game, request: [a], id: m\(day)}\n  - {at: \(day)d9h, app: game, end: \
                m\(day)}\n
                """
            if day == 3 || day == 10 {
                events +=
                    """
                      - {at: \(day)d10h, app: game, request: [w], id: w\(day)}\n  - {at: \(day)d11h, app: game, end: \
                    w\(day)}\n
                    """
            }
            events += "  - {at: \(day)d12h, disk: +550MB}\n  - {at: \(day)d13h, disk: -550MB}\n"
        }
        let text = """
            duration: 14d
            device: {capacity: 1GB, used: 400MB}
            network: [{at: 0, bandwidth: 100Mbps, kind: wifi}]
            apps:
              - id: game
                resources: [{name: s1, size: 5MB, tags: [a]}, {name: s2, size: 5MB, tags: [a]}, {name: big, size: \
            400MB, tags: [w]}]
            events:
            \(events)
            """
        let (result, resources) = try advise(text, replications: 1)
        let best = result.evaluations[result.best]
        #expect(group(of: "big", best.layout, resources) == ["big"])
        #expect(group(of: "s1", best.layout, resources) == ["s1", "s2"])
        let big = best.layout.groups.firstIndex { $0.map { resources[$0].name } == ["big"] }!
        #expect(!best.layout.promoted[big])
        // The promotion of big was tried, and it lost.
        let promoted = try #require(result.evaluations.first { $0.move == "promote big to prefetch" })
        #expect(promoted.mean > best.mean)
        #expect(promoted.redownloadBytes >= Double(400 * Self.MB))
    }

    @Test(
        "two resources never needed together on a tight disk stay apart, and the advice is never worse than as written")
    func neverTogetherTightDisk() throws {
        // 350 MB free; a (300 MB) in the morning, b (300 MB) in the evening, each ended before
        // the other: merged, every request would need 600 MB and fail.
        var events = "  - {at: 0, app: game, install: true}\n  - {at: 0, app: game, launch: true}\n"
        for day in 0..<3 {
            events +=
                """
                  - {at: \(day)d8h, app: game, request: [a], id: m\(day)}\n  - {at: \(day)d9h, app: game, end: \
                m\(day)}\n
                """
            events +=
                """
                  - {at: \(day)d20h, app: game, request: [b], id: e\(day)}\n  - {at: \(day)d21h, app: game, end: \
                e\(day)}\n
                """
        }
        let text = """
            duration: 3d
            device: {capacity: 1GB, used: 650MB}
            apps:
              - id: game
                resources: [{name: x, size: 300MB, tags: [a]}, {name: y, size: 300MB, tags: [b]}]
            events:
            \(events)
            """
        let (result, resources) = try advise(text)
        let best = result.evaluations[result.best]
        #expect(group(of: "x", best.layout, resources) == ["x"])
        #expect(best.failedRequests == 0)
        #expect(best.mean <= result.evaluations[result.original].mean)
        // Every layout tried that merged them failed its requests.
        for e in result.evaluations where e.layout.groups.contains(where: { $0.count == 2 }) {
            #expect(e.failedRequests > 0)
        }
    }

    @Test("a layout over the platform's limits is never proposed: the merge is rejected unrun")
    func platformLimits() throws {
        // tvOS 18 allows 512 MB per pack. x (300 MB) and y (300 MB) are always requested
        // together, so merging them is the move the download price favours, but the 600 MB
        // pack is over the limit.
        var events = "  - {at: 0, app: game, install: true}\n  - {at: 0, app: game, launch: true}\n"
        for h in 1...6 {
            events +=
                "  - {at: \(h)h, app: game, request: [a, b], id: r\(h)}\n  - {at: \(h)h30m, app: game, end: r\(h)}\n"
        }
        let text = """
            duration: 1d
            platform: tvos18
            device: {capacity: 32GB}
            apps:
              - id: game
                resources: [{name: x, size: 300MB, tags: [a]}, {name: y, size: 300MB, tags: [b]}]
            events:
            \(events)
            """
        let (result, resources) = try advise(text)
        let rejected = result.evaluations.filter { $0.rejected != nil }
        #expect(!rejected.isEmpty)
        #expect(rejected.allSatisfy { $0.rejected!.contains("512 MB per-pack limit of tvos18") })
        let best = result.evaluations[result.best]
        #expect(best.rejected == nil)
        #expect(best.layout.groups.indices.allSatisfy { best.layout.size(of: $0, resources) <= 512 * Self.MB })
    }

    @Test("a population of one device, the scenario's own, changes nothing; of three, each layout runs on each")
    func population() throws {
        let text = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/AdviceTests/AdvisorTests.swift", with: "Scenarios/game.scn"),
            encoding: .utf8)
        var weights = Advisor.Weights()
        weights.failurePrice = 0
        let (alone, _) = try advise(
            text, app: "odyssey", policy: "lru", replications: 2, weights: weights, maxEvaluations: 8)
        // game.scn's phone has 58.5 GB used: the same device, the same runs, the same numbers.
        let (same, _) = try advise(
            text, app: "odyssey", policy: "lru", replications: 2, weights: weights, population: [used("58.5GB")],
            maxEvaluations: 8)
        #expect(alone.evaluations.map(\.objectives) == same.evaluations.map(\.objectives))
        // Three devices: 3 × 2 objectives a layout, the scenario's own device's among them, in
        // the population's order (so the pairs across layouts are the same device and seed).
        let (three, _) = try advise(
            text, app: "odyssey", policy: "lru", replications: 2, weights: weights,
            population: ["57GB", "58.5GB", "60GB"].map(used), maxEvaluations: 8)
        #expect(three.evaluations.allSatisfy { $0.rejected != nil || $0.objectives.count == 6 })
        #expect(
            Array(three.evaluations[three.original].objectives[2..<4]) == alone.evaluations[alone.original].objectives)
        // Here more free space (57 GB used) costs no more than less (60 GB), as written.
        let o = three.evaluations[three.original].objectives
        #expect(o[0] + o[1] <= o[4] + o[5])
    }

    @Test(
        """
        a study's axes make a population: the wifi's bandwidth as written changes nothing; a slower one is paired in \
        order
        """
    )
    func bandwidthPopulation() throws {
        let scenarios = #filePath.replacingOccurrences(of: "Tests/AdviceTests/AdvisorTests.swift", with: "Scenarios/")
        let text = try String(contentsOfFile: scenarios + "game.scn", encoding: .utf8)
        // game.scn's first network phase is home wifi at 40 Mbps; the study varies it.
        let study = try StudyParser(knownPolicies: PolicyRegistry.names).parse(
            """
            scenario: game.scn
            axes:
              - {name: wifi, path: network.1.bandwidth, values: [4Mbps, 40Mbps]}
            """, fileName: scenarios + "population.study")
        let devices = study.points.map { study.settings(of: $0) }
        #expect(
            devices.map { PathValue.label(of: $0) } == [
                "bandwidth=4Mbps", "bandwidth=40Mbps",
            ])
        var weights = Advisor.Weights()
        weights.failurePrice = 0
        let (alone, _) = try advise(
            text, app: "odyssey", policy: "lru", replications: 2, weights: weights, maxEvaluations: 6)
        let (same, _) = try advise(
            text, app: "odyssey", policy: "lru", replications: 2, weights: weights,
            population: [devices[1]], maxEvaluations: 6)
        #expect(alone.evaluations.map(\.objectives) == same.evaluations.map(\.objectives))
        let (two, _) = try advise(
            text, app: "odyssey", policy: "lru", replications: 2, weights: weights,
            population: devices, maxEvaluations: 6)
        #expect(two.evaluations.allSatisfy { $0.rejected != nil || $0.objectives.count == 4 })
        #expect(Array(two.evaluations[two.original].objectives[2..<4]) == alone.evaluations[alone.original].objectives)
        // A tenth of the bandwidth: every download takes ten times as long at home, so the
        // p95 wait over both devices is above the fast device's alone.
        #expect(two.evaluations[two.original].waitP95 > alone.evaluations[alone.original].waitP95)
    }

    @Test("where the app evicts, the app's budget and strategy are moves too, and a chosen one is in the advised text")
    func settingMoves() throws {
        let text = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/AdviceTests/AdvisorTests.swift", with: "Scenarios/game-background-assets.scn"),
            encoding: .utf8)
        let (result, _) = try advise(text, app: "odyssey", policy: "lru", replications: 2, maxEvaluations: 25)
        let moves = result.evaluations.map(\.move)
        // game-background-assets.scn gives odyssey 1 GB: halved and doubled, then each other strategy.
        #expect(moves.contains("budget 500MB") && moves.contains("budget 2000MB"))
        #expect(moves.contains("strategy fifo") && moves.contains("strategy gdsf") && !moves.contains("strategy lru"))
        for evaluation in result.evaluations where evaluation.move.hasPrefix("strategy ") {
            #expect(evaluation.layout.strategy == String(evaluation.move.dropFirst(9)))
        }
        // On ODR, where the system purges, no such move.
        let odr = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/AdviceTests/AdvisorTests.swift", with: "Scenarios/game.scn"),
            encoding: .utf8)
        let (plain, _) = try advise(odr, app: "odyssey", policy: "lru", replications: 2, maxEvaluations: 10)
        #expect(!plain.evaluations.contains { $0.move.hasPrefix("strategy ") || $0.move.hasPrefix("budget ") })
    }

    @Test("the advice is the same at any job count")
    func jobs() throws {
        let text = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/AdviceTests/AdvisorTests.swift", with: "Scenarios/game.scn"),
            encoding: .utf8)
        let (one, _) = try advise(text, app: "odyssey", policy: "apple", replications: 2, jobs: 1)
        let (two, _) = try advise(text, app: "odyssey", policy: "apple", replications: 2, jobs: 2)
        #expect(one.evaluations.map(\.objectives) == two.evaluations.map(\.objectives))
        #expect(one.evaluations.map(\.move) == two.evaluations.map(\.move))
        #expect(one.best == two.best)
        #expect(one.evaluations[one.best].mean <= one.evaluations[one.original].mean)
        // The offline bound is a floor under what the policy re-downloaded, as written and advised.
        #expect(
            one.bounds[0] <= one.evaluations[one.original].redownloadBytes
                && one.bounds[1] <= one.evaluations[one.best].redownloadBytes)
        #expect(one.bounds == two.bounds)
    }
}

/// The repository's root, for the shipped scenarios.
enum CLIRoot {
    static func path(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(relative).path
    }
}
