/// odr-sim's version: what `--version` prints, and what every manifest, shard and exchange
/// file records (a file of another version is refused where mixing versions would mix
/// results).
public enum ToolVersion {
    public static let current = "0.1.0"
}
