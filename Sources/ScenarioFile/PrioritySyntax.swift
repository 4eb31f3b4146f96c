import ODRCore
import Quantities

/// Priorities: a number in 0…1 (preservation and loading priorities); a loading priority may
/// also be `urgent` (ODR-SPEC §3).
///
/// ```swift
/// try PrioritySyntax.parseFraction("0.5")       // 0.5
/// try PrioritySyntax.parseLoading("urgent")     // LoadingPriority.urgent
/// ```
public enum PrioritySyntax {
    static let expected = "use a number in 0…1, such as 0.5"
    static let expectedLoading = "use a number in 0…1, such as 0.5, or urgent"

    /// A number in 0…1.
    public static func parseFraction(_ text: String) throws(ValueSyntaxError) -> Double {
        try fraction(text, kind: "priority", expected: expected)
    }

    /// A loading priority: a number in 0…1 or `urgent`.
    public static func parseLoading(_ text: String) throws(ValueSyntaxError) -> LoadingPriority {
        if Substring(text).trimmingBlanks() == "urgent" { return .urgent }
        let value = try fraction(text, kind: "loading priority", expected: expectedLoading)
        guard let priority = LoadingPriority(value) else {
            // fraction(_:) already checked 0…1; this only guards against LoadingPriority changing.
            throw ValueSyntaxError(text: text, problem: .outOfRange(range: "0…1"))
        }
        return priority
    }

    private static func fraction(_ text: String, kind: String, expected: String) throws(ValueSyntaxError) -> Double {
        let number: DecimalNumber
        do {
            number = try DecimalNumber(Substring(text).trimmingBlanks())
        } catch {
            throw ValueSyntaxError(text: text, problem: .unparsable(kind: kind, expected: expected))
        }
        let value = number.doubleValue
        guard (0...1).contains(value) else {
            throw ValueSyntaxError(text: text, problem: .outOfRange(range: "0…1"))
        }
        return value
    }
}
