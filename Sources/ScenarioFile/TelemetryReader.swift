import Simulation
import TextInput

/// Reads a `{kind: trace, file: telemetry.csv}` workload: app events recorded in the field,
/// replayed as scripted events.
///
/// ```text
/// time,app,event,tags,id
/// 0,game,install,,
/// 0,game,launch,,
/// 65.5,game,request,level-1 level-2,r1
/// 5m,game,end,,r1
/// 1h,game,terminate,,
/// ```
///
/// `time` is seconds or a duration (`5m`, `1d8h`), in order; `event` is a verb of the scenario's
/// events (`install`, `launch`, `terminate`, `uninstall`, `request`, `request-if-present`,
/// `end`, `cancel`, `pause`, `resume`, `app-update`); `tags` lists a request's tags, separated by blanks or
/// `;`; `id` names a request and the events that refer to it; an optional `priority` column
/// gives a request's loading priority. Each row is read as the scenario event it stands for,
/// by the same rules as `events:` (``EventReader/readRow(time:app:verb:verbCell:tags:id:priority:)``:
/// the same apps, tags, request ids and time order) but without YAML, so every problem is a
/// ``ScenarioError`` at the CSV's `FILE:LINE:COLUMN`.
struct TelemetryReader {
    static let columns = ["time", "app", "event", "tags", "id", "priority"]
    static let required = ["time", "app", "event"]
    static let verbs: [EventVerb] = [
        .install, .launch, .terminate, .uninstall, .request, .requestIfPresent,
        .end, .cancel, .pause, .resume, .appUpdate,
    ]

