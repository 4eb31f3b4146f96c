import Yams

extension ScenarioError {
    /// A Yams error as `FILE:LINE:COLUMN: reason`, at the place libyaml reports.
    ///
    /// libyaml's context ("while scanning a simple key") is kept after the problem, with its own
    /// position, because the problem's position alone can be a line after the real mistake.
    init(yamlError error: any Error, file: String, text: String) {
        func located(_ context: YamlError.Context?, _ problem: String, _ mark: Mark) -> ScenarioError {
            var message = "invalid YAML: \(problem)"
            if let context {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            return ScenarioError(file: file, line: mark.line, column: mark.column, message: message)
        }
        switch error as? YamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            self = located(context, problem, mark)
        case .reader(let problem, let offset, _, _):
            let (line, column) = Self.lineAndColumn(ofCharacter: offset ?? 0, in: text)
            self.init(file: file, line: line, column: column, message: "invalid text: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams marks the first occurrence; the repeat is the mistake, so look for it.
            let first = context.mark
            if duplicates.count == 1, let repeated = Self.repeatedKey(duplicates[0], after: first, in: text) {
                self.init(
                    file: file, line: repeated.line, column: repeated.column,
                    message: "duplicate key '\(duplicates[0])' (first at line \(first.line))")
            } else {
                let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
                self.init(
                    file: file, line: first.line, column: first.column,
                    message: "key \(keys) appears more than once in this mapping")
            }
        default:
            self.init(file: file, line: 1, column: 1, message: "invalid YAML: \(error)")
        }
    }

    /// Where `key`, first written at `first`, is written again in the same mapping: later on
    /// the same line (flow style), or on a later line at the same column (block style) before
    /// the mapping ends (a line indented less). nil when the text does not show it plainly.
    private static func repeatedKey(_ key: String, after first: Mark, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let spellings = [key, "'\(key)'", "\"\(key)\""].map { Array($0.unicodeScalars) }
        func keyStarts(_ line: [Unicode.Scalar], at index: Int) -> Bool {
            spellings.contains { spelling in
                guard index + spelling.count <= line.count, Array(line[index..<index + spelling.count]) == spelling
                else {
                    return false
                }
                return line[(index + spelling.count)...].first(where: { $0 != " " }) == ":"
            }
        }
        let firstLine = lines[first.line - 1]
        // From the first character after the key, and never before the line's second: each
        // step looks at the character before it (an empty key at column 1 starts at 0).
        var index = max(1, first.column - 1 + key.unicodeScalars.count)
        while index < firstLine.count, !(firstLine[index] == "#" && firstLine[index - 1] == " ") {
            if [",", "{", " "].contains(firstLine[index - 1]), keyStarts(firstLine, at: index) {
                return (first.line, index + 1)
            }
            index += 1
        }
        for lineIndex in first.line..<lines.count {
            let line = lines[lineIndex]
            guard let indent = line.firstIndex(where: { $0 != " " }), line[indent] != "#" else { continue }
            if indent > first.column - 1 { continue }  // inside a nested value
            if indent < first.column - 1 { return nil }  // the mapping has ended
            if keyStarts(line, at: indent) { return (lineIndex + 1, first.column) }
        }
        return nil
    }

    /// 1-based line and column (in Unicode scalars, like libyaml) of the character at `offset`.
    private static func lineAndColumn(ofCharacter offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }
}
