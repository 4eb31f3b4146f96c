import Foundation
import Testing

/// Issue 24: every number read from any input, pushed to the extremes, ends in success or in
/// a one-line error at the place that caused it (exit 1, or 64 for a command-line option);
/// never a trap. On the main before issue 24, a bandwidth near 2^63 bit/s, a lognormal sigma
/// of 1000 and a capacity near Int64.max each trapped (exit 132).
///
/// A scenario template holds every numeric field of the grammar as `⟨key⟩`; a case puts an
/// extreme value into one field and every other field's ordinary value into the rest.
@Suite("Extreme values in every numeric field")
struct ExtremeValueTests {
    /// The values every field gets: zero, negative, tiny, 2^53, 2^63 − 1, 2^63, huge, the
    /// YAML infinities and NaN, a 400-digit number, and a large number with a unit.
    static let values = [
        "0", "-1", "1e-300", "9007199254740992", "9223372036854775807", "9223372036854775808", "1e308",
        ".inf", "-.inf", ".nan", String(repeating: "9", count: 400), "999999999999TB",
    ]

    /// Every numeric field of the scenario grammar with an ordinary value.
    static let fields: [(key: String, ordinary: String)] = [
        ("seed", "3"), ("duration", "2h"), ("replications", "1"), ("sample", "10m"),
        ("capacity", "2GB"), ("used", "1GB"),
        ("network.at", "30m"), ("network.bandwidth", "40Mbps"),
        ("platform.max_pack_size", "512MB"), ("platform.max_tag_size", "512MB"),
        ("platform.max_initial_install", "2GB"), ("platform.max_initial_and_prefetch", "4GB"),
        ("platform.max_in_use", "2GB"), ("platform.max_hosted", "20GB"), ("platform.max_pack_count", "1000"),
        ("resource.size", "64MB"), ("tag.order", "1"), ("tag.preservation", "0.5"),
        ("generate.tags", "5"), ("generate.median", "20MB"), ("generate.sigma", "0.5"),
        ("cache_quota", "64MB"), ("default_quota", "32MB"),
        ("event.at", "1m"), ("event.priority", "0.5"), ("event.set_priority", "0.2"), ("event.preserve", "0.7"),
        ("event.disk", "+100MB"),
        ("sessions.rate", "4/h"), ("sessions.median", "10m"), ("sessions.sigma", "0.5"),
        ("sessions.amplitude", "0.5"), ("sessions.peak", "20h"),
        ("levels.rate", "2/h"), ("levels.start", "5m"), ("levels.prefetch_priority", "0.2"),
        ("popularity.rate", "6/h"), ("popularity.alpha", "0.9"), ("popularity.median", "5m"),
        ("popularity.sigma", "1"), ("popularity.priority", "0.5"),
        ("disk.rate", "2/h"), ("disk.median", "50MB"), ("disk.sigma", "0.8"), ("disk.cleanup_rate", "1/h"),
        ("disk.cleanup_fraction", "0.6"),
        ("spells.mean", "10m"), ("spells.bandwidth", "5Mbps"), ("spells.offline_mean", "5m"),
    ]

