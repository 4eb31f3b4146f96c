import Metrics
import ODRPolicies

extension BaselineChoice {
    /// Why `--baseline` is refused: a one-line reason naming it.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The policy paired differences are taken against: `requested` (`--baseline`, a
    /// registered policy among those run), or the usual one (``usual(among:strategies:)``),
    /// with a sentence saying which when it is not `apple`.
    public static func resolve(_ requested: String?, among policies: [String], strategies: Bool = false)
        throws(Refusal) -> (name: String, note: String?)
    {
        guard let requested else { return usual(among: policies, strategies: strategies) }
        do { _ = try PolicyRegistry.resolve([requested]) } catch { throw Refusal(description: "--baseline: \(error)") }
        guard policies.contains(requested) else {
            throw Refusal(
                description:
                    "--baseline: '\(requested)' is not among the policies run (\(policies.joined(separator: ", ")))")
        }
        return (requested, requested == apple ? nil : "Paired differences against \(requested) (--baseline).")
    }
}
