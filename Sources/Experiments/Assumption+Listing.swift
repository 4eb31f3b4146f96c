import Metrics

extension Assumption {
    /// Its line of `odr-sim assumptions`: name, key, default, alternatives, why.
    public var line: String {
        let others = alternatives.isEmpty ? "none modelled" : alternatives.map(\.value).joined(separator: ", ")
        return "\(name): \(key) default \(defaultValue); alternatives: \(others). \(why)"
    }

    /// `odr-sim assumptions --format csv`: one row per assumption.
    public static var csv: String {
        CSV.row(["assumption", "key", "default", "alternatives", "why", "covers"])
            + all.map { assumption in
                CSV.row([
                    assumption.name, assumption.key, assumption.defaultValue,
                    assumption.alternatives.map(\.value).joined(separator: ";"),
                    assumption.why, assumption.covers.joined(separator: ";"),
                ])
            }.joined()
    }
}