    static let template = """
        name: extreme
        seed: ⟨seed⟩
        duration: ⟨duration⟩
        replications: ⟨replications⟩
        sample: ⟨sample⟩
        policies: [apple, android-quota]
        platform:
          max_pack_size: ⟨platform.max_pack_size⟩
          max_tag_size: ⟨platform.max_tag_size⟩
          max_initial_install: ⟨platform.max_initial_install⟩
          max_initial_and_prefetch: ⟨platform.max_initial_and_prefetch⟩
          max_in_use: ⟨platform.max_in_use⟩
          max_hosted: ⟨platform.max_hosted⟩
          max_pack_count: ⟨platform.max_pack_count⟩
        device: {capacity: ⟨capacity⟩, used: ⟨used⟩}
        network:
          - {at: 0, bandwidth: 20Mbps, kind: wifi}
          - {at: ⟨network.at⟩, bandwidth: ⟨network.bandwidth⟩, kind: wifi}
        policy_options:
          android-quota: {default_quota: ⟨default_quota⟩}
        apps:
          - id: game
            cache_quota: ⟨cache_quota⟩
            resources:
              - {name: a, size: ⟨resource.size⟩, tags: [t1]}
              - {name: b, size: 30MB, tags: [t2]}
              - {name: c, size: 20MB, tags: [t3]}
            tags:
              t2: {category: prefetch, order: ⟨tag.order⟩, preservation: ⟨tag.preservation⟩}
          - id: gen
            generate: {tags: ⟨generate.tags⟩, size: {median: ⟨generate.median⟩, sigma: \
        ⟨generate.sigma⟩}, prefix: g-}
        workload:
          - {kind: sessions, app: game, rate: ⟨sessions.rate⟩, length: {median: ⟨sessions.median⟩, sigma: \
        ⟨sessions.sigma⟩}, daily_cycle: {amplitude: ⟨sessions.amplitude⟩, peak: ⟨sessions.peak⟩}}
          - {kind: levels, app: game, tags: [t1, t2, t3], rate: ⟨levels.rate⟩, start: ⟨levels.start⟩, \
        prefetch_priority: ⟨levels.prefetch_priority⟩}
          - {kind: popularity, app: gen, rate: ⟨popularity.rate⟩, alpha: ⟨popularity.alpha⟩, hold: {median: \
        ⟨popularity.median⟩, sigma: ⟨popularity.sigma⟩}, priority: ⟨popularity.priority⟩}
          - {kind: disk, rate: ⟨disk.rate⟩, size: {median: ⟨disk.median⟩, sigma: \
        ⟨disk.sigma⟩}, cleanup_rate: ⟨disk.cleanup_rate⟩, cleanup_fraction: ⟨disk.cleanup_fraction⟩}
          - {kind: network, wifi: {mean: ⟨spells.mean⟩, bandwidth: ⟨spells.bandwidth⟩}, offline: {mean: \
        ⟨spells.offline_mean⟩}}
        events:
          - {at: 0, app: game, install: true}
          - {at: 0, app: gen, install: true}
          - {at: ⟨event.at⟩, app: game, launch: true}
          - {at: 1m, app: game, request: [t1], id: r1, priority: ⟨event.priority⟩}
          - {at: 1m, app: game, set-priority: r1, priority: ⟨event.set_priority⟩}
          - {at: 1m, app: game, preserve: {t3: ⟨event.preserve⟩}}
          - {at: 90m, disk: ⟨event.disk⟩}

        """

    /// The template with `key` set to `value` and every other field ordinary.
    static func scenario(_ key: String, _ value: String) -> String {
        var text = template
        for field in fields {
            text = text.replacingOccurrences(of: "⟨\(field.key)⟩", with: field.key == key ? value : field.ordinary)
        }
        return text
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let key: String
        let testDescription: String
    }

    static let cases = fields.map { Case(key: $0.key, testDescription: $0.key) }

