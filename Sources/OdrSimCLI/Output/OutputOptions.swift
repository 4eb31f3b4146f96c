import ArgumentParser
import Experiments
import Foundation
import Metrics
import Quantities
import Reports
import SafeOutput
import ScenarioFile

/// `--out`: the folder a command writes, declared once for every command that writes one.
package struct FolderOption: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("out"),
        help: ArgumentHelp(
            """
            Output folder: a new or empty one, or one odr-sim wrote. Default: the command's, under Reports/ (see its \
            description).
            """,
            valueName: "dir"))
    package var folder: String?

    /// The report folder, `--out` or `fallback` (`Reports/…`), claimed before any work starts
    /// (``OutputSafety``).
    package func claim(default fallback: String, inputs: [String]) throws -> ReportDirectory {
        try OutputSafety.reportFolder(out: folder, default: fallback, inputs: inputs)
    }
}

/// Where a command writes its report, and whether it draws the charts: `--out` and
/// `--no-report`, for every command whose folder holds a report.html.
package struct OutputOptions: ParsableArguments {
    package init() {}

    @OptionGroup package var destination: FolderOption

    @Flag(name: .customLong("no-report"), help: "Skip report.html (the charts).")
    package var noReport = false

    package var folder: String? { destination.folder }

    package func claim(default fallback: String, inputs: [String]) throws -> ReportDirectory {
        try destination.claim(default: fallback, inputs: inputs)
    }
}

/// How runs are made, declared once for every command that runs several: `--jobs`, and the
/// plug-in policies they may use (loaded by `OdrSim.main` before parsing, ``PluginLoader``).
struct JobOptions: ParsableArguments {
    @Option(help: "Runs in parallel. Default: all cores. Results are identical for any value.")
    var jobs: Int?

    @Option(
        name: .customLong("policy-plugin"),
        help: ArgumentHelp(
            """
            Load a purge policy from a plug-in (repeatable): a C shared library (odrsim_policy.h; \
            scripts/build-plugin) or a Python class (lru.py:LRU); its name then works with --policy and as an \
            app's strategy. docs/plugins.md.
            """,
            valueName: "path[:name[:options]]"))
    var policyPlugins: [String] = []

    func validate() throws { if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") } }

    /// `--jobs`, or every core.
    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}

/// `--warmup`: the start of every run left out of every metric, declared once for `run`,
/// `compare` and `sweep`.
struct WarmupOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Leave the first DURATION of every run out of every metric (e.g. 1d): counts, bytes, waits and the peak \
            start at its end, with the device as the warm-up left it; events.csv and the time series keep \
            everything. compare takes `auto`: MSER-5 on a first pass's re-downloads chooses it.
            """,
            valueName: "duration"))
    var warmup: String?

    /// `--warmup auto` is compare's alone (it needs a first pass to choose one).
    func refuseAuto() throws {
        guard isAuto else { return }
        throw CommandFailure.usage(
            "--warmup auto: compare chooses a warm-up (MSER-5); give this command a duration such as 1d")
    }

    /// The warm-up in seconds (0 without one; ``Experiments/Warmup``).
    func seconds(shortestRun duration: Double, bound: Bool = false) throws -> Double {
        guard let warmup else { return 0 }
        do { return try Warmup.seconds(warmup, shortestRun: duration, bound: bound) } catch {
            throw CommandFailure.usage(error.description)
        }
    }

    /// `--warmup auto` (MSER-5 on a first pass).
    var isAuto: Bool { warmup == "auto" }
}

/// `--bound` of run and compare: each run's re-downloads against the fewest any purge order
/// could have (``Experiments/RedownloadBound``).
struct BoundOption: ParsableArguments {
    @Flag(
        help:
            """
            Also bound each run's re-downloaded bytes from below (what no purge order could avoid, given its grants) \
            and write DIR/bounds.csv with each policy's gap to it.
            """
    )
    var bound = false
}
