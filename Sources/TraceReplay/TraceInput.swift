/// A trace file in any format odr-sim reads, chosen by its name: libCacheSim's
/// `oracleGeneral` binary (`.oracleGeneral`, `.oracleGeneral.bin`), the same compressed with
/// zstd (`.zst`), or otherwise a `time,obj_id,size[,app]` CSV text trace.
enum TraceInput {
    case csv(TraceReader)
    case oracleGeneral(OracleGeneralReader)

    init(path: String) throws(TraceError) {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? path.lowercased()
        if name.hasSuffix(".zst") {
            self = .oracleGeneral(try OracleGeneralReader(path: path, compressed: true))
        } else if name.hasSuffix(".oraclegeneral") || name.hasSuffix(".oraclegeneral.bin") {
            self = .oracleGeneral(try OracleGeneralReader(path: path, compressed: false))
        } else {
            self = .csv(try TraceReader(path: path))
        }
    }

    var fileName: String {
        switch self {
        case .csv(let r): r.fileName
        case .oracleGeneral(let r): r.fileName
        }
    }

    var appNames: [String] {
        switch self {
        case .csv(let r): r.appNames
        case .oracleGeneral(let r): r.appNames
        }
    }

    /// The next record; for a binary trace its `line` is the 1-based record number.
    @inline(__always)
    func next() throws(TraceError) -> TraceRecord? {
        switch self {
        case .csv(let r): try r.next()
        case .oracleGeneral(let r): try r.next()?.record
        }
    }
}
