/// Colours and dash patterns per policy, the same in every chart of every report (a policy's
/// place in the registry picks them), and told apart in grey print by their dashes as well
/// as their hue.
public struct Palette: Sendable {
    /// Okabe–Ito's colour-blind-safe set, then darker tones; no black or grey, which the
    /// disk chart's states use (``states``).
    public static let colours = [
        "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#332288",
        "#8C564B", "#882255", "#BCBD22", "#17BECF", "#9467BD",
    ]
    /// The layers of the disk chart beside a policy's own colour (its ODR content): chosen
    /// so that every policy's colour stands apart from each (a test measures the distances).
    public static let states = (other: "#c8c8c8", inUse: "#2b2b2b", downloading: "#f5e6a0")
    public static let dashes = [
        "", "6 3", "2 2", "8 3 2 3", "4 4", "1 3", "10 4", "6 2 2 2", "3 6", "12 3", "2 6", "6 6",
    ]

    /// Every registered policy, in registry order.
    public let policies: [String]

    public init(policies: [String]) { self.policies = policies }

    private func index(of policy: String) -> Int {
        if let i = policies.firstIndex(of: policy) { return i % Self.colours.count }
        return Int(policy.unicodeScalars.reduce(UInt32(7)) { $0 &* 31 &+ $1.value } % UInt32(Self.colours.count))
    }

    public func colour(of policy: String) -> String { Self.colours[index(of: policy)] }
    public func dash(of policy: String) -> String { Self.dashes[index(of: policy)] }
}
