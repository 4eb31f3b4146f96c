import Simulation
import Yams

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
/// by the same reader as `events:` (the same apps, tags and request ids), so every problem is
/// a ``ScenarioError`` at the CSV's `FILE:LINE:COLUMN`.
struct TelemetryReader {
    static let columns = ["time", "app", "event", "tags", "id", "priority"]
    static let required = ["time", "app", "event"]
    static let verbs: [EventVerb] = [.install, .launch, .terminate, .uninstall, .request, .requestIfPresent,
                                     .end, .cancel, .pause, .resume, .appUpdate]

    /// The rows of `text` as events, each with its location.
    static func read(_ text: String, fileName: String, into events: inout EventReader) throws(ScenarioError) -> [(ScenarioEvent, String)] {
        let reader = NodeReader(file: fileName)
        let lines = Self.lines(text)
        guard let header = lines.first, !header.fields.allSatisfy({ $0.text.isEmpty }) else {
            throw ScenarioError(file: fileName, line: 1, column: 1,
                                message: "the telemetry file is empty; its first line names the columns, such as time,app,event,tags,id")
        }
        var position: [String: Int] = [:]
        for (i, field) in header.fields.enumerated() {
            let name = field.text
            guard columns.contains(name) else {
                throw ScenarioError(file: fileName, line: header.line, column: field.column, message: "unknown column '\(name)'"
                    + NameSuggestion.hint(for: name, among: columns) + " (the columns are \(columns.joined(separator: ", ")))")
            }
            guard position[name] == nil else {
                throw ScenarioError(file: fileName, line: header.line, column: field.column, message: "column '\(name)' is named twice")
            }
            position[name] = i
        }
        for name in required where position[name] == nil {
            throw ScenarioError(file: fileName, line: header.line, column: 1, message: "the header has no '\(name)' column; it needs \(required.joined(separator: ", "))")
        }

        // Each row becomes the `events:` entry it stands for, one YAML line at the row's own
        // line number, so the scenario's event reader reads it; its errors' columns are then
        // moved from the YAML line back to the CSV field they came from.
        var yaml = ""
        var columnMaps: [Int: [(yaml: Int, csv: Int)]] = [:]
        var lineNumber = 1
        for row in lines.dropFirst() where !(row.fields.count == 1 && row.fields[0].text.isEmpty) {
            guard row.fields.count == header.fields.count else {
                throw ScenarioError(file: fileName, line: row.line, column: 1,
                                    message: "\(row.fields.count) fields, but the header has \(header.fields.count)")
            }
            func field(_ column: String) -> (text: String, column: Int)? {
                guard let i = position[column], !row.fields[i].text.isEmpty else { return nil }
                return row.fields[i]
            }
            guard let event = field("event") else {
                throw ScenarioError(file: fileName, line: row.line, column: 1, message: "the row has no event")
            }
            guard let verb = EventVerb(rawValue: event.text), verbs.contains(verb) else {
                throw ScenarioError(file: fileName, line: row.line, column: event.column, message: "unknown event '\(event.text)'"
                    + NameSuggestion.hint(for: event.text, among: verbs.map(\.rawValue)))
            }
            var text = "- {"
            var map: [(yaml: Int, csv: Int)] = [(1, 1)]
            func add(_ key: String, _ value: String, from column: Int) {
                if text.count > 3 { text += ", " }
                text += key + ": "
                map.append((text.count + 1, column))
                text += value
            }
            func quoted(_ value: String) -> String {
                "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            if let time = field("time") { add("at", quoted(time.text), from: time.column) }
            if let app = field("app") { add("app", quoted(app.text), from: app.column) }
            switch verb {
            case .request, .requestIfPresent:
                let tags = field("tags") ?? ("", event.column)
                text += (text.count > 3 ? ", " : "") + verb.rawValue + ": ["
                var offset = 0
                for (i, name) in tags.text.split(separator: " ", omittingEmptySubsequences: false).flatMap({ $0.split(separator: ";", omittingEmptySubsequences: false) }).enumerated() {
                    defer { offset += name.count + 1 }
                    guard !name.isEmpty else { continue }
                    if i > 0 && text.last != "[" { text += ", " }
                    map.append((text.count + 1, tags.column + offset))
                    text += quoted(String(name))
                }
                text += "]"
                if let id = field("id") { add("id", quoted(id.text), from: id.column) }
                if verb == .request, let priority = field("priority") { add("priority", quoted(priority.text), from: priority.column) }
            case .end, .cancel, .pause, .resume:
                let id = field("id")
                add(verb.rawValue, quoted(id?.text ?? ""), from: id?.column ?? event.column)
            default:
                add(verb.rawValue, "true", from: event.column)
            }
            text += "}"
            // Blank lines up to the row's own line number.
            yaml += String(repeating: "\n", count: row.line - lineNumber) + text
            lineNumber = row.line
            columnMaps[row.line] = map
        }
        guard !yaml.isEmpty else { return [] }

        let relocate = { (error: ScenarioError) -> ScenarioError in
            guard let map = columnMaps[error.line] else { return error }
            let csv = map.last { $0.yaml <= error.column }?.csv ?? 1
            // The event reader names the time `at`, as `events:` does; here it is the `time` column.
            let message = error.message.hasPrefix("at ") ? "time " + error.message.dropFirst(3) : error.message
            return ScenarioError(file: fileName, line: error.line, column: csv, message: message)
        }
        let items: [Node]
        do {
            guard case .sequence(let sequence)? = try Yams.compose(yaml: yaml) else { return [] }
            items = Array(sequence)
        } catch {
            throw ScenarioError(file: fileName, line: 1, column: 1, message: "cannot read the rows: \(error)")
        }
        let saved = events.reader
        events.reader = reader
        events.restartTimeOrder()
        defer {
            events.reader = saved
            events.restartTimeOrder()
        }
        var result: [(ScenarioEvent, String)] = []
        result.reserveCapacity(items.count)
        for item in items {
            do {
                result.append((try events.read(item), "\(fileName):\(item.mark?.line ?? 1):1"))
            } catch {
                throw relocate(error)
            }
        }
        return result
    }

    /// A CSV line's fields, each with its 1-based column; quotes as RFC 4180.
    struct Line {
        var line: Int
        var fields: [(text: String, column: Int)]
    }

    static func lines(_ text: String) -> [Line] {
        var result: [Line] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty && n > 0 { continue }
            var fields: [(String, Int)] = []
            var field = "", start = 1, column = 1, quoted = false, inQuotes = false
            var characters = line.makeIterator()
            var pending: Character? = nil
            while let c = pending ?? characters.next() {
                pending = nil
                if inQuotes {
                    if c == "\"" {
                        if let next = characters.next() {
                            if next == "\"" { field.append("\""); column += 1 } else { inQuotes = false; pending = next }
                        } else {
                            inQuotes = false
                        }
                    } else {
                        field.append(c)
                    }
                } else if c == "," {
                    fields.append((quoted ? field : String(Substring(field).trimmingBlanks()), start))
                    field = ""; quoted = false; start = column + 1
                } else if c == "\"" && field.allSatisfy({ $0 == " " }) {
                    inQuotes = true; quoted = true; field = ""
                } else {
                    field.append(c)
                }
                column += 1
            }
            fields.append((quoted ? field : String(Substring(field).trimmingBlanks()), start))
            result.append(Line(line: n + 1, fields: fields))
        }
        return result
    }
}