    @Test("the template with ordinary values runs")
    func ordinary() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.scenario("", "").utf8).write(to: dir.appendingPathComponent("s.scn"))
        let result = try CLI.run(["run", "s.scn", "--no-report", "--no-events", "--out", "out"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!Self.template.contains("⟨") || Self.fields.allSatisfy { Self.template.contains("⟨\($0.key)⟩") })
    }

    @Test("each value in the field: success, or exit 1 with one line at FILE:LINE:COLUMN", arguments: cases)
    func field(_ field: Case) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for value in Self.values {
            let text = Self.scenario(field.key, value)
            try Data(text.utf8).write(to: dir.appendingPathComponent("s.scn"))
            let line =
                Self.template.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains("⟨\(field.key)⟩") }.map { $0 + 1 } ?? 0
            let result = try CLI.run(
                ["run", "s.scn", "--no-report", "--no-events", "--out", "out", "--max-events", "200000"], in: dir)
            let lines = result.stderr.split(separator: "\n").filter { !$0.contains(": warning: ") }
            #expect(
                result.status == 0 || result.status == 1,
                "\(field.key) = \(value): exit \(result.status)\n\(result.stderr.prefix(600))")
            if result.status == 1 {
                #expect(lines.count == 1, "\(field.key) = \(value): \(result.stderr)")
                // At the field; a platform limit of 0 is refused at the resource it cannot hold.
                let at = value == "0" && field.key.hasPrefix("platform.") ? "s.scn:" : "s.scn:\(line):"
                #expect(lines.first?.hasPrefix(at) == true, "\(field.key) = \(value) (line \(line)): \(result.stderr)")
            }
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("out"))
        }
    }

    /// Every numeric field of the study grammar (its axis values are scenario fields, above).
    static let studyTemplate = """
        name: extreme-study
        scenario: s.scn
        replications: ⟨replications⟩
        axes:
          - {name: used, path: device.used, values: {from: ⟨from⟩, to: ⟨to⟩, steps: ⟨steps⟩, scale: log}}

        """
    static let studyFields: [(key: String, ordinary: String)] = [
        ("replications", "1"), ("from", "900MB"), ("to", "950MB"), ("steps", "2"),
    ]

    @Test(
        "each value in each numeric field of a study: success, or exit 1 with one line at the study's FILE:LINE:COLUMN")
    func studyFieldsAtExtremes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        for field in Self.studyFields {
            for value in Self.values {
                var text = Self.studyTemplate
                for other in Self.studyFields {
                    text = text.replacingOccurrences(
                        of: "⟨\(other.key)⟩", with: other.key == field.key ? value : other.ordinary)
                }
                try Data(text.utf8).write(to: dir.appendingPathComponent("x.study"))
                let line =
                    Self.studyTemplate.split(separator: "\n", omittingEmptySubsequences: false)
                    .firstIndex { $0.contains("⟨\(field.key)⟩") }.map { $0 + 1 } ?? 0
                let result = try CLI.run(["sweep", "x.study", "--no-report", "--out", "out"], in: dir)
                #expect(
                    result.status == 0 || result.status == 1,
                    "\(field.key) = \(value): exit \(result.status)\n\(result.stderr.prefix(600))")
                if result.status == 1 {
                    let lines = result.stderr.split(separator: "\n").filter { !$0.contains(": warning: ") }
                    #expect(
                        lines.count == 1 && lines[0].hasPrefix("x.study:\(line):"),
                        "\(field.key) = \(value): \(result.stderr)")
                }
                try? FileManager.default.removeItem(at: dir.appendingPathComponent("out"))
            }
        }
    }

    @Test(
        """
        each number of a shard file (K, N, runs, total, a run's index): the merge succeeds or fails in one line, \
        never traps
        """
    )
    func shardFileNumbers() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        try Data("scenario: s.scn\naxes:\n  - {path: device.used, values: [900MB, 950MB]}\nreplications: 1\n".utf8)
            .write(to: dir.appendingPathComponent("s.study"))
        for k in 1...2 {
            #expect(try CLI.run(["sweep", "s.study", "--shard", "\(k)/2", "--out", "shards"], in: dir).status == 0)
        }
        let file = dir.appendingPathComponent("shards/shard-0001-of-0002.csv")
        let original = try String(contentsOf: file, encoding: .utf8)
        let first = original.prefix { $0 != "\n" }
        // Each number's place in the first line, and the first run's index on line 3.
        let places: [(String, (String) -> String)] = [
            ("K", { original.replacingOccurrences(of: "shard 1/2", with: "shard \($0)/2") }),
            ("N", { original.replacingOccurrences(of: "shard 1/2", with: "shard 1/\($0)") }),
            ("runs", { original.replacingOccurrences(of: " runs=1 ", with: " runs=\($0) ") }),
            ("total", { original.replacingOccurrences(of: " total=2 ", with: " total=\($0) ") }),
            (
                "run index",
                { v in
                    var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    lines[2] = v + lines[2].drop { $0 != "," }
                    return lines.joined(separator: "\n")
                }
            ),
        ]
        #expect(first.contains(" runs=1 ") && first.contains(" total=2 "))
        for (place, edit) in places {
            for value in Self.values {
                try Data(edit(value).utf8).write(to: file)
                let result = try CLI.run(["sweep", "merge", "shards", "--out", "merged", "--no-report"], in: dir)
                #expect(
                    [0, 1].contains(result.status),
                    "\(place) = \(value): exit \(result.status)\n\(result.stderr.prefix(400))")
                if result.status == 1 {
                    #expect(result.stderr.split(separator: "\n").count == 1, "\(place) = \(value): \(result.stderr)")
                }
                try? FileManager.default.removeItem(at: dir.appendingPathComponent("merged"))
            }
        }
    }

    /// Every numeric option of every command, with the same values.
    static let options: [(command: [String], option: String)] = [
        (["run", "s.scn"], "--replications"), (["run", "s.scn"], "--jobs"), (["run", "s.scn"], "--sample"),
        (["run", "s.scn"], "--max-events"), (["compare", "s.scn", "--policy", "lru"], "--replications"),
        (["check", "s.scn", "--baseline", "b.csv"], "--tolerance"),
        (["check", "s.scn", "--baseline", "b.csv"], "--jobs"),
        (["sweep", "s.study"], "--jobs"), (["sweep", "s.study", "--out", "sh"], "--shard"),
        (["replay", "t.csv"], "--capacity"), (["replay", "t.csv", "--capacity", "100"], "--seed"),
        (["replay", "t.csv", "--capacity", "100"], "--jobs"),
        (["replay", "t.csv", "--capacity", "100"], "--foo-max-requests"),
        (["mrc", "t.csv"], "--points"), (["mrc", "t.csv"], "--sample"), (["mrc", "t.csv"], "--capacity"),
        (["bound", "t.csv"], "--capacity"), (["bound", "t.csv", "--capacity", "100"], "--foo-max-requests"),
        // Issue 42: the commands added since issue 24, every numeric option.
        (["run", "s.scn"], "--max-event-rows"), (["run", "s.scn"], "--warmup"),
        (["compare", "s.scn", "--policy", "lru"], "--warmup"),
        (["advise", "s.scn", "--app", "game", "--max-evaluations", "3"], "--replications"),
        (["advise", "s.scn", "--app", "game", "--replications", "1"], "--max-evaluations"),
        (["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3"], "--wait-price"),
        (["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3"], "--install-price"),
        (["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3"], "--failure-price"),
        (["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3"], "--download-price"),
        (["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3"], "--used"),
        (["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3"], "--max-events"),
        (["advise", "s.scn", "--app", "game", "--replications", "1", "--max-evaluations", "3"], "--jobs"),
        (["advise", "s.scn", "--app", "game", "--exchange", "ex", "--shard-timeout", "1s"], "--shard"),
        (["advise", "s.scn", "--app", "game", "--exchange", "ex", "--shard", "1/1"], "--shard-timeout"),
        (["migrate", "s.scn", "--to", "background-assets"], "--budget"),
    ]

    @Test("each numeric command-line option: success, or one line `odr-sim: …` with exit 64 (or 1)")
    func commandLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(smallScenario.utf8).write(to: dir.appendingPathComponent("s.scn"))
        try Data("scenario: s.scn\naxes:\n  - {path: device.used, values: [900MB, 950MB]}\nreplications: 1\n".utf8)
            .write(to: dir.appendingPathComponent("s.study"))
        try Data("time,obj_id,size\n1,1,100\n2,2,100\n3,1,100\n".utf8).write(to: dir.appendingPathComponent("t.csv"))
        #expect(try CLI.run(["check", "s.scn", "--baseline", "b.csv", "--update"], in: dir).status == 0)
        for (command, option) in Self.options {
            for value in Self.values + ["1/999999999", "2/1", "50%", "1e400%"] {
                let out = command.contains("--out") ? [] : ["--out", "o"]
                let result = try CLI.run(command + [option, value] + out, in: dir)
                #expect(
                    [0, 1, 64].contains(result.status),
                    "\(command) \(option) \(value): exit \(result.status)\n\(result.stderr.prefix(600))")
                if result.status != 0 {
                    #expect(
                        result.stderr.split(separator: "\n").count == 1,
                        "\(command) \(option) \(value): \(result.stderr)")
                    #expect(
                        result.stderr.hasPrefix("odr-sim: ") || result.stderr.hasPrefix("t.csv:"),
                        "\(command) \(option) \(value): \(result.stderr)")
                }
                for name in ["o", "sh", "ex"] {
                    try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
                }
            }
        }
    }
}
