/// The kind of link during a network phase.
public enum LinkKind: String, Sendable, Hashable, CaseIterable {
    case wifi, cellular
}

/// One piece of the piecewise-constant network: from `at` on, `bandwidth` bits per second.
public struct NetworkPhase: Sendable, Hashable {
    public var at: Double
    /// Bits per second; 0 is offline.
    public var bandwidth: Double
    public var kind: LinkKind

    public init(at: Double, bandwidth: Double, kind: LinkKind = .wifi) {
        self.at = at
        self.bandwidth = bandwidth
        self.kind = kind
    }
}
