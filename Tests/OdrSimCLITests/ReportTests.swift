import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Issue 13: report.html looked at as a person would, in headless Chromium (Debian
/// `chromium`, installed by scripts/bootstrap): screenshots, the DOM, hovers against the CSV.
@Suite("report.html in a browser", .serialized)
struct ReportTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs headless Chromium on `page` with `arguments`; its stdout.
    static func browse(_ page: URL, _ arguments: [String]) throws -> String {
        let browser = try #require(chromium, "chromium is not installed: run scripts/bootstrap")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=\(page.deletingLastPathComponent().path)/.chromium",
            ]
            + arguments + [page.absoluteString]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Every `<svg>…</svg>` of the page parses as XML.
    static func svgsParse(_ html: String) -> (count: Int, failures: Int) {
        var count = 0
        var failures = 0
        var rest = html[...]
        while let start = rest.range(of: "<svg"),
            let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex)
        {
            count += 1
            let parser = XMLParser(data: Data(rest[start.lowerBound..<end.upperBound].utf8))
            if !parser.parse() { failures += 1 }
            rest = rest[end.upperBound...]
        }
        return (count, failures)
    }

    @Test("run: a series per policy, labelled axes, hovers equal to timeseries.csv, nothing fetched, a screenshot")
    func runReport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("game")
        let policies = ["apple", "lru", "best-fit"]
        let result = try CLI.run(
            ["run", "Scenarios/game.scn", "--out", out.path] + policies.flatMap { ["--policy", $0] })
        #expect(result.status == 0, "\(result.stderr)")
        let page = out.appendingPathComponent("report.html")
        let html = try String(contentsOf: page, encoding: .utf8)

        // Self-contained: no script and nothing fetched.
        #expect(!html.contains("<script"))
        for attribute in ["src=\"http", "href=\"http", "url(http", "@import"] {
            #expect(!html.contains(attribute), "\(attribute)")
        }
        let (svgs, broken) = Self.svgsParse(html)
        // The re-downloads, the waits, and per policy its disk and its packs on disk.
        #expect(svgs == 1 + 1 + 2 * policies.count && broken == 0, "\(svgs) charts, \(broken) not well-formed")

        // Hovers of the re-download chart against timeseries.csv (replication 1).
        let series = try String(contentsOf: out.appendingPathComponent("timeseries.csv"), encoding: .utf8)
        var expected: [String: String] = [:]
        let header = series.split(separator: "\n")[0].split(separator: ",").map(String.init)
        let column = try #require(header.firstIndex(of: "redownload_bytes"))
        for line in series.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if f[1] == "1" { expected["\(f[0]) \(f[2])"] = f[column] }
        }
        var checked = 0
        for policy in policies {
            #expect(html.contains("data-series=\"\(policy)\""), "no series for \(policy)")
            let marker = "<title>\(policy), "
            var rest = html[...]
            while let start = rest.range(of: marker),
                let end = rest.range(of: "</title>", range: start.upperBound..<rest.endIndex)
            {
                let text = rest[start.upperBound..<end.lowerBound]
                rest = rest[end.upperBound...]
                guard let r = text.range(of: " s: redownload_bytes ") else { continue }
                let key = "\(policy) \(text[..<r.lowerBound])"
                #expect(expected[key] == String(text[r.upperBound...]), "hover \(key)")
                checked += 1
            }
        }
        #expect(checked >= 3 * 100)
        // The wait axis is logarithmic: each tick carries its own unit, the label none.
        for label in ["time (days)", "re-downloaded (GB)", "requests at or below (%)", "wait"] {
            #expect(html.contains(">\(label)<"), "no axis label \(label)")
        }

        // The browser's DOM has every chart, and the page renders to a screenshot.
        let dom = try Self.browse(page, ["--dump-dom"])
        #expect(dom.components(separatedBy: "<svg").count - 1 == svgs)
        #expect(dom.contains("Disk use over time: lru"))
        let shot = dir.appendingPathComponent("run.png")
        _ = try Self.browse(page, ["--window-size=1100,1400", "--screenshot=\(shot.path)"])
        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000)
    }

    @Test(
        """
        run of several replications: the re-download chart is the mean of timeseries.csv's replications, the band \
        their lowest and highest
        """
    )
    func runReportMeans() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("game3")
        let result = try CLI.run([
            "run", "Scenarios/game.scn", "--out", out.path, "--replications", "3", "--policy", "apple", "--policy",
            "lru",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("Re-downloaded bytes, cumulative (mean of 3 replications)"))
        #expect(Self.svgsParse(html).failures == 0)
        // By hand from the CSV: per policy and time, the three replications' values.
        let series = try String(contentsOf: out.appendingPathComponent("timeseries.csv"), encoding: .utf8)
        let header = series.split(separator: "\n")[0].split(separator: ",").map(String.init)
        let column = try #require(header.firstIndex(of: "redownload_bytes"))
        var values: [String: [Double]] = [:]
        for line in series.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            values["\(f[0]) \(f[2])", default: []].append(Double(f[column])!)
        }
        var checked = 0
        var spread = 0
        for policy in ["apple", "lru"] {
            var rest = html[...]
            let marker = "<title>\(policy), "
            while let start = rest.range(of: marker),
                let end = rest.range(of: "</title>", range: start.upperBound..<rest.endIndex)
            {
                let text = rest[start.upperBound..<end.lowerBound]
                rest = rest[end.upperBound...]
                guard let r = text.range(of: " s: redownload_bytes mean ") else { continue }
                let at = try #require(values["\(policy) \(text[..<r.lowerBound])"])
                #expect(at.count == 3)
                let mean = at.reduce(0, +) / 3
                #expect(
                    String(text[r.upperBound...])
                        == "\(String(format: "%.0f", mean)), lowest \(String(format: "%.0f", at.min()!)), highest "
                        + "\(String(format: "%.0f", at.max()!))"
                )
                checked += 1
                if at.min()! < at.max()! { spread += 1 }
            }
        }
        #expect(checked >= 2 * 100)
        // The replications differ somewhere, so the band is not a line.
        #expect(spread > 0)
    }

    @Test("compare: bars with whiskers ranked per metric, paired differences marked when their interval excludes 0")
    func compareReport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("cmp")
        let result = try CLI.run([
            "compare", "Scenarios/game.scn", "--replications", "4", "--out", out.path,
            "--policy", "apple", "--policy", "lru", "--policy", "belady",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(Self.svgsParse(html).failures == 0)
        // Each bar's hover holds its mean, as comparison.csv has it.
        let csv = try String(contentsOf: out.appendingPathComponent("comparison.csv"), encoding: .utf8).split(
            separator: "\n")
        let header = csv[0].split(separator: ",").map(String.init)
        let mean = try #require(header.firstIndex(of: "redownload_bytes_mean"))
        for line in csv.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let value = Int64(Double(f[mean])!.rounded())
            #expect(html.contains("<title>\(f[0]): \(value) ("), "no bar for \(f[0]) at \(value)")
        }
        let shot = dir.appendingPathComponent("compare.png")
        _ = try Self.browse(
            out.appendingPathComponent("report.html"), ["--window-size=1100,1400", "--screenshot=\(shot.path)"])
        #expect(try Data(contentsOf: shot).count > 20_000)
    }
}

