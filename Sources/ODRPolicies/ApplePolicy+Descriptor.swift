import ODRCore

extension ApplePolicy: DescribedPolicy {
    /// The registry entry of the documented iOS behaviour (defined in ODRCore).
    ///
    /// It reads ``PurgeView/candidates`` on every purge, so it costs time proportional to the
    /// packs on the device per purge: fine for scenarios, slow for long cache traces.
    public static let descriptor = PolicyDescriptor(
        name: "apple",
        summary: "iOS default: across apps least recently used first, within an app lowest preservation priority, then LRU"
    ) { _ in ApplePolicy() }
}
