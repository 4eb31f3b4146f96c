/// Parses byte sizes given on the command line: a plain number of bytes (`202976972`) or a
/// number with a unit, decimal (`KB`, `MB`, `GB`, `TB`: powers of 1000) or binary (`KiB`,
/// `MiB`, `GiB`, `TiB`: powers of 1024), as in `512MB`, `64MiB`, `1.5GB`, `2 GiB`. Units are
/// case-insensitive except that `b` alone is not accepted for bytes-or-bits confusion's sake:
/// write `B` or nothing. Fractions are allowed with a unit and must come out a whole number
/// of bytes.
public enum SizeParser {
    private static let units: [String: Int64] = [
        "": 1, "B": 1,
        "KB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000, "TB": 1_000_000_000_000,
        "KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "TIB": 1 << 40,
    ]

    /// The size in bytes, or an error message naming what is wrong.
    public static func parse(_ text: String) -> Result<Int64, SizeError> {
        let trimmed = text.trimmedBlanks()
        let numberEnd = trimmed.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? trimmed.endIndex
        let number = String(trimmed[..<numberEnd])
        let unitText = String(trimmed[numberEnd...]).trimmedBlanks()
        guard unitText != "b" else { return .failure(SizeError(text: text, reason: "write 'B' for bytes")) }
        guard let scale = units[unitText.uppercased()] else {
            return .failure(SizeError(text: text, reason: "unknown unit '\(unitText)' (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)"))
        }
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != "." else {
            return .failure(SizeError(text: text, reason: "expected a number such as 202976972, 512MB, 64MiB or 1.5GB"))
        }
        if !number.contains(".") {
            guard let whole = Int64(number) else { return .failure(SizeError(text: text, reason: "too large")) }
            let (bytes, overflow) = whole.multipliedReportingOverflow(by: scale)
            return overflow ? .failure(SizeError(text: text, reason: "too large")) : .success(bytes)
        }
        // A fraction: exact decimal arithmetic on digits, so 1.5GB is exactly 1_500_000_000.
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let digits = String(parts[0]) + String(parts[1])
        guard let mantissa = Int64(digits.isEmpty ? "0" : digits) else { return .failure(SizeError(text: text, reason: "too large")) }
        var divisor: Int64 = 1
        for _ in 0..<parts[1].count {
            let (d, overflow) = divisor.multipliedReportingOverflow(by: 10)
            guard !overflow else { return .failure(SizeError(text: text, reason: "too many decimals")) }
            divisor = d
        }
        let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: scale)
        guard !overflow else { return .failure(SizeError(text: text, reason: "too large")) }
        guard scaled % divisor == 0 else {
            return .failure(SizeError(text: text, reason: "is not a whole number of bytes"))
        }
        return .success(scaled / divisor)
    }
}

/// A size the ``SizeParser`` could not read.
public struct SizeError: Error, Hashable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "invalid size '\(text)': \(reason)" }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmedBlanks() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
