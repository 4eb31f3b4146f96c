import Foundation
import Metrics
import Testing

@Suite("odr-sim sweep, end to end", .serialized)
struct SweepCommandTests {
    static let study = """
        policies: [apple, lru]
        replications: 2
        scenario:
          duration: 2d
          device: {capacity: 8GB, used: 7GB}
          apps:
            - id: game
              generate: {tags: 12, size: {median: 64MB, sigma: 0.5}}
          events:
            - {at: 0, app: game, install: true}
          workload:
            - {kind: popularity, app: game, rate: 30/d, alpha: 0.8, hold: {median: 5m, sigma: 1}}
        axes:
          - {name: used, path: device.used, values: [7GB, 7.5GB]}
          - {path: workload.popularity.alpha, values: [0.5, 1.2]}

        """

    @Test("--baseline takes the paired differences against another of the study's policies; one not run is refused")
    func baseline() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.study")
        try Data(Self.study.utf8).write(to: file)
        let run = try CLI.run([
            "sweep", file.path, "--baseline", "lru", "--no-report", "--out", dir.appendingPathComponent("b").path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOf: dir.appendingPathComponent("b/comparison.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(lines[0].contains(",redownload_bytes_diff_vs_lru,") && !lines[0].contains("diff_vs_apple"))
        // lru's own row has no difference to itself; apple's has one.
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let column = header.firstIndex(of: "redownload_bytes_diff_vs_lru")!
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields[column].isEmpty == (fields[header.firstIndex(of: "policy")!] == "lru"))
        }
        let refused = try CLI.run([
            "sweep", file.path, "--baseline", "gdsf", "--out", dir.appendingPathComponent("c").path,
        ])
        #expect(refused.status == 64)
        #expect(refused.stderr == "odr-sim: --baseline: 'gdsf' is not among the policies run (apple, lru)\n")
    }

