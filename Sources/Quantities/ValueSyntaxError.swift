/// Why a scalar value (a size, bandwidth, time or priority) was rejected.
///
/// The value parsers know nothing of files or keys; the scenario parser names the key and the
/// place with ``message(subject:)``, and a command line can use ``description`` as it is.
public struct ValueSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the value.
    public enum Problem: Hashable, Sendable {
        /// Not of the form the value needs; `expected` says what would do, e.g.
        /// `use a number and a unit (B, KB, …), such as 512MB`.
        case unparsable(kind: String, expected: String)
        /// Below zero where only 0 and up make sense.
        case negative(kind: String)
        /// Beyond what the model takes (``ModelLimits``): `maximum` as a file writes it.
        case tooLarge(kind: String, maximum: String)
        /// A number outside the closed range `range` (written like `0…1`).
        case outOfRange(range: String)
    }

    /// The value as written in the file.
    public let text: String
    public let problem: Problem

    public init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    /// One line naming `subject` (a key such as `capacity`), e.g.
    /// `capacity must be a size, not '64XB'; use …` or `priority is 1.5, outside 0…1`.
    public func message(subject: String) -> String {
        switch problem {
        case .unparsable(let kind, let expected):
            return "\(subject) must be \(Self.article(kind)) \(kind), not '\(text)'; \(expected)"
        case .negative(let kind):
            return "\(subject) '\(text)' is negative; a \(kind) cannot be below 0"
        case .tooLarge(let kind, let maximum):
            return "\(subject) '\(text)' is too large for a \(kind) (at most \(maximum))"
        case .outOfRange(let range):
            return "\(subject) is \(text), outside \(range)"
        }
    }

    /// The message without a key, for values that come from elsewhere (a command-line option).
    public var description: String { message(subject: "value") }

    private static func article(_ noun: String) -> String {
        noun.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }
}
