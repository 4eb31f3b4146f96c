import TextInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams the records of a delimited text trace: by default a `time,obj_id,size[,app]` CSV
/// with a header row; any delimiter and columns by position with a ``TextLayout``.
///
/// By default the header names the columns, in any order; other columns are ignored. With
/// ``TextLayout/columns`` the columns are found by position and a header row is skipped;
/// without a header every line has as many fields as the first. `time` is a
/// number of seconds (integer or decimal), `obj_id` a non-negative integer, `size` a
/// non-negative integer of bytes, `app` (optional) any text naming the object's app.
/// Fields may be wrapped in double quotes (RFC 4180: a quoted field may hold delimiters,
/// and `""` stands for a quote) and padded with spaces (with a space or tab delimiter, any
/// run of blanks is one delimiter); `\r\n` line ends, a last line without a
/// line end, and blank lines are accepted. Every line has as many fields as the header. A
/// line longer than ``maximumLineLength`` or a header with a NUL byte is taken for a file
/// that is not a CSV text trace, and refused at once.
///
/// The file is read in chunks (1 MiB by default) into one reusable buffer and parsed as
/// bytes in place: no `String` per line, no whole-file load, memory independent of the
/// file's length. A malformed line is a ``TraceError`` naming the line number.
///
/// ```swift
/// let reader = try TraceReader(path: "cloudphysics.csv")
/// while let record = try reader.next() { print(record.object, record.size) }
/// ```
public final class TraceReader {
    /// The file's path as given, which messages start with (`PATH:LINE: reason`, so editors
    /// and CI annotations can jump to the line).
    public let fileName: String
    /// App names in order of first appearance; one name (the file's stem) without an `app` column.
    public var appNames: [String] { state.appNames }
    /// Whether the trace has an `app` column.
    public var hasAppColumn: Bool { state.hasAppColumn }

    private let fd: Int32
    private let delimiter: UInt8
    private let collapsesBlanks: Bool
    /// The reader's mutable state, in one container: run-time exclusivity checks on a class's
    /// properties cost more than parsing a line, and the reader is used by one caller at a
    /// time with no access left open across calls, so the check is off for this one property.
    private struct State {
        var buffer: UnsafeMutableRawPointer
        var capacity: Int
        var start = 0
        var end = 0
        var atEnd = false
        var lineNumber = 0
        // Column indices, set from the header.
        var timeColumn = -1
        var objectColumn = -1
        var sizeColumn = -1
        var appColumn = -1
        /// Fields a data line must have at least.
        var neededFields = 0
        /// Fields every data line has: as many as the header names, or as the first data line
        /// has when there is no header (-1 until then).
        var lineFields = -1
        /// Whether ``lineFields`` comes from a header row.
        var fieldsFromHeader = false
        /// Exactly the three required columns, no `app`: lines may take ``nextPlain()``.
        var plainLayout = false
        var appIndex: [[UInt8]: Int32] = [:]
        var lastApp: [UInt8] = []
        var lastAppIndex: Int32 = -1
        /// App names in order of first appearance; one name (the file's stem) without an `app` column.
        var appNames: [String] = []
        var hasAppColumn = false
    }
    @exclusivity(unchecked) private var state: State

