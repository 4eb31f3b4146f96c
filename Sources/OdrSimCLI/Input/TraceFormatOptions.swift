import ArgumentParser
import Foundation
import Metrics
import SafeOutput
import TraceReplay

/// The trace a command reads and how it is laid out: `replay`'s, `mrc`'s and `bound`'s.
struct TraceInputOptions: ParsableArguments {
    @Argument(
        help:
            """
            The trace: a CSV with a header row naming time, obj_id, size (and optionally app), another delimited \
            text (--columns), or libCacheSim's oracleGeneral (.zst).
            """
    )
    var trace: String

    @OptionGroup(title: "Trace format")
    var format: TraceFormatOptions

    /// The trace's layout (``TraceFormatOptions/traceFormat(path:)``).
    func traceFormat() throws -> TraceFormat { try format.traceFormat(path: trace) }

    /// Whether stdout gets the JSON summary (`--format json`).
    var json: Bool { format.json }

    /// The report folder's default name: `PREFIX-<trace file name>`.
    func defaultReport(_ prefix: String) -> String {
        OutputSafety.defaultReport(prefix + "-" + URL(fileURLWithPath: trace).lastPathComponent)
    }
}

/// The options that say how a trace file is laid out, shared by `replay`, `mrc` and `bound`.
///
/// `--format` names the trace's layout, as it always has; `--format json` instead asks for
/// the JSON summary on stdout (as on every command), the layout then coming from the name
/// or from `--trace-format`.
struct TraceFormatOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            The trace's layout: csv (delimited text), oracleGeneral, oracleGeneral.zst, lcs or lcs.zst (default: by \
            the file name: .lcs, .lcs.zst, .zst, .oracleGeneral, else csv); or json: print a JSON summary for \
            scripts instead of tables (the layout then by name or --trace-format).
            """,
            valueName: "format"))
    var format: String?

    @Option(
        name: .customLong("trace-format"),
        help: ArgumentHelp("The trace's layout, as --format names it, beside --format json.", valueName: "format"))
    var traceFormatName: String?

    /// Whether stdout gets the JSON summary (`--format json`).
    var json: Bool { format?.lowercased() == "json" }

    @Option(
        help: ArgumentHelp(
            """
            Text traces: which column (from 1) holds what, e.g. time=1,id=2,size=3 (also app=N; time may be left \
            out). Default: the header row names them.
            """,
            valueName: "name=N,…"))
    var columns: String?

    @Option(
        help: ArgumentHelp(
            """
            Text traces: the field delimiter, one character, or tab or space (space: any run of blanks). Default: \
            ','.
            """,
            valueName: "char"))
    var delimiter: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            """
            Text traces: whether the first line is a header row. Default: yes without --columns; with --columns, a \
            first line whose id or size is not a number.
            """
    )
    var header: Bool?

    /// The format these options give for `path`; errors name the option.
    func traceFormat(path: String) throws -> TraceFormat {
        // With --format json, the layout by the name alone or --trace-format.
        let named = json ? traceFormatName : traceFormatName ?? format
        do {
            return try TraceFormat.described(
                path: path, named: named, columns: columns, delimiter: delimiter, header: header)
        } catch { throw CommandFailure.usage(error.description) }
    }
}
