/// Identifies an app registered on an ``ODRDevice``, in registration order.
public struct AppID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Index of the app in registration order, starting at 0.
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static func < (a: AppID, b: AppID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "app#\(rawValue)" }
}

/// Identifies a tag within one app's ``Catalog`` (the index of ``Catalog/tags``).
public struct TagID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static func < (a: TagID, b: TagID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "tag#\(rawValue)" }
}

/// Identifies an asset pack on an ``ODRDevice``, unique across all its apps.
///
/// Purge policies see packs of every app, so pack identities are device-wide.
public struct PackID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static func < (a: PackID, b: PackID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "pack#\(rawValue)" }
}

/// Identifies one resource request (one begin/end cycle) on an ``ODRDevice``.
///
/// Slots are reused after a request finishes; the generation tells a stale ID from a live one.
public struct RequestID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    let slot: Int32
    let generation: UInt32
    public var description: String { "request#\(slot).\(generation)" }

    /// A small number, 0 ≤ index < the most requests live at once, that no other live
    /// request has (it is reused once this one finishes): a driver can keep per-request data
    /// in an array at this index, storing the ID beside it to tell a reused slot.
    public var index: Int { Int(slot) }
}
