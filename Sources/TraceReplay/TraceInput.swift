/// A trace file in any ``TraceFormat`` odr-sim reads, behind one `next()`.
enum TraceInput {
    case text(TraceReader)
    case oracleGeneral(OracleGeneralReader)

    init(path: String, format: TraceFormat) throws(TraceError) {
        switch format {
        case .text(let layout): self = .text(try TraceReader(path: path, layout: layout))
        case .oracleGeneral(let compressed):
            self = .oracleGeneral(try OracleGeneralReader(path: path, compressed: compressed))
        case .lcs(let compressed):
            self = .oracleGeneral(try OracleGeneralReader(path: path, compressed: compressed, lcs: true))
        }
    }

    var fileName: String {
        switch self {
        case .text(let r): r.fileName
        case .oracleGeneral(let r): r.fileName
        }
    }

    var appNames: [String] {
        switch self {
        case .text(let r): r.appNames
        case .oracleGeneral(let r): r.appNames
        }
    }

    /// The next record; for a binary trace its `line` is the 1-based record number.
    @inline(__always)
    func next() throws(TraceError) -> TraceRecord? {
        switch self {
        case .text(let r): try r.next()
        case .oracleGeneral(let r): try r.next()?.record
        }
    }
}
