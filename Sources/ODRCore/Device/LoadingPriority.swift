/// How eagerly a request's downloads should run (ODR-SPEC §3).
///
/// A value in 0…1 (default 0.5), compared only among the requests of one app, or
/// ``urgent``: the user cannot continue, so other downloads are suspended while it runs.
public struct LoadingPriority: Hashable, Sendable, Comparable, CustomStringConvertible, BitwiseCopyable {
    /// The priority value; 1 for urgent.
    public let value: Double
    public let isUrgent: Bool

    /// A priority in 0…1, or `nil` outside that range.
    public init?(_ value: Double) {
        guard (0...1).contains(value) else { return nil }
        self.value = value
        self.isUrgent = false
    }

    private init(urgent: Void) {
        value = 1
        isUrgent = true
    }

    /// The default loading priority, 0.5.
    public static let normal = LoadingPriority(0.5)!
    /// The user is blocked: suspends every other download and lifts throttling.
    public static let urgent = LoadingPriority(urgent: ())

    public static func < (a: LoadingPriority, b: LoadingPriority) -> Bool {
        (a.isUrgent ? 1 : 0, a.value) < (b.isUrgent ? 1 : 0, b.value)
    }

    public var description: String { isUrgent ? "urgent" : "\(value)" }
}
