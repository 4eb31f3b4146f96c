/// Which policy a comparison pairs the others against when the user names none.
public enum BaselineChoice {
    /// ODR's own purge order: the usual baseline wherever it runs.
    public static let apple = "apple"

    /// `apple` when it runs, else the first policy run; with a sentence saying which when it
    /// is not `apple`. Where the policies are apps' strategies (`strategies`: the app evicts),
    /// the first strategy is the usual baseline, and apple (a system's purge order, no app's
    /// code) goes unmentioned.
    public static func usual(among policies: [String], strategies: Bool) -> (name: String, note: String?) {
        if policies.contains(apple) || policies.isEmpty { return (apple, nil) }
        if strategies {
            return (
                policies[0],
                "Paired differences against \(policies[0]), the first strategy run (--baseline chooses another)."
            )
        }
        return (
            policies[0],
            """
            Paired differences against \(policies[0]), the first policy run (apple was not; --baseline chooses \
            another).
            """
        )
    }
}
