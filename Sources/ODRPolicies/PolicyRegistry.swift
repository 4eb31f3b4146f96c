import ODRCore

// Interim registry (apple only) until the policies branch lands; same interface.

public struct PolicyContext: Sendable {
    public var seed: UInt64
    public var future: FutureRequests?
    public var defaultQuota: Int64
    public var quotas: [AppID: Int64]
    public init(seed: UInt64 = 0, future: FutureRequests? = nil, defaultQuota: Int64 = 64 << 20, quotas: [AppID: Int64] = [:]) {
        self.seed = seed
        self.future = future
        self.defaultQuota = defaultQuota
        self.quotas = quotas
    }
}

public struct PolicyDescriptor: Sendable {
    public let name: String
    public let summary: String
    public let needsFuture: Bool
    public let make: @Sendable (PolicyContext) -> any PurgePolicy
}

public enum PolicyRegistry {
    public static let all: [PolicyDescriptor] = [
        PolicyDescriptor(name: "apple", summary: "iOS behaviour", needsFuture: false, make: { _ in ApplePolicy() }),
    ]
    public static func descriptor(named name: String) -> PolicyDescriptor? { all.first { $0.name == name } }
    public static var names: [String] { all.map(\.name) }
}

public final class FutureRequests: Sendable {
    public init(requests: [[PackID]]) {}
    public func nextRequest(of pack: PackID, after ordinal: Int64) -> Int64? { nil }
}
