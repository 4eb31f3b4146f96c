import CZstd
import TextInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams libCacheSim's `oracleGeneral` binary traces: 24-byte little-endian records of
/// `uint32 time, uint64 obj_id, uint32 size, int64 next_access_vtime`, plain or compressed
/// with zstd (`.zst`, decompressed as a stream: never whole in memory or on disk).
///
/// A file whose length is not a whole number of records is refused at its end, saying how
/// many records were read; a zstd stream cut short is refused the same way.
public final class OracleGeneralReader {
    public static let recordSize = 24
    /// The bytes of one record: 24 (oracleGeneral, lcs v1) or 28 (lcs v2).
    @exclusivity(unchecked) public private(set) var recordLength = OracleGeneralReader.recordSize
    /// The bytes before the first record: lcs's header (``lcsHeaderBytes``), or none.
    private var headerBytes = 0
    /// lcs v2: each tenant's app index, in the order the trace first names them.
    private var tenants: [UInt32: Int32] = [:]
    public let fileName: String
    /// One app, named after the file (the format has no app field); for lcs v2, one per
    /// tenant (`tenant-7`), in the order the trace first names them.
    public private(set) var appNames: [String]

    /// lcs's header: `lcs_trace_header_t` of libCacheSim's `lcs.h`, 1,024 × 8 bytes.
    public static let lcsHeaderBytes = 8192
    public static let lcsMagic: UInt64 = 0x1234_5678_9abc_def0
    private let file: UnsafeMutablePointer<FILE>
    private let stream: OpaquePointer?
    // Performance: the buffers are plain blocks held in `let`s. Reaching an array property's
    // bytes through `withUnsafeBytes` is an access of the property that spans a closure, so
    // Swift checked its exclusivity at run time, twice per record: a tenth of a replay.
    private let input: UnsafeMutableRawBufferPointer
    private var inputStart = 0, inputEnd = 0
    private let output: UnsafeMutableRawBufferPointer
    // Performance: `next()` reads these and the record length and moves two counters on
    // every record, and Swift checked the exclusivity of each access to a class's stored
    // property at run time (a twentieth of a replay). A reader is used by one thread and no
    // access to them spans a call, so the check could never fire.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    private var finished = false
    /// Records handed out so far.
    @exclusivity(unchecked) public private(set) var records = 0
    /// Whether the zstd decoder ended a frame cleanly at the last byte it consumed.
    private var frameComplete = true

    public init(path: String, compressed: Bool, lcs: Bool = false) throws(TraceError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        fileName = name
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        appNames = [stem.isEmpty ? "trace" : InputText.oneLine(stem)]
        guard let handle = PathBytes.withCString(path, { fopen($0, "rb") }) else {
            throw TraceError(file: name, line: nil, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        file = handle
        stream = compressed ? ZSTD_createDStream() : nil
        if compressed { ZSTD_initDStream(stream) }
        input = .allocate(byteCount: compressed ? Int(ZSTD_DStreamInSize()) : 0, alignment: 16)
        output = .allocate(byteCount: max(1 << 20, compressed ? Int(ZSTD_DStreamOutSize()) : 0), alignment: 16)
        if lcs { try readLCSHeader() }
    }

    /// Checks lcs's header (both magics, a version this reader reads) and steps past it.
    private func readLCSHeader() throws(TraceError) {
        while end - start < Self.lcsHeaderBytes {
            guard try refill() else {
                throw TraceError(
                    file: fileName, line: nil,
                    message:
                        "not an lcs trace: \(end - start) bytes, shorter than lcs's \(Self.lcsHeaderBytes)-byte header")
            }
        }
        let p = UnsafeRawPointer(output.baseAddress! + start)
        let magic = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
        let version = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let endMagic = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: Self.lcsHeaderBytes - 8, as: UInt64.self))
        func hex(_ x: UInt64) -> String { "0x" + String(x, radix: 16) }
        guard magic == Self.lcsMagic else {
            throw TraceError(
                file: fileName, line: nil,
                message: "not an lcs trace: it starts with \(hex(magic)), not lcs's magic \(hex(Self.lcsMagic))")
        }
        guard endMagic == Self.lcsMagic else {
            throw TraceError(
                file: fileName, line: nil,
                message:
                    """
                    not an lcs trace: its header ends with \(hex(endMagic)), not lcs's magic \(hex(Self.lcsMagic)) \
                    (cut short, or another header size)
                    """
            )
        }
        switch version {
        case 1: recordLength = 24
        case 2:
            recordLength = 28
            appNames = []
        default:
            throw TraceError(
                file: fileName, line: nil, message: "lcs version \(version) is not read here (versions 1 and 2 are)")
        }
        start += Self.lcsHeaderBytes
        headerBytes = Self.lcsHeaderBytes
    }

