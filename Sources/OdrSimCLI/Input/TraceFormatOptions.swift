import ArgumentParser
import Foundation
import Metrics
import SafeOutput
import TraceReplay

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
        let textOptions = columns != nil || delimiter != nil || header != nil
        var chosen = TraceFormat.detect(path: path)
        if json && traceFormatName == nil {
            // The layout by the name alone.
        } else if let format = traceFormatName ?? format {
            switch format.lowercased() {
            case "csv", "text", "txt": chosen = .text(TextLayout())
            case "oraclegeneral", "oraclegeneral.bin", "bin": chosen = .oracleGeneral(compressed: false)
            case "oraclegeneral.zst", "zst": chosen = .oracleGeneral(compressed: true)
            case "lcs", "lcs.zst": chosen = .lcs(compressed: format.lowercased() == "lcs.zst")
            default:
                throw CommandFailure.usage(
                    """
                    --format: '\(format)' is not a trace format; use csv, oracleGeneral, oracleGeneral.zst, lcs or \
                    lcs.zst
                    """
                )
            }
        }
        guard case .text = chosen else {
            if textOptions {
                let named = format == nil ? "; its name makes it binary (give --format csv if it is text)" : ""
                throw CommandFailure.usage(
                    "--columns, --delimiter and --header describe text traces, not \(path)\(named)")
            }
            return chosen
        }
        let mapping = try columns.map(Self.parseColumns)
        if header == false && mapping == nil {
            throw CommandFailure.usage(
                "--no-header needs --columns (time=1,id=2,size=3): without a header nothing names the columns")
        }
        let header: TextLayout.Header =
            switch header {
            case true?: .present
            case false?: .absent
            case nil: mapping == nil ? .present : .detect
            }
        return .text(TextLayout(delimiter: try Self.parseDelimiter(delimiter), header: header, columns: mapping))
    }

    static func parseDelimiter(_ text: String?) throws -> UInt8 {
        guard let text else { return UInt8(ascii: ",") }
        switch text.lowercased() {
        case "tab", "\\t", "\t": return 0x09
        case "space", " ": return 0x20
        case "comma": return UInt8(ascii: ",")
        default:
            guard text.utf8.count == 1, let byte = text.utf8.first, byte != 0x0A, byte != 0x0D, byte != 0x22,
                !(0x30...0x39).contains(byte)
            else {
                throw CommandFailure.usage(
                    """
                    --delimiter: '\(text)' is not one character other than a digit, a quote or a line end (or tab, \
                    space)
                    """
                )
            }
            return byte
        }
    }

    /// `time=1,id=2,size=3[,app=4]`, columns counted from 1.
    static func parseColumns(_ text: String) throws -> TextLayout.Columns {
        var found: [String: Int] = [:]
        let names = ["time": "time", "id": "id", "obj_id": "id", "size": "size", "obj_size": "size", "app": "app"]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let name = names[parts[0].lowercased()] else {
                throw CommandFailure.usage(
                    "--columns: '\(item)' is not NAME=N with NAME one of time, id, size, app (e.g. time=1,id=2,size=3)")
            }
            guard let column = Int(parts[1]), column >= 1, column <= 1_000 else {
                throw CommandFailure.usage("--columns: '\(item)': columns are counted from 1")
            }
            guard found[name] == nil else { throw CommandFailure.usage("--columns: '\(name)' is given twice") }
            if let other = found.first(where: { $0.value == column - 1 }) {
                throw CommandFailure.usage("--columns: \(other.key) and \(name) are both column \(column)")
            }
            found[name] = column - 1
        }
        guard let id = found["id"], let size = found["size"] else {
            throw CommandFailure.usage("--columns: '\(text)' must give id and size (time and app are optional)")
        }
        return TextLayout.Columns(time: found["time"], object: id, size: size, app: found["app"])
    }
}
