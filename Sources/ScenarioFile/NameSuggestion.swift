/// "Did you mean" hints for misspelt keys and names.
///
/// A candidate is close when its edit distance (Levenshtein, case-insensitive) to the name is
/// at most 2, or at most a third of the name's length for long names.
enum NameSuggestion {
    /// The closest candidate, if one is close enough; the first listed wins a tie.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let limit = max(2, name.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` for a close candidate; otherwise, when there are few candidates,
    /// `; expected one of: a, b, c` (or `; app 'x' has none` style text from `noneText`);
    /// otherwise nothing, so a catalog of a thousand tags does not flood the line.
    static func hint(for name: String, among candidates: [String], noneText: String? = nil) -> String {
        if let close = closest(to: name, among: candidates) {
            return "; did you mean '\(close)'?"
        }
        if candidates.isEmpty { return noneText.map { "; \($0)" } ?? "" }
        if candidates.count <= 12 {
            return "; expected one of: " + candidates.joined(separator: ", ")
        }
        return ""
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
