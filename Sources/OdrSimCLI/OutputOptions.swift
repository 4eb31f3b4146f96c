import ArgumentParser
import Foundation

/// Where a command writes its report, and whether it draws the charts: `--out` and
/// `--no-report`, declared once for every command that writes a report folder.
struct OutputOptions: ParsableArguments {
    @Option(name: .customLong("out"), help: ArgumentHelp(
        "Output folder: a new or empty one, or one odr-sim wrote. Default: the command's, under Reports/ (see its description).",
        valueName: "dir"))
    var folder: String?

    @Flag(name: .customLong("no-report"), help: "Skip report.html (the charts).")
    var noReport = false

    /// The report folder, `--out` or `fallback` (`Reports/…`), claimed before any work starts
    /// (``OutputSafety``).
    func claim(default fallback: String, inputs: [String]) throws -> ReportDirectory {
        try OutputSafety.reportFolder(out: folder, default: fallback, inputs: inputs)
    }
}

/// `--jobs`: how many runs go in parallel, declared once for every command that runs several.
struct JobOptions: ParsableArguments {
    @Option(help: "Runs in parallel. Default: all cores. Results are identical for any value.")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// `--jobs`, or every core.
    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}
