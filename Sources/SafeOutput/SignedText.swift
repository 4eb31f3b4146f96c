import TextInput

/// A text file odr-sim writes with the digest of what it wrote in its second line, so that a
/// later run replaces it only while it is byte for byte what was written: once a person
/// edits it, it is theirs (the report folder's manifest does the same for a folder).
///
/// ```
/// # odr-sim migrate Scenarios/game.scn --app odyssey --to background-assets: ios17 → background-assets
/// # odr-sim wrote this file (digest 1f2e3d4c5b6a7980); once edited it is yours, never replaced
/// name: game-background-assets
/// ```
///
/// The digest (``TextInput/TextDigest``) covers every line but the digest line itself.
public enum SignedText {
    static let prefix = "# odr-sim wrote this file (digest "
    static let suffix = "); once edited it is yours, never replaced"

    /// `text` with its digest line after its first line (`text` starts with a comment line).
    public static func sign(_ text: String) -> String {
        let (first, rest) = split(text)
        return first + prefix + TextDigest.of(first + rest) + suffix + "\n" + rest
    }

    /// Whether `text` carries a digest line and is still exactly what was signed.
    public static func isUnedited(_ text: String) -> Bool {
        let (first, rest) = split(text)
        guard rest.hasPrefix(prefix), let end = rest.firstIndex(of: "\n") else { return false }
        let line = rest[..<end]
        guard line.hasSuffix(suffix) else { return false }
        let digest = line.dropFirst(prefix.count).dropLast(suffix.count)
        return digest == TextDigest.of(first + rest[rest.index(after: end)...])
    }

    /// The first line (with its line break) and the rest.
    private static func split(_ text: String) -> (first: String, rest: String) {
        guard let end = text.firstIndex(of: "\n") else { return (text + "\n", "") }
        return (String(text[...end]), String(text[text.index(after: end)...]))
    }
}
