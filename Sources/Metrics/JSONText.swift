/// JSON as odr-sim prints it (`--format json`): objects of keys in a fixed order, numbers as
/// CSV writes them, strings escaped. Hand-written so that a key's place and a number's digits
/// are the same on every run, as the CSV files' are.
public enum JSONText {
    /// An object of `pairs`, whose values are already JSON.
    public static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    public static func string(_ text: String) -> String {
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

    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A CSV field as JSON: a number, `true`/`false`, `null` when empty, else a string.
    public static func value(_ field: String) -> String {
        if field.isEmpty { return "null" }
        if field == "true" || field == "false" { return field }
        if isNumber(field) { return field }
        return string(field)
    }

    /// JSON's number grammar, which every numeric CSV field of odr-sim meets (`12`, `-0.5`,
    /// `1.2e-05`); anything else (`15MB`, `inf`, `0x10`) stays a string.
    public static func isNumber(_ text: String) -> Bool {
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
    public static func records(_ csv: String) -> String {
        guard let records = try? CSVReader.records(csv), let header = records.first?.fields else { return "[]" }
        return array(
            records.dropFirst().map { record in
                object(zip(header, record.fields).map { ($0, value($1)) })
            })
    }
}
