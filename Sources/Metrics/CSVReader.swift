/// Reads CSV text as RFC 4180 defines it, for files odr-sim or a person wrote (baselines,
/// shard files): CRLF or LF line breaks, fields in double quotes that may hold commas,
/// quotes (doubled) and line breaks, and a last record with or without a line break.
///
/// It reads bytes, not `Character`s: Swift reads `"\r\n"` as one `Character`, so text split
/// on `"\n"` never splits a CRLF file (a baseline written by Python's `csv` module read as
/// one header line and no rows). Blank lines are skipped. A malformed quote is an error
/// naming its line and column.
///
/// ```swift
/// let records = try CSVReader.records("a,b\r\n1,\"x,y\"\r\n")
/// // records[1].fields == ["1", "x,y"], records[1].line == 2
/// ```
public enum CSVReader {
    /// One record: its fields and the line it starts on (1-based).
    public struct Record: Sendable, Hashable {
        public var fields: [String]
        public var line: Int
    }

    /// A malformed record: where, and why.
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { "\(line):\(column): \(message)" }

        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }
    }

    public static func records(_ text: String) throws(Error) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var column = 0
        var recordLine = 1
        var quoted = false  // inside a quoted field
        var afterQuote = false  // a quoted field has closed; only a separator may follow
        var fieldStarted = false  // the record has any byte (so an empty line is no record)
        let bytes = Array(text.utf8)
        var i = 0

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterQuote = false
        }
        func endRecord() {
            if fieldStarted || !fields.isEmpty {
                endField()
                records.append(Record(fields: fields, line: recordLine))
            }
            fields = []
            fieldStarted = false
        }

        while i < bytes.count {
            let byte = bytes[i]
            column += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        i += 2
                        column += 1
                        continue
                    }
                    quoted = false
                    afterQuote = true
                } else {
                    field.append(byte)
                    if byte == 10 || (byte == 13 && !(i + 1 < bytes.count && bytes[i + 1] == 10)) {
                        line += 1
                        column = 0
                    }
                }
                i += 1
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                fieldStarted = true
                endField()
            case 13, 10:
                if byte == 13 && i + 1 < bytes.count && bytes[i + 1] == 10 { i += 1 }
                endRecord()
                line += 1
                column = 0
                recordLine = line
            case UInt8(ascii: "\""):
                guard field.isEmpty && !afterQuote else {
                    throw Error(
                        line: line, column: column,
                        message:
                            """
                            a quote inside a field; quote the whole field and double the quote (\"\"), as RFC 4180 \
                            does
                            """
                    )
                }
                quoted = true
                fieldStarted = true
            default:
                guard !afterQuote else {
                    throw Error(
                        line: line, column: column,
                        message: "text after a closing quote; a quoted field must end at a comma or the line's end")
                }
                field.append(byte)
                fieldStarted = true
            }
            i += 1
        }
        if quoted {
            throw Error(
                line: recordLine, column: 1, message: "a quoted field is never closed (the file ends inside it)")
        }
        endRecord()
        return records
    }
}
