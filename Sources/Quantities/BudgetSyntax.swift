/// An app's storage budget as scenario files and `migrate --budget` write it: a size
/// (``SizeSyntax``: `2GB`) or a share of the device's free space at the start, a plain decimal
/// percentage from 0.01 % to 100 % (`25%`, `12.5%`). One reader for both doors, so a value is
/// accepted or refused alike wherever it is written.
public enum BudgetSyntax {
    /// A budget as written, before the device's free space turns a share into bytes.
    public enum Value: Equatable, Sendable {
        case bytes(Int64)
        /// A fraction of free space, 0.0001 … 1.
        case share(Double)

        /// The budget in bytes on a device with `freeSpace` bytes free at the start.
        public func bytes(freeSpace: Int64) -> Int64 {
            switch self {
            case .bytes(let bytes): bytes
            case .share(let share): Int64((Double(freeSpace) * share).rounded())
            }
        }
    }

    public static func parse(_ text: String) throws(ValueSyntaxError) -> Value {
        let trimmed = String(Substring(text).trimmingBlanks())
        guard trimmed.hasSuffix("%") else {
            do {
                return .bytes(try SizeSyntax.parse(trimmed))
            } catch {
                // A size's own reason, unless it is not a size at all.
                if case .unparsable = error.problem {
                    throw ValueSyntaxError(
                        text: text,
                        problem: .unparsable(
                            kind: "size or a share of free space", expected: "such as 2GB or 25% (0.01% to 100%)"))
                }
                throw error
            }
        }
        let number = trimmed.dropLast().trimmingBlanks()
        // Digits with at most one point: no exponent (1e-300%), no sign, no infinity.
        guard !number.isEmpty, number.count <= 20, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, let percent = Double(number), percent >= 0.01, percent <= 100
        else {
            throw ValueSyntaxError(
                text: text, problem: .outOfRange(range: "0.01%…100% of free space (or a size such as 2GB)"))
        }
        return .share(percent / 100)
    }
}
