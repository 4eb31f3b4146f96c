/// How a trace file is laid out: delimited text (CSV and its cousins) or libCacheSim's
/// `oracleGeneral` binary records, plain or compressed with zstd.
///
/// ``detect(path:)`` chooses by the file's name, as `replay` does without `--format`:
/// `.zst` is compressed `oracleGeneral`, `.oracleGeneral` and `.oracleGeneral.bin` are plain
/// `oracleGeneral`, anything else is a comma-separated text trace with a header row.
public enum TraceFormat: Sendable, Hashable {
    /// Delimited text, one request a line.
    case text(TextLayout)
    /// 24-byte little-endian records `uint32 time, uint64 obj_id, uint32 size, int64
    /// next_access_vtime`; `compressed`: the same as one zstd stream.
    case oracleGeneral(compressed: Bool)
    /// libCacheSim's own `lcs` format (`lcs.h`): an 8,192-byte header (start magic
    /// `0x123456789abcdef0`, a version, an 8,000-byte statistics block, the end magic in its
    /// last 8 bytes), then records of 24 bytes (v1, oracleGeneral's) or 28 (v2: a fourth
    /// field with the operation in its low 8 bits and the tenant in its high 24; each tenant
    /// is an app); `compressed`: the same as one zstd stream.
    case lcs(compressed: Bool)

    /// The format a file's name implies.
    public static func detect(path: String) -> TraceFormat {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? path.lowercased()
        if name.hasSuffix(".lcs.zst") { return .lcs(compressed: true) }
        if name.hasSuffix(".lcs") { return .lcs(compressed: false) }
        if name.hasSuffix(".zst") { return .oracleGeneral(compressed: true) }
        if name.hasSuffix(".oraclegeneral") || name.hasSuffix(".oraclegeneral.bin") {
            return .oracleGeneral(compressed: false)
        }
        return .text(TextLayout())
    }

    /// Whether the format carries each request's next access (oracleGeneral's
    /// `next_access_vtime`), from which `belady` learns the future without a pass of its own.
    public var carriesNextAccess: Bool {
        if case .oracleGeneral = self { return true }
        return false
    }
}

/// The layout of a delimited text trace: its delimiter, whether its first line is a header,
/// and which column holds what.
///
/// With ``columns`` nil, the header row names the columns (`time`, `obj_id`, `size`, and
/// optionally `app`, in any order), as odr-sim's own traces do. With ``columns`` set, the
/// columns are found by position, as libCacheSim's `csv`/`txt` readers and webcachesim's
/// space-separated traces lay them out, and a header row, if any, is skipped.
public struct TextLayout: Sendable, Hashable {
    /// Which column (0-based) holds each field.
    public struct Columns: Sendable, Hashable {
        /// Seconds; nil when the trace has no time column (every request is then at time 0:
        /// no policy looks at times, only at order).
        public var time: Int?
        public var object: Int
        public var size: Int
        public var app: Int?

        public init(time: Int?, object: Int, size: Int, app: Int? = nil) {
            self.time = time
            self.object = object
            self.size = size
            self.app = app
        }
    }

    /// Whether the first line is a header row.
    public enum Header: Sendable, Hashable {
        case present, absent
        /// Only with ``TextLayout/columns``: the first line is a header when its object or size
        /// field is not a number.
        case detect
    }

    /// The byte between fields. A space or a tab stands for any run of spaces and tabs, and
    /// blanks at a line's start and end are ignored (space-separated traces align columns).
    public var delimiter: UInt8
    public var header: Header
    public var columns: Columns?

    public init(delimiter: UInt8 = UInt8(ascii: ","), header: Header = .present, columns: Columns? = nil) {
        precondition(columns != nil || header == .present, "without named columns the header must name them")
        self.delimiter = delimiter
        self.header = header
        self.columns = columns
    }

    /// Whether runs of blanks make one delimiter.
    var collapsesBlanks: Bool { delimiter == 0x20 || delimiter == 0x09 }
}