    /// Opens the trace and reads its header (if its layout has one).
    public init(path: String, layout: TextLayout = TextLayout(), chunkSize: Int = 1 << 20) throws(TraceError) {
        let name = path
        fileName = name
        delimiter = layout.delimiter
        collapsesBlanks = layout.collapsesBlanks
        fd = PathBytes.open(path, O_RDONLY)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw TraceError(file: name, line: nil, message: "cannot open: \(reason)")
        }
        let capacity = Swift.max(chunkSize, 64)
        // One byte more than the capacity for a sentinel after the data (see ``nextPlain()``).
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity + 1, alignment: 8)
        buffer.storeBytes(of: 0, as: UInt8.self)
        state = State(buffer: buffer, capacity: capacity)

        if let columns = layout.columns {
            state.timeColumn = columns.time ?? -1
            state.objectColumn = columns.object
            state.sizeColumn = columns.size
            state.appColumn = columns.app ?? -1
            try readPositionalHeader(layout.header)
        } else {
            try readNamingHeader()
        }
        state.hasAppColumn = state.appColumn >= 0
        state.neededFields = Swift.max(state.timeColumn, state.objectColumn, state.sizeColumn, state.appColumn) + 1
        updatePlainLayout()
        if !state.hasAppColumn {
            let base = path.split(separator: "/").last.map(String.init) ?? path
            let stem = base.split(separator: ".").first.map(String.init) ?? base
            state.appNames = [stem.isEmpty ? "trace" : stem]
        }
    }

    /// A header row that names the columns: `time`, `obj_id`, `size`, optionally `app`.
    private func readNamingHeader() throws(TraceError) {
        let d = delimiter == 0x2C ? "," : delimiter == 0x09 ? "tab" : "'\(Character(Unicode.Scalar(delimiter)))'"
        let expected = delimiter == 0x2C ? "'time,obj_id,size'" : "naming time, obj_id and size, separated by \(d)"
        guard let header = try nextLine() else {
            throw TraceError(file: fileName, line: nil, message: "empty file; expected a header row \(expected)")
        }
        if memchr(header.0, 0, header.1) != nil {
            throw TraceError(file: fileName, line: 1, message: Self.binaryMessage)
        }
        var columns: [String: Int] = [:]
        for (index, field) in fields(header).enumerated() {
            var text = String(decoding: field, as: UTF8.self).lowercased()
            if index == 0 && text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            guard columns[text] == nil else {
                throw TraceError(file: fileName, line: 1, message: "header names column '\(text)' twice")
            }
            columns[text] = index
        }
        for required in ["time", "obj_id", "size"] where columns[required] == nil {
            let hint =
                columns.count == 1 && delimiter == 0x2C
                ? "; if the file is not comma-separated, give --delimiter, and --columns if it has no header"
                : " (expected \(expected) with an optional 'app'; or give --columns)"
            throw TraceError(file: fileName, line: 1, message: "header has no '\(required)' column\(hint)")
        }
        state.timeColumn = columns["time"]!
        state.objectColumn = columns["obj_id"]!
        state.sizeColumn = columns["size"]!
        state.appColumn = columns["app"] ?? -1
        state.lineFields = columns.count
        state.fieldsFromHeader = true
    }

    /// Columns given by position: skips a header row when there is one (or when `detect`
    /// finds the first line's object or size field is not a number). Without a header, the
    /// first data line fixes how many fields every line has.
    private func readPositionalHeader(_ header: TextLayout.Header) throws(TraceError) {
        guard header != .absent else { return }
        guard let first = try peekLine() else { return }
        if memchr(first.0, 0, first.1) != nil {
            throw TraceError(file: fileName, line: 1, message: Self.binaryMessage)
        }
        let fields = fields(first)
        let needed = Swift.max(state.timeColumn, state.objectColumn, state.sizeColumn, state.appColumn) + 1
        guard fields.count >= needed else {
            throw TraceError(
                file: fileName, line: 1,
                message:
                    "\(header == .present ? "the header has" : "found") \(fields.count) "
                    + "field\(fields.count == 1 ? "" : "s"), but --columns names column \(needed)"
            )
        }
        var isHeader = header == .present
        if header == .detect {
            isHeader =
                !(Self.unsigned(fields[state.objectColumn]) != nil && Self.unsigned(fields[state.sizeColumn]) != nil)
        }
        if isHeader {
            state.lineFields = fields.count
            state.fieldsFromHeader = true
            _ = try nextLine()
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
        state.buffer.deallocate()
    }

    /// The next record, or nil at the end of the file.
    public func next() throws(TraceError) -> TraceRecord? {
        if state.plainLayout, let record = nextPlain() { return record }
        while let (base, length) = try nextLine() {
            if length == 0 { continue }
            return try parse(base, length)
        }
        return nil
    }

    /// Fast path for the usual line, `digits,digits,digits\n` with the three columns in any
    /// order and no other column: parsed in one pass that also finds the line's end. Anything
    /// else (quotes, blanks, decimals, `\r\n`, a line cut by the buffer's end, an error)
    /// returns nil and leaves the line to the general path.
    @inline(__always)
    private func nextPlain() -> TraceRecord? {
        let line = UnsafePointer((state.buffer + state.start).assumingMemoryBound(to: UInt8.self))
        let available = state.end - state.start
        var values: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var i = 0
        for field in 0..<3 {
            let fieldStart = i
            var number: UInt64 = 0
            // No bounds check per digit: the byte after the data is a 0 sentinel, not a digit.
            while true {
                let digit = line[i] &- 0x30
                if digit > 9 { break }
                number = number &* 10 &+ UInt64(digit)
                i &+= 1
            }
            guard i - fieldStart > 0, i - fieldStart <= 18, i < available,
                line[i] == (field < 2 ? delimiter : 0x0A)
            else { return nil }
            i += 1
            switch field {
            case 0: values.0 = number
            case 1: values.1 = number
            default: values.2 = number
            }
        }
        state.start += i
        state.lineNumber += 1
        func value(_ column: Int) -> UInt64 { column == 0 ? values.0 : column == 1 ? values.1 : values.2 }
        return TraceRecord(
            line: state.lineNumber, time: Double(value(state.timeColumn)), object: value(state.objectColumn),
            size: Int64(value(state.sizeColumn)), app: 0)
    }

    // MARK: Lines

    /// The next line without its line end, pointing into the buffer (valid until the next call).
    private func nextLine() throws(TraceError) -> (UnsafePointer<UInt8>, Int)? {
        while true {
            if state.start < state.end, let newline = memchr(state.buffer + state.start, 0x0A, state.end - state.start)
            {
                let base = (state.buffer + state.start).assumingMemoryBound(to: UInt8.self)
                var length = newline - (state.buffer + state.start)
                state.start += length + 1
                state.lineNumber += 1
                if length > 0 && base[length - 1] == 0x0D { length -= 1 }
                return (UnsafePointer(base), length)
            }
            if state.atEnd {
                guard state.start < state.end else { return nil }
                let base = (state.buffer + state.start).assumingMemoryBound(to: UInt8.self)
                var length = state.end - state.start
                state.start = state.end
                state.lineNumber += 1
                if length > 0 && base[length - 1] == 0x0D { length -= 1 }
                return (UnsafePointer(base), length)
            }
            try refill()
        }
    }

    /// The first line, left unread.
    private func peekLine() throws(TraceError) -> (UnsafePointer<UInt8>, Int)? {
        // Called before anything is consumed: `start` is 0, so a refill keeps the data in place.
        let (savedStart, savedLine) = (state.start, state.lineNumber)
        let line = try nextLine()
        (state.start, state.lineNumber) = (savedStart, savedLine)
        return line
    }

    /// The longest line a trace may have. Real traces' lines are tens of bytes; a longer one
    /// means a file that is not a text trace, refused before it is read whole.
    public static let maximumLineLength = 1 << 20

    static let binaryMessage =
        "binary data (a NUL byte); expected a CSV text trace with a header row 'time,obj_id,size'"

    /// Keeps the unfinished line, grows the buffer if that line fills it, and reads more.
    private func refill() throws(TraceError) {
        if state.start > 0 {
            if state.end > state.start { memmove(state.buffer, state.buffer + state.start, state.end - state.start) }
            state.end -= state.start
            state.start = 0
            state.buffer.storeBytes(of: 0, toByteOffset: state.end, as: UInt8.self)
        }
        if state.end >= Self.maximumLineLength {
            let binary = memchr(state.buffer, 0, state.end) != nil
            throw TraceError(
                file: fileName, line: state.lineNumber + 1,
                message: binary
                    ? Self.binaryMessage
                    : """
                    the line is longer than \(Self.maximumLineLength >> 20) MiB with no line break; expected a CSV \
                    text trace
                    """
            )
        }
        if state.end == state.capacity {
            let grown = UnsafeMutableRawPointer.allocate(byteCount: state.capacity * 2 + 1, alignment: 8)
            grown.copyMemory(from: state.buffer, byteCount: state.end)
            state.buffer.deallocate()
            state.buffer = grown
            state.capacity *= 2
        }
        while true {
            let n = read(fd, state.buffer + state.end, state.capacity - state.end)
            if n > 0 {
                state.end += n
                state.buffer.storeBytes(of: 0, toByteOffset: state.end, as: UInt8.self)
                return
            }
            if n == 0 {
                state.atEnd = true
                return
            }
            if errno == EINTR { continue }
            throw TraceError(
                file: fileName, line: state.lineNumber + 1, message: "read failed: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: Fields

    /// Splits a line at its delimiters, trimming blanks and surrounding quotes (for a header).
    private func fields(_ line: (UnsafePointer<UInt8>, Int)) -> [UnsafeBufferPointer<UInt8>] {
        var (base, length) = line
        if collapsesBlanks {
            while length > 0 && Self.isBlank(base[0]) {
                base += 1
                length -= 1
            }
            while length > 0 && Self.isBlank(base[length - 1]) { length -= 1 }
        }
        var result: [UnsafeBufferPointer<UInt8>] = []
        var fieldStart = 0
        var i = 0
        while i <= length {
            if i == length || isDelimiter(base[i]) {
                result.append(Self.trim(base + fieldStart, i - fieldStart))
                if collapsesBlanks { while i + 1 < length && Self.isBlank(base[i + 1]) { i += 1 } }
                fieldStart = i + 1
            }
            i += 1
        }
        return result
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    @inline(__always)
    private func isDelimiter(_ byte: UInt8) -> Bool {
        byte == delimiter || (collapsesBlanks && Self.isBlank(byte))
    }

    /// Whether lines may take ``nextPlain()``: exactly the three numeric columns.
    private func updatePlainLayout() {
        state.plainLayout =
            state.neededFields == 3 && state.appColumn < 0 && state.timeColumn >= 0 && state.lineFields == 3
    }

    @inline(__always)
    private static func trim(_ base: UnsafePointer<UInt8>, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        var a = 0
        var b = count
        while a < b && (base[a] == 0x20 || base[a] == 0x09) { a += 1 }
        while b > a && (base[b - 1] == 0x20 || base[b - 1] == 0x09) { b -= 1 }
        if b - a >= 2 && base[a] == 0x22 && base[b - 1] == 0x22 {
            a += 1
            b -= 1
        }
        return UnsafeBufferPointer(start: base + a, count: b - a)
    }

    private func parse(_ base: UnsafePointer<UInt8>, _ length: Int) throws(TraceError) -> TraceRecord {
        var base = base
        var length = length
        if collapsesBlanks {
            while length > 0 && Self.isBlank(base[0]) {
                base += 1
                length -= 1
            }
            while length > 0 && Self.isBlank(base[length - 1]) { length -= 1 }
        }
        var record = TraceRecord(line: state.lineNumber, time: 0, object: 0, size: 0, app: 0)
        let (timeColumn, objectColumn, sizeColumn, appColumn, neededFields) =
            (state.timeColumn, state.objectColumn, state.sizeColumn, state.appColumn, state.neededFields)
        var i = 0
        var field = 0
        while true {
            let fieldStart = i
            // Fast path: a field of 1 to 18 plain digits (every field of a typical trace) is
            // parsed while it is scanned; anything else goes through the general parsers below.
            var number: UInt64 = 0
            while i < length {
                let digit = base[i] &- 0x30
                if digit > 9 { break }
                number = number &* 10 &+ UInt64(digit)
                i += 1
            }
            let digits = i - fieldStart
            let plain = digits > 0 && digits <= 18 && (i == length || isDelimiter(base[i])) && field != appColumn
            if !plain { i = try fieldEnd(base, length, from: fieldStart) }
            if field < neededFields {
                if plain {
                    if field == timeColumn {
                        record.time = Double(number)
                    } else if field == objectColumn {
                        record.object = number
                    } else if field == sizeColumn {
                        record.size = Int64(number)
                    }
                } else if field == timeColumn || field == objectColumn || field == sizeColumn || field == appColumn {
                    try parseField(field, Self.trim(base + fieldStart, i - fieldStart), into: &record)
                }
            }
            field += 1
            if i >= length { break }
            i += 1
            if collapsesBlanks { while i < length && Self.isBlank(base[i]) { i += 1 } }
        }
        if state.lineFields < 0 {
            // No header: the first data line sets the number of fields.
            guard field >= neededFields else {
                throw error("found \(field) field\(field == 1 ? "" : "s"), but --columns names column \(neededFields)")
            }
            state.lineFields = field
            updatePlainLayout()
        } else if field != state.lineFields {
            throw error(
                "found \(field) field\(field == 1 ? "" : "s"), but "
                    + "\(state.fieldsFromHeader ? "the header names" : "the first line has") \(state.lineFields)"
            )
        }
        return record
    }

    /// Where the field that starts at `start` ends (its comma, or the line's end). A field in
    /// double quotes may hold commas and doubled quotes, and must close on its line.
    private func fieldEnd(_ base: UnsafePointer<UInt8>, _ length: Int, from start: Int) throws(TraceError) -> Int {
        var i = start
        while i < length && (base[i] == 0x20 || base[i] == 0x09) { i += 1 }
        guard i < length, base[i] == 0x22 else {
            while i < length && !isDelimiter(base[i]) { i += 1 }
            return i
        }
        i += 1
        while true {
            guard i < length else {
                throw error("a quoted field opened at byte \(start + 1) is not closed on its line")
            }
            if base[i] == 0x22 {
                if i + 1 < length && base[i + 1] == 0x22 {
                    i += 2
                    continue
                }
                i += 1
                break
            }
            i += 1
        }
        if collapsesBlanks, i == length || Self.isBlank(base[i]) { return i }
        while i < length && (base[i] == 0x20 || base[i] == 0x09) { i += 1 }
        guard !collapsesBlanks, i == length || base[i] == delimiter else {
            throw error(
                "text after a closing quote at byte \(i + 1); a quoted field must end at a comma or the line's end")
        }
        return i
    }

    /// The general path for one field: quotes, blanks, decimals, long numbers, app names, errors.
    private func parseField(_ field: Int, _ value: UnsafeBufferPointer<UInt8>, into record: inout TraceRecord)
        throws(TraceError)
    {
        switch field {
        case state.timeColumn:
            guard let time = Self.decimal(value), time.isFinite else { throw bad("time", value) }
            record.time = time
        case state.objectColumn:
            guard let id = Self.unsigned(value) else { throw bad("obj_id", value) }
            record.object = id
        case state.sizeColumn:
            guard let size = Self.unsigned(value), size <= UInt64(Int64.max) else { throw bad("size", value) }
            record.size = Int64(size)
        case state.appColumn:
            record.app = appID(value)
        default:
            break
        }
    }

    private func appID(_ value: UnsafeBufferPointer<UInt8>) -> Int32 {
        if state.lastAppIndex >= 0 && state.lastApp.elementsEqual(value) { return state.lastAppIndex }
        let key = Array(value)
        let index: Int32
        if let known = state.appIndex[key] {
            index = known
        } else {
            index = Int32(state.appNames.count)
            state.appIndex[key] = index
            // A quoted name's doubled quotes stand for one (RFC 4180).
            var name: [UInt8] = []
            var k = 0
            while k < value.count {
                name.append(value[k])
                k += value[k] == 0x22 && k + 1 < value.count && value[k + 1] == 0x22 ? 2 : 1
            }
            state.appNames.append(String(decoding: name, as: UTF8.self))
        }
        state.lastApp = key
        state.lastAppIndex = index
        return index
    }

    private func error(_ message: String) -> TraceError {
        TraceError(file: fileName, line: state.lineNumber, message: message)
    }

    private func bad(_ column: String, _ value: UnsafeBufferPointer<UInt8>) -> TraceError {
        var text = String(decoding: value, as: UTF8.self)
        if text.count > 40 { text = String(text.prefix(40)) + "…" }
        if column == "size", text.hasPrefix("-"), Self.unsigned(UnsafeBufferPointer(rebasing: value.dropFirst())) != nil
        {
            return error("size '\(text)' is negative")
        }
        let what = column == "time" ? "a number" : "a non-negative integer"
        return error("\(column) '\(text)' is not \(what)")
    }

    // MARK: Numbers

    @inline(__always)
    static func unsigned(_ value: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !value.isEmpty, value.count <= 20 else { return nil }
        var result: UInt64 = 0
        if value.count <= 19 {
            // Up to 19 digits cannot overflow a UInt64: no overflow checks on the hot path.
            for byte in value {
                let digit = byte &- 0x30
                guard digit <= 9 else { return nil }
                result = result &* 10 &+ UInt64(digit)
            }
            return result
        }
        for byte in value {
            let digit = byte &- 0x30
            guard digit <= 9 else { return nil }
            let (times10, o1) = result.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            guard !o1 && !o2 else { return nil }
            result = sum
        }
        return result
    }

    /// Integers of up to 15 digits take the fast path (exact in a Double); anything else goes
    /// through `strtod` on a small copy, which must consume the whole field.
    @inline(__always)
    static func decimal(_ value: UnsafeBufferPointer<UInt8>) -> Double? {
        if value.count <= 15, let whole = unsigned(value) { return Double(whole) }
        guard !value.isEmpty, value.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: value.count + 1) { text -> Double? in
            for (i, byte) in value.enumerated() { text[i] = CChar(bitPattern: byte) }
            text[value.count] = 0
            var stop: UnsafeMutablePointer<CChar>?
            let result = strtod(text.baseAddress!, &stop)
            guard let stop, stop == text.baseAddress! + value.count else { return nil }
            return result
        }
    }
}