    /// How many records the file holds, when that is known before reading it: its length
    /// over 24 for a plain file; nil for a zstd stream.
    public var recordCount: Int? {
        guard stream == nil else { return nil }
        var info = stat()
        guard fstat(fileno(file), &info) == 0 else { return nil }
        return max(0, Int(info.st_size) - headerBytes) / recordLength
    }

    deinit {
        input.deallocate()
        output.deallocate()
        fclose(file)
        if let stream { ZSTD_freeDStream(stream) }
    }

    /// Moves unread bytes to the front of the output buffer and fills the rest; false at the end.
    private func refill() throws(TraceError) -> Bool {
        if start > 0 {
            let left = end - start
            if left > 0 { memmove(output.baseAddress!, output.baseAddress! + start, left) }
            start = 0
            end = left
        }
        guard !finished else { return false }
        let before = end
        if let stream {
            while end == before && !finished {
                if inputStart == inputEnd {
                    let n = fread(input.baseAddress!, 1, input.count, file)
                    if n == 0 {
                        finished = true
                        if !frameComplete {
                            throw TraceError(
                                file: fileName, line: nil,
                                message: """
                                    the zstd stream ends in the middle of a frame, after \(records) whole \
                                    records
                                    """
                            )
                        }
                        break
                    }
                    inputStart = 0
                    inputEnd = n
                }
                var inb = ZSTD_inBuffer(src: input.baseAddress!, size: inputEnd, pos: inputStart)
                var outb = ZSTD_outBuffer(dst: output.baseAddress!, size: output.count, pos: end)
                let code = ZSTD_decompressStream(stream, &outb, &inb)
                inputStart = inb.pos
                end = outb.pos
                let result = ZSTD_isError(code) != 0 ? -1 : Int(code)
                if result < 0 {
                    throw TraceError(
                        file: fileName, line: nil, message: "not a valid zstd stream (after \(records) records)")
                }
                frameComplete = result == 0
            }
        } else {
            let n = fread(output.baseAddress! + end, 1, output.count - end, file)
            if n == 0 { finished = true } else { end += n }
        }
        return end > before
    }

    /// The object ID of the record `ahead` records after the one last read, if it is already
    /// in the buffer (nil otherwise): for loading what it will need ahead of time.
    @inline(__always)
    public func object(ahead: Int) -> UInt64? {
        let at = start + (ahead - 1) * recordLength
        guard ahead >= 1, at + recordLength <= end else { return nil }
        return UInt64(littleEndian: (output.baseAddress! + at).loadUnaligned(fromByteOffset: 4, as: UInt64.self))
    }

    /// The next record, or nil at the end of the trace; `next_access_vtime` is `nextAccess`.
    ///
    /// Performance: inlined into the scan's loop, with refilling the buffer and naming a
    /// tenant out of line, so that a record costs its loads and the fields nobody reads
    /// (its line, an app that is always 0) are never made.
    @inline(__always)
    public func next() throws(TraceError) -> (record: TraceRecord, nextAccess: Int64)? {
        if end - start < recordLength {
            guard try fill() else { return nil }
        }
        let p = UnsafeRawPointer(output.baseAddress! + start)
        // lcs v2 puts the operation (low 8 bits) and the tenant (high 24) before the next access.
        let wide = recordLength == 28
        let fields = (
            UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)),
            UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt64.self)),
            UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self)),
            Int64(littleEndian: p.loadUnaligned(fromByteOffset: wide ? 20 : 16, as: Int64.self))
        )
        let app = wide ? tenant(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 16, as: UInt32.self)) >> 8) : 0
        start += recordLength
        records += 1
        return (
            TraceRecord(line: records, time: Double(fields.0), object: fields.1, size: Int64(fields.2), app: app),
            fields.3
        )
    }

    /// Refills the buffer until it holds a whole record: false at the end of the trace, an
    /// error if bytes are left over there.
    @inline(never)
    private func fill() throws(TraceError) -> Bool {
        while end - start < recordLength {
            guard try refill() else {
                if end - start > 0 {
                    throw TraceError(
                        file: fileName, line: nil,
                        message:
                            """
                            truncated: \(records) whole records read, then \(end - start) bytes (records are \
                            \(recordLength) bytes)
                            """
                    )
                }
                return false
            }
        }
        return true
    }

    /// The app of lcs v2's `tenant`, named on its first record.
    @inline(never)
    private func tenant(_ tenant: UInt32) -> Int32 {
        if let known = tenants[tenant] { return known }
        let app = Int32(appNames.count)
        tenants[tenant] = app
        appNames.append("tenant-\(tenant)")
        return app
    }
}
