/// A trace's layout as the command line describes it (`--format`, `--columns`, `--delimiter`,
/// `--header`): what replay, mrc and bound read. Each refusal names the option it is about.
extension TraceFormat {
    /// Why options do not describe a layout: a one-line reason beginning with the option.
    public struct OptionError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The layout of `path`: `named` (a format's name), else by the file name; `columns`,
    /// `delimiter` and `header` describe a text trace.
    public static func described(
        path: String, named: String?, columns: String?, delimiter: String?, header: Bool?
    ) throws(OptionError) -> TraceFormat {
        var chosen = detect(path: path)
        if let named {
            switch named.lowercased() {
            case "csv", "text", "txt": chosen = .text(TextLayout())
            case "oraclegeneral", "oraclegeneral.bin", "bin": chosen = .oracleGeneral(compressed: false)
            case "oraclegeneral.zst", "zst": chosen = .oracleGeneral(compressed: true)
            case "lcs", "lcs.zst": chosen = .lcs(compressed: named.lowercased() == "lcs.zst")
            default:
                throw OptionError(
                    """
                    --format: '\(named)' is not a trace format; use csv, oracleGeneral, oracleGeneral.zst, lcs or \
                    lcs.zst
                    """)
            }
        }
        guard case .text = chosen else {
            if columns != nil || delimiter != nil || header != nil {
                let why = named == nil ? "; its name makes it binary (give --format csv if it is text)" : ""
                throw OptionError("--columns, --delimiter and --header describe text traces, not \(path)\(why)")
            }
            return chosen
        }
        let mapping = try columns.map(TextLayout.Columns.described)
        if header == false && mapping == nil {
            throw OptionError(
                "--no-header needs --columns (time=1,id=2,size=3): without a header nothing names the columns")
        }
        let header: TextLayout.Header =
            switch header {
            case true?: .present
            case false?: .absent
            case nil: mapping == nil ? .present : .detect
            }
        return .text(TextLayout(delimiter: try TextLayout.delimiter(delimiter), header: header, columns: mapping))
    }
}

extension TextLayout {
    /// `--delimiter`: one character other than a digit, a quote or a line end; tab or space.
    static func delimiter(_ text: String?) throws(TraceFormat.OptionError) -> UInt8 {
        guard let text else { return UInt8(ascii: ",") }
        switch text.lowercased() {
        case "tab", "\\t", "\t": return 0x09
        case "space", " ": return 0x20
        case "comma": return UInt8(ascii: ",")
        default:
            guard text.utf8.count == 1, let byte = text.utf8.first, byte != 0x0A, byte != 0x0D, byte != 0x22,
                !(0x30...0x39).contains(byte)
            else {
                throw .init(
                    """
                    --delimiter: '\(text)' is not one character other than a digit, a quote or a line end (or tab, \
                    space)
                    """)
            }
            return byte
        }
    }
}

extension TextLayout.Columns {
    /// `--columns time=1,id=2,size=3[,app=4]`, columns counted from 1.
    static func described(_ text: String) throws(TraceFormat.OptionError) -> Self {
        var found: [String: Int] = [:]
        let names = ["time": "time", "id": "id", "obj_id": "id", "size": "size", "obj_size": "size", "app": "app"]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let name = names[parts[0].lowercased()] else {
                throw .init(
                    "--columns: '\(item)' is not NAME=N with NAME one of time, id, size, app (e.g. time=1,id=2,size=3)")
            }
            guard let column = Int(parts[1]), column >= 1, column <= 1_000 else {
                throw .init("--columns: '\(item)': columns are counted from 1")
            }
            guard found[name] == nil else { throw .init("--columns: '\(name)' is given twice") }
            if let other = found.first(where: { $0.value == column - 1 }) {
                throw .init("--columns: \(other.key) and \(name) are both column \(column)")
            }
            found[name] = column - 1
        }
        guard let id = found["id"], let size = found["size"] else {
            throw .init("--columns: '\(text)' must give id and size (time and app are optional)")
        }
        return Self(time: found["time"], object: id, size: size, app: found["app"])
    }
}
