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
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            self.init(
                file: file, line: context.mark.line, column: context.mark.column,
                message: "key \(keys) appears more than once in this mapping")
        default:
            self.init(file: file, line: 1, column: 1, message: "invalid YAML: \(error)")
        }
    }

    /// 1-based line and column (in Unicode scalars, like libyaml) of the character at `offset`.
    private static func lineAndColumn(ofCharacter offset: Int, in text: String) -> (Int, Int) {
        var line = 1, column = 1
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
