import Foundation

/// The one reader of odr-sim's text inputs: scenarios, studies, telemetry traces, baselines,
/// sweep shard files and advise exchange files all come through ``read(_:)``, so each is
/// read the same way whatever wrote it:
///
/// - a byte-order mark at the start is dropped, and CRLF line ends read as LF (a file saved
///   on Windows reads as the same file saved elsewhere; line and column numbers are unchanged);
/// - a NUL byte, or bytes that are not UTF-8, are refused at their line and column: such a
///   file is not text, and a NUL must never reach a message or a parser;
/// - a folder, a named pipe, a device or a socket is refused by what it is, before it is
///   opened (opening a pipe would wait for a writer; `/dev/zero` would never end).
///
/// ``oneLine(_:)`` is the other half: a name taken from a file or a path, made one safe line
/// before it goes into a message or a comment of a file odr-sim writes.
public enum InputText {
    /// Why a file is not readable text, with the place (line and column from 1; 1:1 when
    /// the file as a whole is refused).
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { message }
    }

    /// The largest input read whole: 4 GiB (a telemetry trace of tens of millions of rows).
    public static let maximumBytes: Int64 = 1 << 32

    /// The text of the file at `path`, normalized as the type describes.
    public static func read(_ path: String) throws(Failure) -> String {
        func whole(_ message: String) -> Failure { Failure(line: 1, column: 1, message: message) }
        guard let status = PathBytes.status(path) else {
            let reason = errno
            if reason == ENOENT || reason == ENOTDIR { throw whole("no such file") }
            throw whole("cannot read the file: \(String(cString: strerror(reason)))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw whole("is a directory, not a file")
        case S_IFIFO: throw whole("is a named pipe (FIFO), not a file; save its contents to a file first")
        case S_IFCHR, S_IFBLK: throw whole("is a device, not a file")
        case S_IFSOCK: throw whole("is a socket, not a file")
        default: throw whole("is not a regular file")
        }
        guard Int64(status.st_size) <= maximumBytes else {
            throw whole("is \(status.st_size) bytes; odr-sim reads text inputs of at most \(maximumBytes) bytes")
        }
        // Read with open(2) and read(2): Foundation's Data(contentsOf:) leaks a buffer on an
        // empty file (LeakSanitizer, FuzzTelemetry), and the size is known from stat.
        let descriptor = PathBytes.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw whole("cannot read the file: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: Swift.max(4096, bytes.count))) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw whole("cannot read the file: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            filled += count
            guard Int64(filled) <= maximumBytes else {
                throw whole(
                    "is more than \(maximumBytes) bytes; odr-sim reads text inputs of at most \(maximumBytes) bytes")
            }
        }
        bytes.removeSubrange(filled...)
        return try text(bytes)
    }

    /// `data` as text, normalized as the type describes.
    public static func text(_ data: Data) throws(Failure) -> String {
        try text([UInt8](data))
    }

    /// `bytes` as text, normalized as the type describes.
    public static func text(_ bytes: [UInt8]) throws(Failure) -> String {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let nul = bytes.firstIndex(of: 0) {
            let (line, column) = place(of: nul, in: bytes)
            throw Failure(line: line, column: column, message: "a NUL byte: the file is not text")
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            // The first byte that does not decode, for its place.
            var index = 0
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            var offset = 0
            loop: while true {
                let before = offset
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput: break loop
                case .error:
                    index = before
                    break loop
                }
            }
            let (line, column) = place(of: index, in: bytes)
            throw Failure(line: line, column: column, message: "the file is not UTF-8 text")
        }
        guard decoded.utf8.contains(13) else { return decoded }
        return decoded.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// The line and column (Unicode scalars, as YAML counts them; from 1) of byte `index`.
    private static func place(of index: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var start = 0
        for i in 0..<index where bytes[i] == 10 {
            line += 1
            start = i + 1
        }
        let column = String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars.count + 1
        return (line, column)
    }

    /// `text` as one safe line: line breaks and other control characters become their
    /// escapes (`\n`, `\u{7}`), and a byte of a name that is not UTF-8 (``PathBytes``) its
    /// `\xNN`, so a name from a file or a path can never start a new line
    /// (or a YAML key) in a comment odr-sim writes, nor move a terminal's cursor.
    public static func oneLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if let byte = PathBytes.carried(scalar) {
                    result += "\\x" + String(byte, radix: 16)  // a byte of a name that is not UTF-8
                } else if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
                {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Bytes as one safe line: UTF-8 as ``oneLine(_:)`` shows it, each byte that is not UTF-8
    /// as `\xNN`, at most `limit` characters (then `…`). For text odr-sim did not write: a
    /// plug-in's message, a file name as the system gave it.
    public static func oneLine(bytes: [UInt8], limit: Int = 300) -> String {
        var text = ""
        var i = 0
        var shown = 0
        while i < bytes.count && shown < limit {
            var iterator = bytes[i...].makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            if case .valid(let encoded) = parser.parseScalar(from: &iterator) {
                text += oneLine(String(Unicode.UTF8.decode(encoded)))
                i += encoded.count
            } else {
                let hex = String(bytes[i], radix: 16)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                i += 1
            }
            shown += 1
        }
        return i < bytes.count ? text + "…" : text
    }
}
