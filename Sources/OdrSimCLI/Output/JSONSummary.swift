import ArgumentParser
import Experiments
import Metrics
import ScenarioFile

/// What a command prints on stdout.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--format text|json`, declared once for every command that prints a summary.
struct FormatOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "What stdout gets: text (tables, for people) or json (one object for scripts: the summary's rows with typed values, the verdict, where the files went; warnings and progress stay on stderr).",
        valueName: "format"))
    var format: OutputFormat = .text

    var json: Bool { format == .json }
}

/// `--format json`: one JSON object per command, its keys in a fixed order, its rows those of
/// the CSV files the command wrote, each value typed as `docs/data-dictionary.md` says (a
/// number as the CSV writes it, so the two agree to the digit; an empty field is `null`).
/// Nothing in it depends on the machine or the clock: the same run prints the same bytes.
enum JSONSummary {
    /// The keys `run` and `compare` begin with: the command, its inputs and folder, the
    /// policies, replications, baseline and warm-up.
    static func head(_ command: String, _ document: ScenarioDocument, file: String, out: String, policies: [String],
                     runner: ExperimentRunner, baseline: String) -> [(String, String)] {
        [("command", string(command)), ("scenario", string(document.name)), ("file", string(file)), ("out", string(out)),
         ("policies", array(policies.map(string))), ("replications", String(runner.replications)),
         ("baseline", string(baseline)), ("warmup_s", number(runner.warmup))]
    }

    /// An object of `pairs`, whose values are already JSON.
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A CSV field as JSON: a number, `true`/`false`, `null` when empty, else a string.
    static func value(_ field: String) -> String {
        if field.isEmpty { return "null" }
        if field == "true" || field == "false" { return field }
        if isNumber(field) { return field }
        return string(field)
    }

    /// JSON's number grammar, which every numeric CSV field of odr-sim meets (`12`, `-0.5`,
    /// `1.2e-05`); anything else (`15MB`, `inf`, `0x10`) stays a string.
    static func isNumber(_ text: String) -> Bool {
        var s = Substring(text)
        if s.first == "-" { s = s.dropFirst() }
        let integer = s.prefix { $0.isASCII && $0.isNumber }
        guard !integer.isEmpty, integer == "0" || integer.first != "0" else { return false }
        s = s.dropFirst(integer.count)
        if s.first == "." {
            let fraction = s.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !fraction.isEmpty else { return false }
            s = s.dropFirst(1 + fraction.count)
        }
        if s.first == "e" || s.first == "E" {
            s = s.dropFirst()
            if s.first == "+" || s.first == "-" { s = s.dropFirst() }
            let exponent = s.prefix { $0.isASCII && $0.isNumber }
            guard !exponent.isEmpty else { return false }
            s = s.dropFirst(exponent.count)
        }
        return s.isEmpty
    }

    /// The rows of a CSV text (header first) as an array of objects.
    static func records(_ csv: String) -> String {
        guard let records = try? CSVReader.records(csv), let header = records.first?.fields else { return "[]" }
        return array(records.dropFirst().map { record in
            object(zip(header, record.fields).map { ($0, value($1)) })
        })
    }
}