    /// The rows of `text` as events, each with its location, read in one streaming pass: each
    /// row is checked as it is read (``EventReader/readRow(time:app:verb:verbCell:tags:id:priority:)``),
    /// so a problem on the last of a million rows is reported in seconds, before any run.
    static func read(_ text: String, fileName: String, into events: inout EventReader) throws(ScenarioError) -> [(
        ScenarioEvent, String
    )] {
        var header: Line?
        var position: [String: Int] = [:]
        var result: [(ScenarioEvent, String)] = []
        // A row is about 30 bytes: room for the rows without regrowing.
        result.reserveCapacity(text.utf8.count / 32)
        let saved = events.reader
        events.reader = NodeReader(file: fileName)
        events.restartTimeOrder()
        defer {
            events.reader = saved
            events.restartTimeOrder()
        }
        var failure: ScenarioError?
        forEachLine(text) { row in
            do throws(ScenarioError) {
                guard let header else {
                    try readHeader(row, fileName: fileName, into: &position)
                    header = row
                    return true
                }
                guard !(row.fields.count == 1 && row.fields[0].text.isEmpty) else { return true }
                result.append(
                    (
                        try readRow(row, header: header, position: position, fileName: fileName, events: &events),
                        "\(fileName):\(row.line):1"
                    ))
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        guard header != nil else {
            throw ScenarioError(
                file: fileName, line: 1, column: 1,
                message: """
                    the telemetry file is empty; its first line names the columns, such as \
                    time,app,event,tags,id
                    """
            )
        }
        return result
    }

    private static func readHeader(_ header: Line, fileName: String, into position: inout [String: Int])
        throws(ScenarioError)
    {
        guard !header.fields.allSatisfy({ $0.text.isEmpty }) else {
            throw ScenarioError(
                file: fileName, line: 1, column: 1,
                message: """
                    the telemetry file is empty; its first line names the columns, such as \
                    time,app,event,tags,id
                    """
            )
        }
        for (i, field) in header.fields.enumerated() {
            let name = field.text
            guard columns.contains(name) else {
                throw ScenarioError(
                    file: fileName, line: header.line, column: field.column,
                    message: "unknown column '\(InputText.oneLine(name))'"
                        + NameSuggestion.hint(for: name, among: columns)
                        + " (the columns are \(columns.joined(separator: ", ")))")
            }
            guard position[name] == nil else {
                throw ScenarioError(
                    file: fileName, line: header.line, column: field.column, message: "column '\(name)' is named twice")
            }
            position[name] = i
        }
        for name in required where position[name] == nil {
            throw ScenarioError(
                file: fileName, line: header.line, column: 1,
                message: "the header has no '\(name)' column; it needs \(required.joined(separator: ", "))")
        }
    }

    private static func readRow(
        _ row: Line, header: Line, position: [String: Int], fileName: String,
        events: inout EventReader
    ) throws(ScenarioError) -> ScenarioEvent {
        guard row.fields.count == header.fields.count else {
            throw ScenarioError(
                file: fileName, line: row.line, column: 1,
                message: "\(row.fields.count) fields, but the header has \(header.fields.count)")
        }
        func field(_ column: String) -> EventReader.Cell? {
            guard let i = position[column], !row.fields[i].text.isEmpty else { return nil }
            return EventReader.Cell(text: row.fields[i].text, line: row.line, column: row.fields[i].column)
        }
        guard let event = field("event") else {
            throw ScenarioError(file: fileName, line: row.line, column: 1, message: "the row has no event")
        }
        guard let verb = EventVerb(rawValue: event.text), verbs.contains(verb) else {
            throw ScenarioError(
                file: fileName, line: row.line, column: event.column,
                message: "unknown event '\(InputText.oneLine(event.text))'"
                    + NameSuggestion.hint(for: event.text, among: verbs.map(\.rawValue)))
        }
        guard let time = field("time") else {
            throw ScenarioError(file: fileName, line: row.line, column: 1, message: "the row has no time")
        }
        guard let app = field("app") else {
            throw ScenarioError(file: fileName, line: row.line, column: 1, message: "the row has no app")
        }
        var tags: [EventReader.Cell] = []
        if verb == .request || verb == .requestIfPresent, let cell = field("tags") {
            // Tags separated by blanks or `;`, each at its own column.
            var offset = 0
            for name in cell.text.split(separator: " ", omittingEmptySubsequences: false)
                .flatMap({ $0.split(separator: ";", omittingEmptySubsequences: false) })
            {
                defer { offset += name.unicodeScalars.count + 1 }
                guard !name.isEmpty else { continue }
                tags.append(EventReader.Cell(text: String(name), line: row.line, column: cell.column + offset))
            }
        }
        let id =
            field("id").map {
                verb == .request || verb == .requestIfPresent || verb == .end || verb == .cancel || verb == .pause
                    || verb == .resume ? $0 : nil
            } ?? nil
        return try events.readRow(
            time: time, app: app, verb: verb, verbCell: event, tags: tags, id: id,
            priority: verb == .request ? field("priority") : nil)
    }

    /// A CSV line's fields, each with its 1-based column; quotes as RFC 4180.
    struct Line {
        var line: Int
        var fields: [(text: String, column: Int)]
    }

    /// Calls `body` with each line of `text` (blank lines after the first skipped), until it
    /// returns false; nothing is kept between lines.
    static func forEachLine(_ text: String, _ body: (Line) -> Bool) {
        var number = 0
        for raw in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
            number += 1
            var bytes = raw[...]
            if bytes.last == 13 { bytes = bytes.dropLast() }
            if bytes.isEmpty && number > 1 { continue }
            guard body(Line(line: number, fields: fields(of: bytes))) else { return }
        }
    }

    /// A line's fields (RFC 4180 quotes), each with its 1-based column in Unicode scalars,
    /// read byte by byte: a telemetry file may have millions of rows.
    private static func fields(of bytes: Substring.UTF8View.SubSequence) -> [(text: String, column: Int)] {
        var fields: [(String, Int)] = []
        var field: [UInt8] = []
        var start = 1
        var column = 1
        var quoted = false
        var inQuotes = false
        var index = bytes.startIndex
        func finish() {
            var value = field[...]
            if !quoted {
                while value.first == 32 || value.first == 9 { value = value.dropFirst() }
                while value.last == 32 || value.last == 9 { value = value.dropLast() }
            }
            fields.append((String(decoding: value, as: UTF8.self), start))
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            // Columns count scalars: a UTF-8 continuation byte is no new column.
            let advances = byte & 0xC0 != 0x80
            if inQuotes {
                if byte == 34 {
                    if index < bytes.endIndex && bytes[index] == 34 {
                        field.append(34)
                        index = bytes.index(after: index)
                        column += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == 44 {
                finish()
                field.removeAll(keepingCapacity: true)
                quoted = false
                start = column + 1
            } else if byte == 34 && field.allSatisfy({ $0 == 32 }) {
                inQuotes = true
                quoted = true
                field.removeAll(keepingCapacity: true)
            } else {
                field.append(byte)
            }
            if advances { column += 1 }
        }
        finish()
        return fields
    }
}
