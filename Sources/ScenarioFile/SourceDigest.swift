import TextInput

/// A scenario file's content digest (``TextDigest``: 64-bit FNV-1a, CRLF read as LF, 16 hex
/// digits).
///
/// It identifies the scenario a baseline was made from (`summary.csv`'s `scenario_hash`),
/// so that `odr-sim check` refuses to compare runs of two different files.
public enum SourceDigest {
    public static func of(_ text: String) -> String { TextDigest.of(text) }
}
