import ArgumentParser
import Foundation
import ODRPolicies
import TraceReplay

/// `odr-sim replay`: replays a cache trace through the ODR core under one or more policies.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a time,obj_id,size cache trace through the ODR device, once per purge policy.",
        discussion: """
            Every object of the trace becomes a single-resource tag (one asset pack); an
            optional 'app' column assigns objects to apps. Each line requests its object
            and ends access at once; a request for an object not on the disk is a miss,
            counted with its bytes, and the device purges by the policy to store it.
            Objects larger than the disk are misses that store nothing.

            SIZE is bytes (202976972) or a number with a unit: 512MB, 64MiB, 1.5GB
            (MB = 10^6 bytes, MiB = 2^20 bytes).

            The results go to DIR/summary.csv (default Reports/replay-<trace file name>/)
            and to the terminal as a table. Nothing is written when anything fails.

            Example:
              odr-sim replay traces/cloudphysics.csv --capacity 202976972 --policy lru --policy belady
              odr-sim replay app-trace.csv --capacity 1.5GB --policy android-quota --out Reports/android
            """)

    @Argument(help: "The trace: a CSV with a header row naming time, obj_id, size (and optionally app).")
    var trace: String

    @Option(help: "Disk capacity, e.g. 202976972, 512MB, 64MiB, 1.5GB.")
    var capacity: String

    @Option(name: .customLong("policy"), help: "A purge policy (repeatable; see 'odr-sim policies').")
    var policies: [String] = []

    @Option(help: "Seed for stochastic policies such as 'random'.")
    var seed: UInt64 = 0

    @Option(name: .customLong("out"), help: "Report directory (default: Reports/replay-<trace file name>).")
    var outDirectory: String?

    func validate() throws {
        if case .failure(let error) = SizeParser.parse(capacity) {
            throw ValidationError("--capacity: \(error)")
        }
        for name in policies where PolicyRegistry.descriptor(named: name) == nil {
            throw ValidationError("unknown policy '\(name)'; known: \(PolicyRegistry.names.joined(separator: ", "))")
        }
    }

    func run() throws {
        let bytes = try SizeParser.parse(capacity).get()
        let chosen = (policies.isEmpty ? ["lru"] : policies).map { PolicyRegistry.descriptor(named: $0)! }
        let results: [ReplayResult]
        do {
            results = try TraceReplayer(path: trace).replay(capacity: bytes, policies: chosen, context: PolicyContext(seed: seed))
        } catch {
            throw CommandFailure(message: error.description)
        }
        let out = outDirectory ?? "Reports/replay-\(URL(fileURLWithPath: trace).lastPathComponent)"
        do {
            try ReportDirectory(out).commit([(name: "summary.csv", contents: ReplayReport.csv(results))])
        } catch {
            throw CommandFailure(message: "cannot write \(out): \(error.localizedDescription)")
        }
        print(ReplayReport.table(results), terminator: "")
        print("wrote \(out)/summary.csv")
    }
}

/// A failure reported as one line on standard error, with a non-zero exit status.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
