#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZstd

/// Streams libCacheSim's `oracleGeneral` binary traces: 24-byte little-endian records of
/// `uint32 time, uint64 obj_id, uint32 size, int64 next_access_vtime`, plain or compressed
/// with zstd (`.zst`, decompressed as a stream: never whole in memory or on disk).
///
/// A file whose length is not a whole number of records is refused at its end, saying how
/// many records were read; a zstd stream cut short is refused the same way.
public final class OracleGeneralReader {
    public static let recordSize = 24
    public let fileName: String
    /// One app, named after the file (the format has no app field).
    public let appNames: [String]
    private let file: UnsafeMutablePointer<FILE>
    private let stream: OpaquePointer?
    // Performance: the buffers are plain blocks held in `let`s. Reaching an array property's
    // bytes through `withUnsafeBytes` is an access of the property that spans a closure, so
    // Swift checked its exclusivity at run time, twice per record: a tenth of a replay.
    private let input: UnsafeMutableRawBufferPointer
    private var inputStart = 0, inputEnd = 0
    private let output: UnsafeMutableRawBufferPointer
    private var start = 0, end = 0
    private var finished = false
    /// Records handed out so far.
    public private(set) var records = 0
    /// Whether the zstd decoder ended a frame cleanly at the last byte it consumed.
    private var frameComplete = true

    public init(path: String, compressed: Bool) throws(TraceError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        fileName = name
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        appNames = [stem.isEmpty ? "trace" : stem]
        guard let handle = fopen(path, "rb") else {
            throw TraceError(file: name, line: nil, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        file = handle
        stream = compressed ? ZSTD_createDStream() : nil
        if compressed { ZSTD_initDStream(stream) }
        input = .allocate(byteCount: compressed ? Int(ZSTD_DStreamInSize()) : 0, alignment: 16)
        output = .allocate(byteCount: max(1 << 20, compressed ? Int(ZSTD_DStreamOutSize()) : 0), alignment: 16)
    }

    /// How many records the file holds, when that is known before reading it: its length
    /// over 24 for a plain file; nil for a zstd stream.
    public var recordCount: Int? {
        guard stream == nil else { return nil }
        var info = stat()
        guard fstat(fileno(file), &info) == 0 else { return nil }
        return Int(info.st_size) / Self.recordSize
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
                            throw TraceError(file: fileName, line: nil,
                                             message: "the zstd stream ends in the middle of a frame, after \(records) whole records")
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
                    throw TraceError(file: fileName, line: nil, message: "not a valid zstd stream (after \(records) records)")
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
        let at = start + (ahead - 1) * Self.recordSize
        guard ahead >= 1, at + Self.recordSize <= end else { return nil }
        return UInt64(littleEndian: (output.baseAddress! + at).loadUnaligned(fromByteOffset: 4, as: UInt64.self))
    }

    /// The next record, or nil at the end of the trace; `next_access_vtime` is `nextAccess`.
    public func next() throws(TraceError) -> (record: TraceRecord, nextAccess: Int64)? {
        while end - start < Self.recordSize {
            guard try refill() else {
                if end - start > 0 {
                    throw TraceError(file: fileName, line: nil,
                                     message: "truncated: \(records) whole records read, then \(end - start) bytes (records are \(Self.recordSize) bytes)")
                }
                return nil
            }
        }
        let p = UnsafeRawPointer(output.baseAddress! + start)
        let fields = (UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)),
                      UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt64.self)),
                      UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self)),
                      Int64(littleEndian: p.loadUnaligned(fromByteOffset: 16, as: Int64.self)))
        start += Self.recordSize
        records += 1
        return (TraceRecord(line: records, time: Double(fields.0), object: fields.1, size: Int64(fields.2), app: 0), fields.3)
    }
}