    @Test(
        """
        the migration study: ODR under apple as its baseline point; baseline-pairs.csv and the verdict pair every \
        point against it; two shards merge to the same bytes
        """
    )
    func migrationAgainstODR() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole")
        let shards = dir.appendingPathComponent("shards")
        let merged = dir.appendingPathComponent("merged")
        let run = try CLI.run(
            ["sweep", "Scenarios/studies/migration.study", "--no-report", "--out", whole.path], in: CLI.repository)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Against platform=ios17 under apple (5 replications, paired;"), "\(run.stdout)")
        #expect(run.stdout.contains("budget=1GB, platform=background-assets with "), "\(run.stdout)")
        let pairs = try String(contentsOf: whole.appendingPathComponent("baseline-pairs.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(pairs[0].hasPrefix("budget,budget_bytes,platform,policy,replications,baseline_policy,metric,"))
        // 8 grid points × 6 policies, and the ODR point's 5 other policies, each × every metric.
        let metrics = Metric.allCases.count
        #expect(pairs.count == 1 + (8 * 6 + 5) * metrics)
        #expect(!pairs.contains { $0.hasPrefix(",,ios17,apple,") })
        // apps.csv: a row per run and app (3 apps), summing to results.csv's re-downloads.
        let apps = try String(contentsOf: whole.appendingPathComponent("apps.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(apps.count == 1 + 270 * 3)
        #expect(apps[0].hasPrefix("budget,budget_bytes,platform,policy,replication,seed,app,requests,"))
        let column = apps[0].split(separator: ",").firstIndex(of: "redownload_bytes")!
        let runColumn = try String(contentsOf: whole.appendingPathComponent("results.csv"), encoding: .utf8).split(
            separator: "\n")[0]
            .split(separator: ",").firstIndex(of: "redownload_bytes")!
        let firstRun = try String(contentsOf: whole.appendingPathComponent("results.csv"), encoding: .utf8).split(
            separator: "\n")[1]
            .split(separator: ",", omittingEmptySubsequences: false)
        let firstApps = apps[1...3].map { Int($0.split(separator: ",", omittingEmptySubsequences: false)[column])! }
        #expect(firstApps.reduce(0, +) == Int(firstRun[runColumn])!)
        // The ODR point leaves the budget out: its row in results.csv has it empty.
        let results = try String(contentsOf: whole.appendingPathComponent("results.csv"), encoding: .utf8)
        #expect(results.contains("\n,,ios17,apple,1,42,"), "\(results.prefix(300))")
        for k in 1...2 {
            let shard = try CLI.run(
                ["sweep", "Scenarios/studies/migration.study", "--shard", "\(k)/2", "--out", shards.path],
                in: CLI.repository)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        #expect(try CLI.run(["sweep", "merge", shards.path, "--no-report", "--out", merged.path]).status == 0)
        for name in ["results.csv", "comparison.csv", "baseline-pairs.csv", "apps.csv", "comparison-apps.csv"] {
            #expect(
                try Data(contentsOf: whole.appendingPathComponent(name))
                    == Data(contentsOf: merged.appendingPathComponent(name)), "\(name) differs")
        }
    }

    @Test(
        """
        sweep --app: the app's own verdict, without the device's metrics; the files keep every app; an unknown app \
        writes nothing
        """
    )
    func oneApp() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("a")
        let run = try CLI.run(
            ["sweep", "Scenarios/studies/migration.study", "--app", "odyssey", "--out", out.path], in: CLI.repository)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.hasPrefix("Verdict over 9 points against apple for app odyssey (5 replications each, paired):"),
            "\(run.stdout)")
        #expect(!run.stdout.contains("over-purge:"), "\(run.stdout)")
        // The user's refused data is the device's, kept beside the app's figures (issue 50), and says so.
        #expect(run.stdout.contains("other data refused (the device's) +"), "\(run.stdout)")
        #expect(!run.stdout.contains("other data refused +"), "\(run.stdout)")
        let apps = try String(contentsOf: out.appendingPathComponent("apps.csv"), encoding: .utf8)
        #expect(apps.contains(",atlas,") && apps.contains(",snapfilter,"))
        try Self.reportIsTheApps(out, terminal: run.stdout)
        let none = dir.appendingPathComponent("n")
        let unknown = try CLI.run(
            ["sweep", "Scenarios/studies/migration.study", "--app", "nope", "--out", none.path], in: CLI.repository)
        #expect(
            unknown.status == 64 && unknown.stderr.contains("--app: the scenario has no app 'nope'"),
            "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: none.path))
    }

    /// Issue 50: under --app the report is the app's, as the terminal's verdict is: its title,
    /// its headline (the verdict's first lines), and its charts' numbers (comparison-apps.csv's,
    /// the device's marked); `baseline-pairs-app.csv` holds the app's pairs; the reference point
    /// (ODR, the budget left out) is a labelled line, not a position on the budget axis.
    static func reportIsTheApps(_ out: URL, terminal: String) throws {
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<title>migration: study, app odyssey</title>"))
        let verdict = terminal.split(separator: "\n").dropFirst().prefix(3)
        for line in verdict { #expect(html.contains(String(line.trimmingCharacters(in: .whitespaces))), "\(line)") }
        #expect(html.contains("Over-purge (the device&apos;s) against budget"))
        // The budget chart's points sit at the middle platform (play-asset-delivery); lru's at 1GB:
        let table = try CSVTable(contentsOf: out.appendingPathComponent("comparison-apps.csv"))
        let row = try #require(
            table.rows.first {
                table[$0, "app"] == "odyssey" && table[$0, "budget"] == "1GB"
                    && table[$0, "platform"] == "play-asset-delivery" && table[$0, "policy"] == "lru"
            })
        let mean = try #require(Double(table[row, "redownload_bytes_mean"]))
        #expect(html.contains("lru, budget = 1GB: redownload_bytes mean \(Int(mean)) ("), "\(mean)")
        // No empty position on the budget axis; the ODR point is a line that says what it is.
        #expect(!html.contains("budget = :") && !html.contains("budget , platform"))
        #expect(
            html.contains("Reference point (no budget of its own), a horizontal line: platform=ios17 under apple, "))
        let pairs = try CSVTable(contentsOf: out.appendingPathComponent("baseline-pairs-app.csv"))
        #expect(pairs.header.first == "app" && pairs.header.last == "value_of")
        #expect(pairs.rows.allSatisfy { pairs[$0, "app"] == "odyssey" })
        let refused = try #require(pairs.rows.first { pairs[$0, "metric"] == "refused_other_bytes" })
        #expect(pairs[refused, "value_of"] == "device")
        let redownloads = try #require(pairs.rows.first { pairs[$0, "metric"] == "redownload_bytes" })
        #expect(pairs[redownloads, "value_of"] == "app")
    }

    @Test("three shards merged equal --jobs 1 byte for byte; a shard of an edited study is refused, naming it")
    func shardsMergeToTheSameBytes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.study")
        try Data(Self.study.utf8).write(to: file)
        let whole = dir.appendingPathComponent("whole")
        let shards = dir.appendingPathComponent("shards")
        let merged = dir.appendingPathComponent("merged")
        let run = try CLI.run(["sweep", file.path, "--jobs", "1", "--out", whole.path])
        #expect(run.status == 0, "\(run.stderr)")
        for k in 1...3 {
            #expect(try CLI.run(["sweep", file.path, "--shard", "\(k)/3", "--out", shards.path]).status == 0)
        }
        let merge = try CLI.run(["sweep", "merge", shards.path, "--out", merged.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        for name in ["results.csv", "comparison.csv", "comparison-long.csv", "report.html"] {
            let a = try Data(contentsOf: whole.appendingPathComponent(name))
            let b = try Data(contentsOf: merged.appendingPathComponent(name))
            #expect(a == b, "\(name) differs")
        }
        // 2 × 2 points × 2 policies × 2 replications, and the axes as columns: the sizes also
        // in bytes; alpha is a number already.
        let results = try String(contentsOf: whole.appendingPathComponent("results.csv"), encoding: .utf8)
        #expect(results.split(separator: "\n").count == 1 + 16)
        #expect(
            results.hasPrefix(
                "used,used_bytes,workload.popularity.alpha,policy,replication,seed,scenario_hash,requests,"))

        // Edit the study, and redo shard 2 only: the merge names the odd one out.
        try Data(Self.study.replacingOccurrences(of: "replications: 2", with: "replications: 3").utf8).write(to: file)
        #expect(try CLI.run(["sweep", file.path, "--shard", "2/3", "--out", shards.path]).status == 0)
        let refused = try CLI.run(["sweep", "merge", shards.path, "--out", merged.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("shard-0002-of-0003.csv is from another study"), "\(refused.stderr)")
        let bad = try CLI.run(["sweep", file.path, "--shard", "4/3", "--out", shards.path])
        #expect(bad.status != 0 && bad.stderr.contains("--shard must be K/N"))
    }

    @Test(
        """
        --missing N: the shards lost, cut short, of another version of the study or another split; none once all \
        check out (issue 41)
        """
    )
    func missingShards() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.study")
        try Data(Self.study.utf8).write(to: file)
        let shards = dir.appendingPathComponent("shards")
        func census() throws -> String {
            let result = try CLI.run(["sweep", file.path, "--missing", "4", "--out", shards.path])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        // Nothing run yet: every shard is missing.
        #expect(try census() == "1\tno file\n2\tno file\n3\tno file\n4\tno file\n")
        for k in 1...4 {
            #expect(try CLI.run(["sweep", file.path, "--shard", "\(k)/4", "--out", shards.path]).status == 0)
        }
        #expect(try census() == "")
        // Shard 1 cut short by a full disk; shard 3 lost; shard 4 the file of shard 2 (copied
        // by hand: the same study, other runs).
        let one = shards.appendingPathComponent("shard-0001-of-0004.csv")
        let text = try Data(contentsOf: one)
        try text.prefix(text.count / 2).write(to: one)
        try FileManager.default.removeItem(at: shards.appendingPathComponent("shard-0003-of-0004.csv"))
        let four = shards.appendingPathComponent("shard-0004-of-0004.csv")
        try FileManager.default.removeItem(at: four)
        try FileManager.default.copyItem(at: shards.appendingPathComponent("shard-0002-of-0004.csv"), to: four)
        #expect(try census() == "1\tdoes not check out\n3\tno file\n4\tholds other runs\n")
        // An edited study: the shards that still read are of another version.
        try Data(Self.study.replacingOccurrences(of: "replications: 2", with: "replications: 3").utf8).write(to: file)
        #expect(
            try census()
                == """
                1\tdoes not check out\n2\tof another version of the study\n3\tno file\n4\tof another version of \
                the study\n
                """
        )
        let usage = try CLI.run(["sweep", file.path, "--missing", "4"])
        #expect(usage.status == 64 && usage.stderr.contains("--missing N needs N ≥ 1, --out DIR"), "\(usage.stderr)")
    }

    /// Whether every point × policy of a sweep's comparison.csv has each main metric's 95 %
    /// half-width, (ci_high − ci_low) / 2, within `fraction` of its mean.
    static func withinPrecision(_ csv: String, fraction: Double) -> Bool {
        let lines = csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines[0]
        // Issue 51's rules: at least 10 replications; Law's corrected target γ/(1 + γ) of the
        // mean; a metric with no spread only after 3/γ replications (the rule of three).
        return lines.dropFirst().allSatisfy { row in
            guard let n = header.firstIndex(of: "replications").flatMap({ Int(row[$0]) }), n >= 10 else { return false }
            return ["redownload_bytes", "over_purge_bytes", "failed_requests", "wait_p95_s"].allSatisfy { metric in
                guard let m = header.firstIndex(of: "\(metric)_mean"), let sd = header.firstIndex(of: "\(metric)_sd"),
                    let lo = header.firstIndex(of: "\(metric)_ci_low"),
                    let hi = header.firstIndex(of: "\(metric)_ci_high"), let mean = Double(row[m])
                else { return false }
                let half = ((Double(row[hi]) ?? .infinity) - (Double(row[lo]) ?? 0)) / 2
                return Double(row[sd]) == 0
                    ? Double(n) >= (3 / fraction).rounded(.up) : half <= fraction / (1 + fraction) * abs(mean)
            }
        }
    }

    @Test(
        """
        sweep --precision 25%: doubles until every point meets it, stops at the first count that does, and equals \
        the study run at that count (issue 40)
        """
    )
    func precisionPerPoint() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.study")
        try Data(Self.study.utf8).write(to: file)
        let result = try CLI.run([
            "sweep", file.path, "--precision", "25%", "--no-report", "--out", dir.appendingPathComponent("p").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("--precision: every main metric of every policy within its target after"),
            "\(result.stdout)")
        let comparison = try String(contentsOf: dir.appendingPathComponent("p/comparison.csv"), encoding: .utf8)
        #expect(Self.withinPrecision(comparison, fraction: 0.25))
        // The count it stopped at, from the study's 2 to at least 10, then doubling: 10, 20, 40, …;
        // half as many did not meet it.
        let replications = try #require(
            Int(
                comparison.split(separator: "\n")[1].split(separator: ",")[
                    comparison.split(separator: "\n")[0].split(separator: ",").firstIndex(of: "replications")!]))
        #expect([10, 20, 40, 80, 160, 320, 640].contains(replications), "\(replications)")
        func fixed(_ r: Int, _ name: String) throws -> String {
            try Data(Self.study.replacingOccurrences(of: "replications: 2", with: "replications: \(r)").utf8).write(
                to: dir.appendingPathComponent("\(name).study"))
            #expect(
                try CLI.run([
                    "sweep", dir.appendingPathComponent("\(name).study").path, "--no-report", "--out",
                    dir.appendingPathComponent(name).path,
                ]).status == 0)
            return try String(contentsOf: dir.appendingPathComponent("\(name)/comparison.csv"), encoding: .utf8)
        }
        #expect(!Self.withinPrecision(try fixed(replications / 2, "half"), fraction: 0.25))
        #expect(try fixed(replications, "same") == comparison)
    }

    @Test(
        """
        a study's objective and limits: a recommendation per point and one over the study; a bad limit is refused at \
        its place (issue 40)
        """
    )
    func objective() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.study")
        try Data(
            (Self.study + "objective: redownload_bytes + 100MB*failed_requests\nlimits: [failed_requests<=baseline]\n")
                .utf8
        ).write(to: file)
        let result = try CLI.run([
            "sweep", file.path, "--no-report", "--out", dir.appendingPathComponent("o").path, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let verdict = try #require(object["verdict"] as? [String])
        #expect(
            verdict.contains {
                $0.hasPrefix("Recommended by the objective within failed_requests ≤ baseline: ")
                    && $0.contains("of 4 points")
            }, "\(verdict)")
        #expect(verdict.contains { $0.hasPrefix("Over the study: Recommended: ") }, "\(verdict)")
        // The verdict as data: each point's lines field by field, and the recommendation's trade-offs.
        let perPoint = try #require(object["verdict_lines"] as? [[String: Any]])
        #expect(
            perPoint.count == 4
                && perPoint.allSatisfy {
                    ($0["lines"] as? [[String: Any]])?.first?["metric"] as? String == "redownload_bytes"
                })
        let recommendation = try #require(object["recommendation"] as? [String: Any])
        #expect(
            (recommendation["trade_offs"] as? [[String: Any]])?.first?["metric"] as? String == "redownload_bytes"
                || recommendation["policy"] as? String == "apple @ used=7GB, workload.popularity.alpha=0.5")
        #expect(
            (recommendation["policy"] as? String)?.contains(" @ used=") == true
                && recommendation["baseline"] as? String == "apple @ used=7GB, workload.popularity.alpha=0.5")
        // --limit on the command line replaces the study's; a bad one in the study is located.
        try Data((Self.study + "limits: [failed_requests<=baseline, wait_p95_s<=soon]\n").utf8).write(to: file)
        let bad = try CLI.run(["sweep", file.path, "--no-report", "--out", dir.appendingPathComponent("b").path])
        #expect(
            bad.status == 1
                && bad.stderr.contains("s.study:16:37: limit 'wait_p95_s<=soon': 'soon' is not a value of wait_p95_s"),
            "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b").path))
    }

    @Test(
        """
        sweep --robustness: every point checked against the undocumented assumptions; robustness.csv by point; not \
        with --shard (issue 38)
        """
    )
    func robustness() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o")
        let result = try CLI.run([
            "sweep", "Scenarios/studies/migration.study", "--robustness", "--no-report", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\n  robustness: "), "\(result.stdout)")
        let csv = try String(contentsOf: out.appendingPathComponent("robustness.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(csv[0].hasPrefix("point,assumption,key,default,alternative,metric,best,"))
        // Background Assets' system removal applies at its points: each has rows, labelled by point.
        let points = Set(csv.dropFirst().map { String($0.split(separator: "\"")[0]) })
        #expect(points.contains("budget=1GB, platform=background-assets"), "\(points)")
        let table = try CSVTable(contentsOf: out.appendingPathComponent("robustness.csv"))
        #expect(table.column("verdict").allSatisfy { ["holds", "flips", "within the noise"].contains($0) })
        #expect(table.rows.count == csv.count - 1)
        let sharded = try CLI.run([
            "sweep", "Scenarios/studies/migration.study", "--robustness", "--shard", "1/2", "--out",
            dir.appendingPathComponent("s").path,
        ])
        #expect(sharded.status == 64 && sharded.stderr.contains("--robustness: a sharded study runs a fixed plan"))
    }
}
