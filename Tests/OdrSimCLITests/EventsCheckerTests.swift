import Experiments
import Foundation
import Metrics
import ODRPolicies
import ScenarioFile
import Testing

/// Issue 18: `events.csv` is a complete record. A small checker reads it as a researcher
/// would (the documented meaning of each row and column, nothing from the simulator) and
/// rebuilds every count of `summary.csv`.
@Suite("events.csv reproduces summary.csv")
struct EventsCheckerTests {
    /// What a run's rows of events.csv say, summed the way README's "events.csv" describes.
    struct Books {
        var counts: [String: Double] = [:]
        var waits: [Double] = []
        /// Problems with the record itself (a download that ends twice, an unknown row).
        var problems: [String] = []

        init(rows: [[String: String]]) {
            // Per pack (app/pack), the download under way: whether it is a re-download, and
            // what its start said it would fetch.
            var open: [String: (redownload: Bool, toFetch: Int64)] = [:]
            func add(_ metric: String, _ value: Double = 1) { counts[metric, default: 0] += value }
            for metric in SummaryRow.metricColumns { counts[metric] = 0 }
            for row in rows {
                let event = row["event"]!
                let detail = row["detail"]!
                let bytes = Int64(row["bytes"]!) ?? 0
                let pack = row["app"]! + "/" + row["pack"]!
                func closeDownload(finished: Bool) {
                    guard let download = open.removeValue(forKey: pack) else {
                        problems.append("\(event) of \(pack) at \(row["time_s"]!) without a download_start")
                        return
                    }
                    if finished && bytes != download.toFetch {
                        problems.append("\(pack) fetched \(bytes) bytes, its start said \(download.toFetch)")
                    }
                    add("downloaded_bytes", Double(bytes))
                    if download.redownload { add("redownload_bytes", Double(bytes)) }
                }
                switch event {
                case "request": add("requests")
                case "grant":
                    add("granted")
                    if detail == "hit" { add("hits") }
                    waits.append(Double(row["wait_s"]!)!)
                case "fail":
                    add("failed_requests")
                    let column = [
                        "out-of-space": "failed_out_of_space", "no-network": "failed_no_network",
                        "cellular-not-allowed": "failed_cellular", "in-use-limit": "failed_in_use_limit",
                        "invalid-tag": "failed_invalid_tag", "app-not-installed": "failed_app_not_installed",
                    ][detail]
                    if let column { add(column) } else { problems.append("fail for an unknown reason '\(detail)'") }
                case "cancel": add("cancelled")
                case "conditional_miss": add("conditional_misses")
                case "pending": add("pending_at_end")
                case "install_failed": add("install_failures")
                case "terminate": if detail == "out-of-space" { add("app_terminations") }
                case "low_disk_warning": add("low_disk_notifications")
                case "purge":
                    add("purges")
                    add("purged_bytes", Double(bytes))
                case "purge_episode":
                    add("purge_episodes")
                    add("over_purge_bytes", Double(Int64(row["purged_bytes"]!)! - Int64(row["needed_bytes"]!)!))
                case "disk_change":
                    if detail.hasPrefix("refused ") { add("refused_other_bytes", Double(Int64(detail.dropFirst(8))!)) }
                case "download_start":
                    if open[pack] != nil { problems.append("\(pack) started twice at \(row["time_s"]!)") }
                    open[pack] = (detail == "redownload", bytes)
                case "download_finish":
                    add("downloads")
                    closeDownload(finished: true)
                case "download_abandon": closeDownload(finished: false)
                case "download_pending": closeDownload(finished: false)
                case "install", "launch", "uninstall", "end", "pause", "resume", "set_priority", "preserve",
                    "download_stall", "download_continue", "prefetch_skipped", "download_declined", "pack_outdated",
                    "pack_obsolete_removed", "link":
                    break
                default: problems.append("unknown event '\(event)'")
                }
            }
            // download_pending rows close every download still open at the end.
            for pack in open.keys.sorted() { problems.append("download of \(pack) never closed") }
        }

        /// The nearest-rank percentile (the smallest wait with at least p % of waits at or below it).
        func percentile(_ p: Double) -> Double {
            guard !waits.isEmpty else { return 0 }
            let sorted = waits.sorted()
            let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
            return sorted[max(rank, 1) - 1]
        }
    }

    static func rows(of text: String) throws -> [[String: String]] {
        let records = try CSVReader.records(text)
        let header = records[0].fields
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0.fields)) }
    }

    @Test("for every shipped scenario under every policy", arguments: BooksTests.shipped)
    func shipped(name: String) throws {
        let path = CLI.repository.appendingPathComponent("Scenarios/\(name).scn").path
        let scenario = try ScenarioParser(knownPolicies: PolicyRegistry.names).parseFile(atPath: path).scenario
        let results = try ExperimentRunner(
            scenario: scenario, policies: PolicyRegistry.all, replications: 1,
            sampleInterval: 0, recordsEvents: true, jobs: 2
        ).run()
        #expect(results.count == PolicyRegistry.names.count)
        for result in results {
            let summary = result.summary
            let books = Books(rows: try Self.rows(of: RunRecorder.eventsHeader + result.eventRows))
            let run = "\(name) \(summary.policy)"
            #expect(books.problems.isEmpty, "\(run): \(books.problems.prefix(3))")
            // Every count (peak_used_bytes is a level, not an event total: timeseries.csv; the
            // platform metrics' launch waits are checked by hand in PlatformModelTests).
            for metric in Metric.classic where metric.unit != .seconds && metric != .peakUsedBytes {
                #expect(books.counts[metric.column] == summary[metric], "\(run): \(metric.column)")
            }
            // Waits: wait_s is written to the microsecond, as the summary's seconds are.
            for (metric, value) in [
                (Metric.waitP50, books.percentile(50)), (.waitP95, books.percentile(95)),
                (.waitP99, books.percentile(99)),
            ] {
                #expect(abs(value - summary[metric]) < 1e-6, "\(run): \(metric) \(value) vs \(summary[metric])")
            }
            let mean = books.waits.isEmpty ? 0 : books.waits.reduce(0, +) / Double(books.waits.count)
            #expect(abs(mean - summary[.waitMean]) < 1e-6, "\(run): wait_mean_s")
            // The books balance from the events alone.
            let outcomes = ["granted", "failed_requests", "cancelled", "conditional_misses", "pending_at_end"]
                .reduce(0.0) { $0 + books.counts[$1]! }
            #expect(books.counts["requests"] == outcomes, "\(run): requests vs outcomes")
        }
    }
}