@Suite("replay at several capacities", .serialized)
struct MultiCapacityReplayTests {
    @Test(
        """
        --capacity 1%,5%,10%,25% in one command: libCacheSim's capacities and counts, and miss-ratio curves whose \
        hovers equal summary.csv
        """
    )
    func percentCapacities() throws {
        let trace = CLI.repository.appendingPathComponent("Tests/Fixtures/traces/cloudphysics.csv")
        let reference = CLI.repository.appendingPathComponent("Tests/Fixtures/traces/cloudphysics-reference.csv")
        try #require(FileManager.default.fileExists(atPath: trace.path), "no trace fixture at \(trace.path)")
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("mrc")
        let result = try CLI.run([
            "replay", trace.path, "--capacity", "1%,5%,10%,25%", "--policy", "lru", "--policy", "fifo", "--out",
            out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(summary.count == 1 + 2 * 4)
        // libCacheSim's rows (policy, capacity, requests, misses, bytes…): the percentages of the
        // unique bytes rounded down are its capacities, and the counts are its counts.
        let expected = try String(contentsOf: reference, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("lru,") || $0.hasPrefix("fifo,") }
        let ours = summary.dropFirst().map { $0.split(separator: ",").prefix(8).joined(separator: ",") }
        #expect(Set(ours) == Set(expected.map(String.init)), "\(ours)")
        // One curve per policy, and each hover's ratio is the CSV's.
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        for line in summary.dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            #expect(html.contains("\(f[0]) at \(f[1]) bytes ("), "no point for \(f[0]) at \(f[1])")
            #expect(html.contains("object miss ratio \(f[6]), misses \(f[3])</title>"))
            #expect(html.contains("byte miss ratio \(f[7]), bytes missed \(f[5])</title>"))
        }
        #expect(html.contains("data-series=\"lru\"") && html.contains("data-series=\"fifo\""))
        #expect(ReportTests.svgsParse(html) == (2, 0))
    }
}

@Suite("odr-sim mrc")
struct MRCCommandTests {
    @Test("mrc of the CloudPhysics trace says 92,200 misses at 202,976,972 bytes, as replay --policy lru does")
    func sharedTrace() throws {
        let trace = CLI.repository.appendingPathComponent("Tests/Fixtures/traces/cloudphysics.csv")
        try #require(FileManager.default.fileExists(atPath: trace.path), "no trace fixture at \(trace.path)")
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("mrc")
        let result = try CLI.run(["mrc", trace.path, "--points", "5", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let csv = try String(contentsOf: out.appendingPathComponent("mrc.csv"), encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 1 + 5)
        #expect(
            csv[0]
                == "capacity_bytes,capacity_fraction,requests,misses,bytes_requested,bytes_missed,object_miss_ratio,"
                + "byte_miss_ratio,sample_rate,object_miss_ratio_stderr,byte_miss_ratio_stderr"
        )
        let at10 = try CLI.run(["mrc", trace.path, "--capacity", "202976972", "--out", out.path])
        #expect(at10.stdout.contains("202976972") && at10.stdout.contains("92200"), "\(at10.stdout)")
        let both = try CLI.run(["mrc", trace.path, "--points", "5", "--capacity", "1%"])
        #expect(both.status != 0 && both.stderr.contains("not both"))
        // Sampled: the estimate with its standard error, in the table and in mrc.csv.
        let sampled = try CLI.run([
            "mrc", trace.path, "--capacity", "202976972", "--sample", "0.5", "--no-report", "--out", out.path,
        ])
        #expect(sampled.status == 0, "\(sampled.stderr)")
        #expect(sampled.stdout.contains(" ± ") && sampled.stdout.contains("Estimated from"), "\(sampled.stdout)")
        let row = try String(contentsOf: out.appendingPathComponent("mrc.csv"), encoding: .utf8).split(separator: "\n")[
            1
        ].split(separator: ",")
        #expect(row[8] == "0.50000000" && Double(row[9])! > 0 && Double(row[10])! > 0, "\(row)")
        // Half the objects: within 0.02 of the exact 0.809681.
        #expect(abs(Double(row[6])! - 0.809681) < 0.02, "\(row)")
        let zero = try CLI.run(["mrc", trace.path, "--sample", "0"])
        #expect(zero.status != 0 && zero.stderr.contains("--sample must be a share of the objects"))
    }
}
